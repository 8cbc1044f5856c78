"""`manage.py evaluate_references` over the shared JATS papers meets the issue's goals and prints its JSON shape."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.usefixtures("shared_corpus")
def test_evaluate_references_meets_the_goals(shared_corpus):
    out = StringIO()
    call_command("evaluate_references", jats_dir=str(shared_corpus / "sci-pdf-jats"), json=True, stdout=out)
    result = json.loads(out.getvalue())
    assert len(result["papers"]) == 11
    total = result["total"]
    assert {"entries_expected", "entries_found", "entries_found_ratio", "links_precision", "links_recall"} <= set(total)
    assert total["entries_found_ratio"] >= 0.97
    assert total["links_precision"] >= 0.98 and total["links_recall"] >= 0.90


def test_a_folder_without_papers_is_refused(tmp_path):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="no papers"):
        call_command("evaluate_references", jats_dir=str(tmp_path))
