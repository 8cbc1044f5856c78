"""Chinese PDFs set at 1.5 or double line spacing (a thesis's declaration, a company report) keep their sentences
across line breaks: MuPDF returns every line as a block of its own, and the gap between two lines of one paragraph
is larger than a line height there, so before issue 16 every line became a paragraph and every sentence was cut at
the line end ("…论文中取得的" | "研究成果除加以标注…"). No space is put between the Han characters either, and the
joined sentence is still found on the page inside its paragraph's rectangles."""

from __future__ import annotations

import re

import pytest

from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.passage_text import sentences
from apps.documents.quote_places import quote_rects

VARIED = ("pdf-varied",)
THESIS = "zh_thesis_dlnu_master_template.pdf"  # XeLaTeX, declaration at 13.9 pt with 28.9 pt between baselines
REPORT = "zh_report_quarterly_2018q1_tables.pdf"  # WPS Office, 14.1 pt type, 31 pt between baselines


def _parsed(shared_corpus, name: str):
    path = shared_corpus.joinpath(*VARIED, name)
    return path, parse_document(path.read_bytes(), name)


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        (  # runs over three lines of the declaration page
            THESIS,
            "论文中取得的研究成果除加以标注和致谢的地方外，不包含其他人已经发表或撰写过的研究成果，"
            "也不包括本人为获得其他学位而使用过的材料。",
        ),
        (THESIS, "本人同意大连民族大学可以将学位论文的全部或部分内容编入有关数据库进行检索、交流。"),
        (
            REPORT,
            "公司董事会、监事会及董事、监事、高级管理人员保证季度报告内容的真实、准确、完整，不存在虚假记载、"
            "误导性陈述或者重大遗漏，并承担个别和连带的法律责任。",
        ),
    ],
)
def test_a_sentence_wrapped_at_double_spacing_is_one_sentence_of_one_chunk(shared_corpus, name, sentence):
    path, parsed = _parsed(shared_corpus, name)
    chunks = [c for c in chunk_document(parsed) if sentence in c.text]
    assert chunks, "the sentence is cut at a line break"
    said = [s for c in chunks for s in sentences(c.text)]
    assert any(sentence in s for s in said)
    assert not re.search(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]", sentence)
    # the joined sentence is placed on its page, over more than one line, inside its paragraph's rectangles (which
    # are among the chunk's)
    (block,) = [b for b in parsed.blocks if sentence in b.text]
    assert set(block.rects) <= set(chunks[0].rects)
    boxes = quote_rects(str(path), [r.as_dict() for r in block.rects], sentence)
    assert len({round(b["y0"]) for b in boxes}) >= 2


def test_a_figure_named_inside_a_sentence_is_not_taken_for_a_caption(shared_corpus):
    """ "…右键——为所有用户安装如" | "图1.3所示。": the line that opens with "图1.3" goes on the sentence."""
    _, parsed = _parsed(shared_corpus, THESIS)
    assert any("为所有用户安装如图1.3所示。" in b.text for b in parsed.blocks)
    assert not any(b.text == "图1.3所示。" for b in parsed.blocks)


def test_a_new_paragraph_and_a_new_item_still_start_a_block_of_their_own(shared_corpus):
    """The wider line gap does not glue paragraphs: the declaration's two paragraphs (each opening with a two-
    character indent) and the reference entries stay apart, and an entry's hanging second line joins its own."""
    _, parsed = _parsed(shared_corpus, THESIS)
    texts = [b.text for b in parsed.blocks]
    first = next(t for t in texts if t.startswith("本人声明所呈交的学位论文"))
    assert first.endswith("表示诚挚的谢意。")
    assert any(t.startswith("本学位论文作者和指导教师完全了解") for t in texts)
    entry = next(t for t in texts if t.startswith("[3] 朱文杰."))
    assert entry.endswith("中国信息技术教育, 2023, No.405(90-92).")
    assert not any(t.startswith("[3]") and "[4]" in t for t in texts)
