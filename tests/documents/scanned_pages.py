"""Scanned test pages with known text, made at run time: text set in one of MuPDF's built-in fonts, then rasterised
at 200 dpi into an image-only PDF, the way a scanner delivers a page (apps/evaluation/ocr_quality.py)."""

from __future__ import annotations

import pymupdf

from apps.evaluation.ocr_quality import rasterise, text_pdf

# Written for these tests.
ENGLISH = [
    "Field notes from the river survey",
    "The survey team measured water temperature at twelve stations along the river during the dry season. "
    "Each station was visited at dawn and again in the late afternoon, so that daily warming could be compared "
    "between shaded and open banks.",
    "Stations below the old mill were consistently warmer than those above it. The difference was largest in "
    "August, when the open banks warmed by almost four degrees between the two visits.",
]
CHINESE = [
    "河流调查的野外记录",
    "调查小组在旱季沿河设立了十二个测站，测量水温。每个测站在清晨和傍晚各测一次，以便比较有树荫的河岸与开阔河岸"
    "之间每日升温的差别。",
    "旧磨坊下游的测站一直比上游的测站温暖。八月份差别最大，开阔河岸在两次测量之间升温将近四度。",
]


def text_page(paragraphs: list[str], fontname: str) -> bytes:
    return text_pdf(paragraphs, fontname=fontname, fontsize=11)


def scanned(paragraphs: list[str], fontname: str) -> tuple[bytes, bytes]:
    """(image-only PDF, the PDF with the text layer it was made from), one page each."""
    original = text_page(paragraphs, fontname)
    return rasterise(original, [1]), original


def with_scanned_second_page(paragraphs: list[str], fontname: str) -> tuple[bytes, bytes]:
    """A two-page PDF whose first page has a text layer and whose second page is a scan of `paragraphs`; and the
    text PDF of that second page (for where its words really are)."""
    scan, original = scanned(paragraphs, fontname)
    doc = pymupdf.open()
    first = doc.new_page(width=595, height=842)
    first.insert_textbox(
        pymupdf.Rect(72, 72, 523, 770),
        "Survey methods. The stations, instruments and visits are described on the next page, which was "
        "scanned from the paper notebook of the survey team.",
        fontname="helv",
        fontsize=11,
    )
    with pymupdf.open(stream=scan, filetype="pdf") as scanned_doc:
        doc.insert_pdf(scanned_doc)
    data = doc.tobytes()
    doc.close()
    return data, original
