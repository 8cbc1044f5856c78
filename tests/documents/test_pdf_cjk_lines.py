"""A Chinese paragraph wrapped over several lines of a PDF, each line a text block of its own (as xeCJK/ctex PDFs
come out of MuPDF), is read as one paragraph: its sentences whole, no space between Han characters at a line
break, a quote mark at a line start glued to its word; a new (indented) paragraph still starts a block of its own,
and the quote of a joined sentence is still found on the page within the chunk's rectangles (issue 15). A DOCX
manual line break inside a Chinese sentence leaves no space either."""

from __future__ import annotations

import io
import re
from pathlib import Path

import docx
import pymupdf
import pytest

from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.passage_text import sentences
from apps.documents.quote_places import quote_rects

SIZE = 12
LINE_CHARS = 30  # characters per line: every glyph of the built-in CJK font ("china-s"), Latin too, is SIZE wide
LEFT = 72
FIRST = (
    "本模板支持多种编译方式，专为工作论文写作而设计，"
    "作者不用关心工作论文的格式，可以专心写作，从而有更加舒适和简便的写作体验。"
)
SECOND = "如果你有其他问题、建议或者报告错误，可以在项目主页留言，我们会尽快回复。"
# The issue's own case: a line that ends before a quotation mark ("…引用名为" | "“Document …"): the first line
# holds exactly LINE_CHARS - 2 characters, so the break falls there.
QUOTED = (
    "按照要求，在参考文献中，本模板的说明文档建议读者引用名为"
    "“Document Preparation System”的手册，并注明版本号和年份，以便查找。"
)
NEXT_PARAGRAPH = "第二段另起一行，首行缩进两个字符，它是一个新的段落。"


def _wrapped(page: pymupdf.Page, text: str, y: float) -> float:
    """Write `text` as a paragraph: first line indented two characters, every line its own insert_text call at a
    leading of 1.7 (MuPDF then returns one block per line), lines broken at LINE_CHARS like a typesetter would."""
    first, rest = True, text
    while rest:
        n = LINE_CHARS - 2 if first else LINE_CHARS
        line, rest = rest[:n], rest[n:]
        page.insert_text((LEFT + (2 * SIZE if first else 0), y), line, fontname="china-s", fontsize=SIZE)
        y += 1.7 * SIZE
        first = False
    return y + 0.5 * SIZE


@pytest.fixture
def cjk_pdf(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = _wrapped(page, FIRST + SECOND, 100)
    y = _wrapped(page, QUOTED, y)
    _wrapped(page, NEXT_PARAGRAPH, y)
    path = tmp_path / "zh_wrapped.pdf"
    doc.save(path)
    doc.close()
    return path


def _parsed(path: Path):
    return parse_document(path.read_bytes(), path.name)


def test_a_wrapped_chinese_sentence_is_one_sentence_of_the_chunk(cjk_pdf: Path):
    with pymupdf.open(cjk_pdf) as doc:  # the case is real: for MuPDF every line is a block of its own
        raw = [b for b in doc[0].get_text("dict")["blocks"] if b.get("type") == 0]
    assert len(raw) >= 8 and all(len(b["lines"]) == 1 for b in raw)
    chunks = chunk_document(_parsed(cjk_pdf))
    text = "\n\n".join(c.text for c in chunks)
    assert FIRST in text and SECOND in text
    assert not re.search(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]", text), "a space or break between Han characters"
    said = [s for c in chunks for s in sentences(c.text)]
    assert FIRST in said and SECOND in said


def test_a_quotation_mark_at_a_line_start_is_glued_to_its_word(cjk_pdf: Path):
    assert QUOTED.index("“") == LINE_CHARS - 2  # the line break falls right before the quotation mark
    blocks = [b.text for b in _parsed(cjk_pdf).blocks]
    assert QUOTED in blocks


def test_an_indented_line_still_starts_a_new_paragraph(cjk_pdf: Path):
    blocks = [b.text for b in _parsed(cjk_pdf).blocks]
    assert blocks == [FIRST + SECOND, QUOTED, NEXT_PARAGRAPH]


def test_the_joined_paragraph_keeps_its_boxes_and_its_quote_is_found_on_the_page(cjk_pdf: Path):
    (chunk,) = [c for c in chunk_document(_parsed(cjk_pdf)) if FIRST in c.text]
    assert chunk.locator_precision == "bbox"
    rects = [r.as_dict() for r in chunk.rects]
    assert min(r["y0"] for r in rects) < 100 < max(r["y1"] for r in rects) and max(r["y1"] for r in rects) > 130
    boxes = quote_rects(str(cjk_pdf), rects, FIRST)
    assert boxes, "the joined sentence was not found on the page"
    # The sentence runs over the first two lines (and three characters of the third): its boxes cover both.
    assert len({round(b["y0"]) for b in boxes}) >= 2


def test_a_manual_line_break_inside_a_chinese_docx_sentence_leaves_no_space():
    """The same where DOCX text is read: a manual line break (w:br) is a space in English, nothing in Chinese."""
    document = docx.Document()
    paragraph = document.add_paragraph("此模板专为工作论文写作而")
    paragraph.add_run().add_break()
    paragraph.add_run("设计。English words")
    paragraph.add_run().add_break()
    paragraph.add_run("wrap with a space.")
    buffer = io.BytesIO()
    document.save(buffer)
    (block,) = parse_document(buffer.getvalue(), "换行.docx").blocks
    assert block.text == "此模板专为工作论文写作而设计。English words wrap with a space."
