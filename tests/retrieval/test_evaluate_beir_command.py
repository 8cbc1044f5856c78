"""`manage.py evaluate --beir DIR`: a tiny BEIR folder whose right answers are known, through the real pipeline."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from apps.documents.models import Collection, Document

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = {
    "d1": ("Tides", "Spring tides follow the new and the full moon."),
    "d2": ("Volcanoes", "Basaltic lava flows from shield volcanoes."),
    "d3": ("Ribosomes", "Ribosomes translate messenger RNA into proteins."),
    "d4": ("熊猫", "大熊猫主要生活在四川的竹林中，以竹子为食。"),
}
QUERIES = {"q1": "when are spring tides", "q2": "shield volcano lava", "q3": "熊猫吃竹子", "q4": "unjudged query"}
QRELS = [("q1", "d1", 1), ("q2", "d2", 1), ("q3", "d4", 1)]


@pytest.fixture
def beir(tmp_path):
    with open(tmp_path / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for doc_id, (title, text) in DOCS.items():
            fh.write(json.dumps({"_id": doc_id, "title": title, "text": text}, ensure_ascii=False) + "\n")
    with open(tmp_path / "queries.jsonl", "w", encoding="utf-8") as fh:
        for qid, text in QUERIES.items():
            fh.write(json.dumps({"_id": qid, "text": text}, ensure_ascii=False) + "\n")
    (tmp_path / "qrels").mkdir()
    lines = ["query-id\tcorpus-id\tscore", *(f"{q}\t{d}\t{s}" for q, d, s in QRELS)]
    (tmp_path / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_every_mode_is_measured_and_the_collection_is_thrown_away(beir):
    out = StringIO()
    call_command("evaluate", "--beir", str(beir), "--json", stdout=out, stderr=StringIO())
    results = json.loads(out.getvalue())
    assert set(results) == {"keyword", "vector", "hybrid"}
    for mode, row in results.items():
        assert row["queries"] == 3, mode  # the unjudged query is not counted
        assert row["ndcg@10"] == pytest.approx(1.0), mode
        assert row["mrr@10"] == pytest.approx(1.0) and row["recall@100"] == pytest.approx(1.0)
        assert 0 < row["p50_ms"] <= row["p95_ms"]
        assert row["degraded"] == []
    assert not Collection.objects.exists() and not Document.objects.exists()


def test_one_mode_as_a_table(beir):
    out = StringIO()
    call_command("evaluate", "--beir", str(beir), "--mode", "keyword", stdout=out, stderr=StringIO())
    lines = out.getvalue().splitlines()
    assert lines[0].split()[:4] == ["mode", "nDCG@10", "R@100", "MRR@10"]
    assert lines[1].split()[:2] == ["keyword", "1.000"] and len(lines) == 2


def test_a_folder_that_is_not_beir_is_refused(tmp_path):
    with pytest.raises(CommandError, match=r"corpus\.jsonl is missing"):
        call_command("evaluate", "--beir", str(tmp_path))
