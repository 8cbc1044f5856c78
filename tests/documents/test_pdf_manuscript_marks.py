"""An accepted manuscript's marks (issue 16, the sixth fresh set's Elsevier/Word manuscript): every line numbered
in the margin (a step of 1, not lineno's 5 or 10) and a watermark set at a slant across each page. Both were read
into the text: numbers between the lines of every passage, "MANUSCRIPT ACCEPTED" inside sentences, and the
reference list not found at all (0 of 29 entries)."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing.formats.pdf import PdfParser
from apps.documents.parsing.formats.pdf_line_numbers import page_line_numbers

_BODY = "A line of body text that runs across the whole column, as text in a manuscript does."


def _box(x: float, y: float, text: str) -> tuple[str, tuple[float, float, float, float]]:
    return text, (x, y, x + 5.0 * len(text), y + 9.0)


def _found(lines: list) -> set[int]:
    return page_line_numbers(lines, box=lambda ln: ln[1], text=lambda ln: ln[0])


def test_every_line_numbered_is_line_numbering() -> None:
    text_lines = [_box(72, 60 + 14 * k, _BODY) for k in range(30)]
    margin = [_box(33, 60 + 14 * k, str(424 + k)) for k in range(30)]
    assert _found(text_lines + margin) == {id(ln) for ln in margin}


def test_a_list_s_labels_beside_entries_of_two_lines_are_no_line_numbering() -> None:
    # Labels "1", "2", … set apart from their entries, one beside the first line of each entry of two lines.
    text_lines = [_box(72, 60 + 14 * k, _BODY) for k in range(30)]
    labels = [_box(33, 60 + 28 * k, str(k + 1)) for k in range(15)]
    assert _found(text_lines + labels) == set()


def _manuscript() -> bytes:
    doc = pymupdf.open()
    for page_no in range(2):
        page = doc.new_page(width=612, height=792)
        for k in range(40):
            y = 80 + 16 * k
            page.insert_text((33, y), str(1 + 40 * page_no + k), fontsize=9)
            topic = ("fracture healing", "bone volume")[page_no]  # not the same line on each page: no running head
            page.insert_text((72, y), f"Sentence {k} of page {page_no + 1} says something about {topic}.")
        centre = pymupdf.Point(150, 600)
        page.insert_text(
            centre, "ACCEPTED MANUSCRIPT", fontsize=46, color=(0.85, 0.85, 0.85), morph=(centre, pymupdf.Matrix(-50))
        )
    data = doc.tobytes()
    doc.close()
    return data


def test_a_manuscript_reads_without_its_line_numbers_and_watermark() -> None:
    parsed = PdfParser().parse(_manuscript(), "manuscript.pdf")
    text = "\n".join(b.text for b in parsed.blocks)
    assert "MANUSCRIPT" not in text and "ACCEPTED" not in text
    assert "Sentence 7 of page 1 says something about fracture healing." in text
    assert "Sentence 0 of page 2 says something about bone volume." in text
    for block in parsed.blocks:
        assert not block.text.lstrip()[:1].isdigit(), block.text[:60]
    assert text.count("says something about") == 80
