"""Headings whose printed title is not where or what the simple readings expect (issue 16, the ninth fresh set):
an outline entry carrying LaTeX's short title ("Guidelines for NEJM" for the printed "3 Guidelines for New England
Journal of Medicine": the section was no heading), an appendix title running over a second line in one block
("Appendix B: A Template for an AGU++" over "Article": split into two headings), and an appendix label over a
title in another face (PTP: bold "Appendix A" over an italic "How to Make an Appendix": the title was text)."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing import parse_document

_TEXT = "The package modifies the bibliography style so that the entries follow the journal's own rules closely."


def _text(page: pymupdf.Page, y: float, lines: int = 5, x: float = 72) -> float:
    for k in range(lines):
        page.insert_text((x, y + 13 * k), _TEXT[: 70 + k], fontsize=10, fontname="helv")
    return y + 13 * lines + 16


def _headings(data: bytes, name: str) -> list[tuple[str, int]]:
    return [(b.text, len(b.heading_path)) for b in parse_document(data, name).blocks if b.kind == "heading"]


def test_an_outline_entry_with_a_short_title_names_the_heading_it_points_at() -> None:
    printed = ("1 Introduction", "2 Installation", "3 Guidelines for New England Journal of Medicine", "4 Usage")
    listed = ("Introduction", "Installation", "Guidelines for NEJM", "Usage")
    doc = pymupdf.open()
    toc = []
    for k, (title, entry) in enumerate(zip(printed, listed, strict=True)):
        page = doc.new_page(width=595, height=842)
        y = 100.0
        page.insert_text((72, y), title, fontsize=14.3, fontname="hebo")
        _text(page, y + 30)
        # hyperref's destination: a little above the heading's top, in PDF space (origin at the foot of the page)
        toc.append([1, entry, k + 1, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(0, 842 - y + 20)}])
    doc.set_toc(toc)
    assert _headings(doc.tobytes(), "nejm.pdf") == [(title, 1) for title in printed]


def _appendices(second_line_apart: bool) -> bytes:
    doc = pymupdf.open()
    for title in ("Introduction", "Methods", "Conclusions"):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), title, fontsize=12, fontname="hebo")
        _text(page, 110)
    page = doc.new_page(width=612, height=792)
    if second_line_apart:  # AGU: the title's second line right under its first, one block
        page.insert_text((72, 90), "Appendix B: A Template for an AGU++", fontsize=12, fontname="hebo")
        page.insert_text((72, 104), "Article", fontsize=12, fontname="hebo")
        _text(page, 124)
    else:  # PTP: the label centred in bold, the title centred under it in italics
        page.insert_text((270, 90), "Appendix A", fontsize=12, fontname="hebo")
        page.insert_text((246, 106), "How to Make an Appendix", fontsize=12, fontname="heit")
        _text(page, 130)
        page.insert_text((72, 330), "References", fontsize=12, fontname="hebo")
        _text(page, 350)
    return doc.tobytes()


def test_an_appendix_title_over_two_lines_is_one_heading() -> None:
    headings = _headings(_appendices(second_line_apart=True), "agu.pdf")
    assert ("Appendix B: A Template for an AGU++ Article", 1) in headings
    assert not [text for text, _ in headings if text == "Article"]


def test_an_appendix_label_over_a_title_in_italics_is_one_heading_in_the_labels_style() -> None:
    headings = _headings(_appendices(second_line_apart=False), "ptp.pdf")
    assert headings == [
        ("Introduction", 1),
        ("Methods", 1),
        ("Conclusions", 1),
        ("Appendix A How to Make an Appendix", 1),
        ("References", 1),
    ]
