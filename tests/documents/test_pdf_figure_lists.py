"""A list of figures printed as a chapter of its own (issue 16, the eighth fresh set's sduthesis demo: "插图" after
the appendix, in the chapters' type, not in the outline). Outline headings are completed with the section names
the outline leaves out; a list of figures or tables was not one of them, so it was read as text under the last
chapter and its leader lines were passages of that chapter. It is a heading now, and its entries are contents."""

from __future__ import annotations

import pymupdf
import pytest

from apps.documents.parsing import parse_document

_BODY = "This sentence is body text of the thesis, set in the text size of eleven points on the page."


def _thesis(chapters: tuple[str, ...], figures_title: str, entry: str, font: str) -> bytes:
    doc = pymupdf.open()
    toc = []
    for pno, title in enumerate(chapters, start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((200, 100), title, fontsize=16, fontname=font)
        toc.append([1, title, pno])
        for k in range(12):
            page.insert_text((72, 150 + 16 * k), _BODY, fontsize=11)
    page = doc.new_page(width=595, height=842)
    page.insert_text((260, 100), figures_title, fontsize=16, fontname=font)
    for k in range(4):
        page.insert_text((72, 150 + 20 * k), f"{k + 1}.1 {entry} " + ". " * 30 + f"{k + 1}", fontsize=11, fontname=font)
    doc.set_toc(toc)
    return doc.tobytes()


@pytest.mark.parametrize(
    ("chapters", "title", "entry", "font"),
    [
        (
            ("Introduction to the campus", "History of the university", "The campus today"),
            "List of Figures",
            "A view of the old library",
            "helv",
        ),
        (("第一章 介绍", "第二章 山东大学的历史", "第三章 现状"), "插图", "知新楼上的袅袅轻云", "china-s"),
    ],
)
def test_a_list_of_figures_after_the_chapters_is_a_heading_over_contents(chapters, title, entry, font) -> None:
    blocks = parse_document(_thesis(chapters, title, entry, font), "thesis.pdf").blocks

    def bare(text: str) -> str:  # "第一章 介绍" is read without the space between CJK characters
        return text.replace(" ", "") if font == "china-s" else text

    assert [bare(b.text) for b in blocks if b.kind == "heading"] == [bare(t) for t in (*chapters, title)]
    listed = [b for b in blocks if b.page == len(chapters) + 1 and b.kind != "heading"]
    assert listed and all(b.role == "contents" and b.heading_path == (title,) for b in listed)
