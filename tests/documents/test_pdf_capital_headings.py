"""Headings in bold capitals beside body text of the same size (issue 16, the ninth fresh set's ASCE example, made
by dvips): its fonts are named "CMSSBX10" and "CMBX12" and not flagged bold, so no heading style was seen (headings
0 of 7, references 0 of 32); once seen, "INPUT AND OPTIONS" was taken for a sub-heading of "INTRODUCTION" (as PLOS
sets mixed-case sub-headings in its sections' style), and "SECTIONS, SUBSECTIONS, EQUATIONS, ETC." was no heading
for its final full stop."""

from __future__ import annotations

import pymupdf
import pytest

from apps.documents.parsing import parse_document
from apps.documents.parsing.formats.pdf import _line_style
from apps.documents.parsing.formats.pdf_list_markers import attach_list_markers

_HEADINGS = ("INTRODUCTION", "INPUT AND OPTIONS", "SECTIONS, SUBSECTIONS, EQUATIONS, ETC.", "MISCELLANY", "REFERENCES")
_BODY = "The class file produces manuscripts that roughly comply with the guidelines of the society for its journals."


@pytest.mark.parametrize(
    ("font", "bold"),
    [
        ("CMSSBX10", True),
        ("ABCDEF+CMBX12", True),
        ("CMB10", True),
        ("SFBX1200", True),
        ("NimbusRomNo9L-Medi", True),
        ("CMR12", False),
        ("CMSS10", False),
        ("CMSY10", False),
        ("NimbusRomNo9L-Regu", False),
        ("CMCSC10", False),
    ],
)
def test_bold_is_read_from_the_font_name_where_the_file_does_not_flag_it(font: str, bold: bool) -> None:
    spans = [{"text": "INTRODUCTION", "flags": 4, "font": font, "size": 12.0}]  # 4: symbolic, not bold
    assert _line_style(spans) == (12.0, bold)


def _paper() -> bytes:
    doc = pymupdf.open()
    for pno, title in enumerate(_HEADINGS):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 80), title, fontsize=12, fontname="hebo")  # Helvetica-Bold, the text's size
        for k in range(10):
            page.insert_text((72, 104 + 15 * k), _BODY[: 60 + k], fontsize=12, fontname="helv")
            if pno == 4:
                break
        if pno == 4:
            page.insert_text(
                (72, 130), "Kuhn, M. R. (2011). Style files for ASCE-like documents. ascelike.", fontsize=12
            )
    return doc.tobytes()


def test_headings_in_capitals_are_siblings_of_the_section_names_in_capitals() -> None:
    blocks = parse_document(_paper(), "asce.pdf").blocks
    headings = [b for b in blocks if b.kind == "heading"]
    assert [b.text for b in headings] == list(_HEADINGS)
    assert all(len(b.heading_path) == 1 for b in headings)  # every one at the top level


def _span(text: str, font: str, x0: float, x1: float) -> dict:
    return {"text": text, "font": font, "flags": 0, "size": 10.92, "bbox": (x0, 402, x1, 414)}


def test_a_bold_number_in_a_box_of_its_own_keeps_its_face_in_front_of_its_title() -> None:
    # JPSJ (fresh4): "3." in a box of its own, then "AMSMATH Package" with "AMSMATH" in typewriter. Once "Cmbx10"
    # read as bold, the number, given the face of the title's first span (typewriter), left the heading not bold
    # and apart from its siblings' style (headings 6 -> 5 until the number kept its own face).
    number = {"bbox": (77, 402, 87, 413), "spans": [_span("3.", "Cmbx10", 77, 87)]}
    title = {
        "bbox": (97, 402, 185, 414),
        "spans": [
            _span("AMSMATH", "Cmtt10", 97, 150),
            _span(" ", "Cmbx10", 150, 153),
            _span("Package", "Cmbx10", 153, 185),
        ],
    }
    blocks = [{"bbox": (77, 402, 185, 414), "lines": [number, title]}]  # one MuPDF block holds both lines
    attach_list_markers(blocks)
    (line,) = blocks[0]["lines"]
    assert "".join(s["text"] for s in line["spans"]) == "3. AMSMATH Package"
    assert _line_style(line["spans"]) == (10.9, True)
