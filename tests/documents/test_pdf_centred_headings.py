"""An unnumbered heading in capitals centred over two lines is one heading (issue 16, the seventh fresh set's
JACoW template: "CHECKLIST FOR ELECTRONIC" over "PUBLICATION", "ANNEX B:" over "IEEE REFERENCE STYLE GUIDE AS
APPLIED TO JACoW PAPERS," over "PERIODICALS AND OTHER WORKS"). Their line boxes overlap (a 12 pt bold face's box
is taller than its 14 pt pitch), and only numbered headings were joined, so each line became a heading of its own
and the first one's section held no text."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing import parse_document

_BODY = "This sentence is body text of the sample document, set in the text size of ten points here."


def _centred(page: pymupdf.Page, y: float, text: str) -> None:
    width = pymupdf.get_text_length(text, fontname="hebo", fontsize=12)
    page.insert_text(((612 - width) / 2, y), text, fontsize=12, fontname="hebo")


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 80.0
    for heading in (
        ["INTRODUCTION"],
        ["CHECKLIST FOR ELECTRONIC", "PUBLICATION"],
        ["CONCLUSION"],
        ["APPENDIX"],
        ["REFERENCES"],
    ):
        for line in heading:
            _centred(page, y, line)
            y += 14  # tight leading: the boxes of 12 pt lines overlap
        y += 8
        for _ in range(3):
            page.insert_text((72, y), _BODY, fontsize=10)
            y += 12
        y += 14
    return doc.tobytes()


def test_a_centred_heading_in_capitals_over_two_lines_is_one_heading() -> None:
    headings = [b.text for b in parse_document(_pdf(), "guide.pdf").blocks if b.kind == "heading"]
    assert headings == ["INTRODUCTION", "CHECKLIST FOR ELECTRONIC PUBLICATION", "CONCLUSION", "APPENDIX", "REFERENCES"]
