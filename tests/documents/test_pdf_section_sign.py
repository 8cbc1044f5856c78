"""Sections numbered with a section sign (issue 16, the ninth fresh set's PTPTeX manual: "§1. Introduction" … "§7.
Comments", the number in a box of its own left of the title). The number was neither joined to its title nor read
as a number, so the headings lost it and, unnumbered, those after "Introduction" were taken for its sub-headings."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing import parse_document
from apps.documents.parsing.formats.pdf_heading_numbers import parse_label

_SECTIONS = ("Introduction", "Style and preamble", "Equations", "Comments")
_BODY = "The manuscript should be prepared with the class file that the journal provides for its authors here."


def _manual() -> bytes:
    doc = pymupdf.open()
    for k, title in enumerate(_SECTIONS, start=1):
        page = doc.new_page(width=595, height=842)
        top = 80 + 60 * k  # each section starts lower down its page, as sections run on in a paper
        page.insert_text((244, top), f"§{k}.", fontsize=11, fontname="hebo")
        page.insert_text((269, top), title, fontsize=11, fontname="hebo")
        y = top + 24
        for _ in range(6):
            page.insert_text((72, y), _BODY, fontsize=11)
            y += 14
        page.insert_text((72, y + 10), f"{k}.1. A subsection of it", fontsize=11, fontname="hebo")
        for _ in range(6):
            y += 14
            page.insert_text((72, y + 24), _BODY, fontsize=11)
    return doc.tobytes()


def test_a_section_sign_number_is_the_headings_number() -> None:
    label = parse_label("§3. Equations")
    assert label is not None and label.scheme == "arabic" and label.numbers[0] == 3
    blocks = parse_document(_manual(), "manptp.pdf").blocks
    tops = [b.text for b in blocks if b.kind == "heading" and len(b.heading_path) == 1]
    assert tops == [f"§{k}. {t}" for k, t in enumerate(_SECTIONS, start=1)]
