"""Where a document's headings start, and how few top-level sections it may have (issue 16, the seventh fresh
set's held-out half). An R vignette whose only known section names are its last two ("Conclusion", "References")
had its own sections before them ("Basic concept", "Usage in R", …) left as text: headings in that style were only
taken after the first known name, to keep the title block out. A Chinese regulation in two parts ("一、…", "二、…",
16 pt over 12 pt text) had no headings at all: a numbered top level needed three numbers."""

from __future__ import annotations

import pymupdf

from apps.documents.parsing import parse_document

_TEXT = (
    "Support vector machines are a family of methods for classification and regression that this sample text "
    "describes at some length, so that the paragraph reads as running text in the body size of the document. "
) * 2
_CN = "研究生学位论文是研究生在导师指导下从事科学研究或技术创新结果的报告和总结，为了统一写作标准，特制定本规定。" * 3


def _vignette() -> bytes:
    doc = pymupdf.open()
    page, y = doc.new_page(width=595, height=842), 70.0

    def put(text: str, size: float, font: str, width: int = 90) -> None:
        nonlocal page, y
        for k in range(0, len(text), width):
            if y > 780:
                page, y = doc.new_page(width=595, height=842), 70.0
            page.insert_text((72, y), text[k : k + width], fontsize=size, fontname=font)
            y += size + 3
        y += 8

    put("Support Vector Machines", 17, "hebo")
    put("The Interface to libsvm in package e1071", 14, "hebo")  # the subtitle: the headings' style, no heading
    put("by David Meyer", 12, "helv")
    put(_TEXT, 10, "helv")
    for name in ("Basic concept", "Usage in R", "Examples", "Conclusion", "References"):
        put(name, 14, "hebo")
        put(_TEXT, 10, "helv")
    return doc.tobytes()


def _regulation() -> bytes:
    doc = pymupdf.open()
    page, y = doc.new_page(width=595, height=842), 80.0

    def put(text: str, size: float, width: int = 38) -> None:
        nonlocal page, y
        for k in range(0, len(text), width):
            if y > 780:
                page, y = doc.new_page(width=595, height=842), 80.0
            page.insert_text((60, y), text[k : k + width], fontsize=size, fontname="china-s")
            y += size + 6
        y += 10

    put("东南大学研究生学位论文的格式规定", 22)
    put(_CN, 12)
    put("一、学位论文的一般格式和顺序", 16)
    for item in ("（一）论文题目", "（二）论文摘要", "（三）目录"):
        put(item, 14)
        put(_CN, 12)
    put("二、有关学位论文的印刷格式", 16)
    for item in ("（一）论文封面", "（二）目录的内容编排"):
        put(item, 14)
        put(_CN, 12)
    return doc.tobytes()


def test_a_document_s_own_sections_before_its_known_names_are_headings() -> None:
    blocks = parse_document(_vignette(), "svmdoc.pdf").blocks
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["Basic concept", "Usage in R", "Examples", "Conclusion", "References"]


def test_two_chinese_numbered_parts_set_large_are_the_top_level() -> None:
    blocks = parse_document(_regulation(), "rules.pdf").blocks
    top = [b.text for b in blocks if b.kind == "heading" and len(b.heading_path) == 1]
    assert top == ["一、学位论文的一般格式和顺序", "二、有关学位论文的印刷格式"]
    items = [b for b in blocks if b.kind == "heading" and b.text.startswith("（")]
    assert len(items) == 5 and all(len(b.heading_path) == 2 for b in items)
