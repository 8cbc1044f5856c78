"""Headings set in small caps by changing the type size, and bold phrases that only begin a sentence (issue 16,
the ninth fresh set's WordPerfect summary of the DMCA): its parts ("TITLE I: WIPO TREATY IMPLEMENTATION") print
their capitals at 13.9 pt and their small letters at 11 pt in a 12 pt text, so by the small letters' size they
ranked below the 13 pt bold sections and were no headings at all (top-level headings 1 of 7); its list items
begin with a bold act's name running over two lines ("Title I, the “WIPO Copyright … Act,” implements the WIPO"
over "treaties."), which were taken for headings."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing import parse_document
from apps.documents.parsing.formats.pdf_layout import small_caps_size

_BODY = (
    "The act implements two treaties and makes technical amendments to the law of the country, in order to "
    "provide appropriate references and links to the treaties that the parties signed in the year before."
)
_PARTS = ("TITLE I: TREATY IMPLEMENTATION", "TITLE II: ONLINE LIABILITY", "TITLE III: COMPUTER REPAIR")


def _small_caps(page: pymupdf.Page, y: float, text: str) -> None:
    """Each word's first letter at 13.9 pt, the rest at 11 pt, bold, on one baseline (as WordPerfect sets them)."""
    x = 72.0
    for word in text.split(" "):
        for piece, size in ((word[:1], 13.9), (word[1:], 11.0)):
            if piece:
                page.insert_text((x, y), piece, fontsize=size, fontname="hebo")
                x += pymupdf.get_text_length(piece, fontname="hebo", fontsize=size)
        x += pymupdf.get_text_length(" ", fontname="hebo", fontsize=11.0)


def _paragraph(page: pymupdf.Page, y: float, lines: int = 4) -> float:
    for k in range(lines):
        page.insert_text((108, y + 14 * k), _BODY[k * 12 : k * 12 + 80], fontsize=12, fontname="helv")
    return y + 14 * lines + 14


def _summary() -> bytes:
    doc = pymupdf.open()
    for part in _PARTS:
        page = doc.new_page(width=612, height=792)
        _small_caps(page, 90, part)
        y = _paragraph(page, 120)
        # A list item whose bold act's name fills its first lines; the sentence ends on the next line, in the text.
        page.insert_text((180, y), "Title I, the “WIPO Copyright and Performances", fontsize=12, fontname="hebo")
        page.insert_text((180, y + 14), "Treaties Act,” implements the two", fontsize=12, fontname="hebo")
        page.insert_text((180, y + 28), "treaties.", fontsize=12, fontname="helv")
        page.insert_text((108, y + 60), "Technical Amendments", fontsize=13, fontname="hebo")
        y = _paragraph(page, y + 80)
        page.insert_text((108, y), "National Eligibility", fontsize=12, fontname="hebo")
        _paragraph(page, y + 20)
    return doc.tobytes()


def test_small_caps_headings_are_the_top_level_above_larger_bold_sections() -> None:
    headings = [b for b in parse_document(_summary(), "dmca.pdf").blocks if b.kind == "heading"]
    assert [(b.text, len(b.heading_path)) for b in headings] == [
        (text, level)
        for part in _PARTS
        for text, level in ((part, 1), ("Technical Amendments", 2), ("National Eligibility", 3))
    ]


def test_a_bold_phrase_whose_sentence_goes_on_is_no_heading() -> None:
    blocks = parse_document(_summary(), "dmca.pdf").blocks
    assert not [b for b in blocks if b.kind == "heading" and "WIPO" in b.text]
    assert any("WIPO Copyright" in b.text and b.kind != "heading" for b in blocks)


def _spans(*pieces: tuple[str, float]) -> list[dict]:
    return [{"text": text, "size": size} for text, size in pieces]


def test_small_caps_are_told_from_capitals_and_superscripts() -> None:
    assert small_caps_size(_spans(("T", 13.9), ("ITLE ", 11.0), ("I:", 13.9))) == 13.9
    assert small_caps_size(_spans(("I. I", 10.0), ("NTRODUCTION", 8.0))) == 10.0  # IEEE's section heads
    assert small_caps_size(_spans(("INTRODUCTION", 12.0))) == 0.0  # capitals of one size
    assert small_caps_size(_spans(("NASA", 12.0), ("a", 8.0))) == 0.0  # a footnote mark: not all capitals
    assert small_caps_size(_spans(("RESULTS", 12.0), ("12", 8.0))) == 0.0  # a superscript citation
    assert small_caps_size(_spans(("RESULTS ", 12.0), ("AND", 9.0))) == 0.0  # a size change between words
