"""A table read from a PDF is listed like any other table (issue 16 with issue 15's table lists): its rows, one per
line with cells joined by " | ", are the items of the answer, verbatim, the header row naming them, and a cell value
the question names picks the rows that hold it."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.language import detect
from apps.citations.answers.types import ComposeRequest, Evidence
from apps.documents.parsing import chunk_document, parse_document
from tests.citations.hit_factory import make_hit

GEOBASE = (
    Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "pdf-varied" / "word_geobase_nhn_data_model.pdf"
).resolve()
pytestmark = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without the corpus


def _answer(question: str, evidence: list[Evidence]) -> list[str]:
    composer = ExtractiveComposer(use_embeddings=False)
    stream = composer.stream(ComposeRequest(question, evidence, language=detect(question)))
    return "".join(p for p in stream if isinstance(p, str)).splitlines()


def test_the_rows_of_a_ruled_pdf_table_are_listed_and_filtered_by_the_cell_the_question_names():
    parsed = parse_document(GEOBASE.read_bytes(), GEOBASE.name)
    (table,) = [d for d in chunk_document(parsed) if d.chunk_type == "table"]  # the revision history, page 3
    assert table.text.split("\n")[0] == "Date | Version | Description"
    hit = make_hit(text=table.text, chunk_type="table", heading_path=["Revision history"], section="Revision history")
    evidence = [Evidence(1, hit)]

    listed = _answer("Which versions are in the revision history table?", evidence)
    assert len(listed) == 8 and all(line.startswith("- ") for line in listed)
    assert listed[0] == "- September 2002 | Draft 01 | First draft for discussion with Nova Scotia [1]"
    assert not any(line.startswith("- Date | Version") for line in listed)  # the header names the list

    in_2003 = _answer("Which revisions in the revision history table are from 2003?", evidence)
    assert [line.split(" | ")[0] for line in in_2003] == [
        "- January 2003",
        "- March 2003",
        "- July 2003",
        "- December 2003",
    ]
