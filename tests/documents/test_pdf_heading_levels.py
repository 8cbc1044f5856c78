"""Headings of the common paper layouts, read from real PDFs (issue 16): an IEEE paper's passages carry its printed
roman-numeral sections (not "Introduction" everywhere) with lettered sub-sections one level down; numbered papers
(ACL) get their levels from the numbering, number and title set as separate text runs joined, appendices lettered
after the references at top level; small capitals split by the text layer are joined; a Chinese report and thesis
keep their printed Chinese section names while the canonical key still says what kind of section it is."""

from __future__ import annotations

import collections
from pathlib import Path

import pymupdf
import pytest

from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.formats.pdf_heading_fragments import join_heading_fragments, join_small_caps
from apps.documents.parsing.formats.pdf_heading_levels import find_headings
from apps.documents.parsing.formats.pdf_layout import RawBlock, RawLine
from apps.documents.parsing.formats.pdf_letter_spacing import unspace_letters
from apps.documents.parsing.sections import CANONICAL_NAMES

VARIED = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "pdf-varied").resolve()
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it


def _read(name: str):
    parsed = parse_document((VARIED / name).read_bytes(), name)
    return parsed, chunk_document(parsed)


@needs_corpus
def test_ieee_sections_are_the_printed_roman_headings() -> None:
    parsed, chunks = _read("ieee_smc2020_reward_functions_rl_traffic.pdf")
    top = [b.text for b in parsed.blocks if b.kind == "heading" and len(b.heading_path) == 1]
    assert top == [
        "I. INTRODUCTION", "II. RELATED WORK", "III. PROBLEM BACKGROUND AND DEFINITION", "IV. METHODS",
        "V. REWARD FUNCTIONS", "VI. EXPERIMENTAL SETUP", "VII. RESULTS", "VIII. DISCUSSION AND CONCLUSION",
        "ACKNOWLEDGMENT", "REFERENCES",
    ]  # fmt: skip
    sections = collections.Counter(c.section for c in chunks)
    assert sections["I. INTRODUCTION"] <= 0.15 * len(chunks)  # was 50 of 60 passages on "Introduction"
    assert len([s for s in sections if s.startswith(("I", "V"))]) >= 8
    # a lettered sub-section is one level down, and its passages show the top-level section they are in
    queue = next(c for c in chunks if c.heading_path[-1:] == ("A. Queue Length based Rewards",))
    assert queue.heading_path == ("V. REWARD FUNCTIONS", "A. Queue Length based Rewards")
    assert queue.section == "V. REWARD FUNCTIONS" and queue.section_key == ""
    refs = [c for c in chunks if c.section == "REFERENCES"]
    assert refs and all(c.section_key == "References" and c.weight == 0.0 for c in refs)
    abstract = next(c for c in chunks if c.text.startswith("Abstract—"))  # IEEE's closed-up run-in dash
    assert abstract.section_key == "Abstract" and abstract.section == "Abstract"


@needs_corpus
def test_numbered_paper_levels_and_lettered_appendices() -> None:
    parsed, chunks = _read("acl2020_s2orc.pdf")
    paths = [b.heading_path for b in parsed.blocks if b.kind == "heading"]
    # "1" and "Introduction" are separate text runs on one baseline: joined into the printed heading
    assert ("1 Introduction",) in paths and ("Introduction",) not in paths
    assert ("2 Constructing the corpus", "2.1 Processing PDFs") in paths
    assert ("A Background & Terminology",) in paths and ("F Numeric representations in S2ORC-SCIBERT",) in paths
    top = [p[0] for p in paths if len(p) == 1]
    assert top.index("References") < top.index("A Background & Terminology")
    under = next(c for c in chunks if c.heading_path[-1:] == ("2.1 Processing PDFs",))
    assert under.section == "2 Constructing the corpus"


@needs_corpus
def test_two_line_headings_and_separate_numerals_join() -> None:
    parsed, _ = _read("revtex_aps_nakamoto_consensus_2col.pdf")
    top = [b.text for b in parsed.blocks if b.kind == "heading" and len(b.heading_path) == 1]
    # revtex centres "II." apart from its title and breaks long headings over two or three lines
    assert "I. INTRODUCTION: THE THERMODYNAMICS OF DISTRIBUTED CONSENSUS" in top
    assert "II. NETWORK MODEL, STATISTICS, AND THE ARROW OF TIME" in top


def test_small_capitals_split_by_the_text_layer_are_joined() -> None:
    assert join_small_caps("I. I NTRODUCTION") == "I. INTRODUCTION"
    assert join_small_caps("II. R ELATED W ORK") == "II. RELATED WORK"
    assert join_small_caps("R EFERENCES") == "REFERENCES"
    assert join_small_caps("A NEW METHOD FOR X") == "A NEW METHOD FOR X"  # a real one-letter word
    assert join_small_caps("A Study of Things") == "A Study of Things"


def test_small_capital_heading_in_a_pdf_is_read_whole() -> None:
    """A heading set in small capitals the way IEEEtran does it (a full-size capital, then the rest of the word in
    smaller capitals, each a text run of its own with a gap) is read as the printed word, and as a heading."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 80.0
    body = "The body of the section goes on in plain text for a while, long enough to be the body style. " * 3
    for numeral, words in (("I.", ["INTRODUCTION"]), ("II.", ["RELATED", "WORK"]), ("III.", ["PROPOSED", "METHODS"])):
        x = 200.0
        page.insert_text((x, y), numeral, fontsize=10)
        x += pymupdf.get_text_length(numeral + " ", fontsize=10)
        for word in words:
            page.insert_text((x, y), word[0], fontsize=10)
            x += pymupdf.get_text_length(word[0], fontsize=10) + 2.5  # the gap the text layer reads as a space
            page.insert_text((x, y), word[1:], fontsize=8)
            x += pymupdf.get_text_length(word[1:] + " ", fontsize=8)
        y += 24
        for line in range(3):
            page.insert_text((72, y), body[line * 90 : (line + 1) * 90], fontsize=10)
            y += 13
        y += 18
    data = doc.tobytes()
    parsed = parse_document(data, "smallcaps.pdf")
    headings = [b.text for b in parsed.blocks if b.kind == "heading"]
    assert headings == ["I. INTRODUCTION", "II. RELATED WORK", "III. PROPOSED METHODS"], headings


@needs_corpus
def test_chinese_headings_keep_their_printed_names() -> None:
    parsed, chunks = _read("zh_report_quarterly_2018q1_tables.pdf")
    top = [b.text for b in parsed.blocks if b.kind == "heading" and len(b.heading_path) == 1]
    assert top == ["第一节重要提示", "第二节公司基本情况", "第三节重要事项", "第四节财务报表"]
    # 一、二、… restart under each 第X节: one level down, not top-level sections of their own
    paths = {b.heading_path for b in parsed.blocks}
    assert ("第三节重要事项", "二、重要事项进展情况及其影响和解决方案的分析说明") in paths
    assert not any(c.section in CANONICAL_NAMES for c in chunks)  # no English name shown in a Chinese document
    _, thesis = _read("zh_thesis_dlnu_master_template.pdf")
    shown = {(c.section, c.section_key) for c in thesis}
    assert {("摘要", "Abstract"), ("参考文献", "References"), ("致谢", "Acknowledgements")} <= shown
    assert ("第一章latex 模板介绍", "") in shown
    refs = [c for c in thesis if c.section == "参考文献"]
    assert refs and all(c.weight == 0.0 for c in refs)  # the canonical key still drives the weights


def test_an_unnumbered_body_section_name_in_a_numbered_paper_opens_no_section() -> None:
    """A figure's label that happens to be a section name ("Context", which is also an alias of Introduction) set
    in heading type between the paragraphs of "2. Method" must not become a top-level section that every later
    passage is filed under; an unnumbered "References" still is one."""
    doc = pymupdf.open()
    body = "The body of the section goes on in plain text for a while, long enough to be the body style. " * 3
    page = doc.new_page(width=612, height=792)
    y = 80.0
    for heading in ("1. Introduction", "2. Method", "Context", None, "3. Results", "References"):
        if heading:
            page.insert_text((72, y), heading, fontsize=12, fontname="hebo")
            y += 20
        for line in range(3):
            page.insert_text((72, y), body[line * 90 : (line + 1) * 90], fontsize=10)
            y += 13
        y += 14
    parsed = parse_document(doc.tobytes(), "numbered.pdf")
    levels = {b.text: len(b.heading_path) for b in parsed.blocks if b.kind == "heading"}
    assert levels.get("Context", 2) > 1, levels
    assert {levels[t] for t in ("1. Introduction", "2. Method", "3. Results", "References")} == {1}, levels
    sections = [d.section for d in chunk_document(parsed)]
    assert "Context" not in sections and "2. Method" in sections, sections


def test_letter_spaced_words_are_read_as_words() -> None:
    assert unspace_letters("r e f e r e n c e s") == "references"
    assert unspace_letters("2 R E S U L T S") == "2 RESULTS"
    assert unspace_letters("F E L I N E  F O C U S") == "FELINE FOCUS"  # words apart by a wider space
    assert unspace_letters("结  论") == "结论" and unspace_letters("参 考 文 献") == "参考文献"
    assert unspace_letters("a b c") == "a b c"  # three letters may be variables
    assert unspace_letters("Results and discussion") == "Results and discussion"


def _letter_spaced_pdf() -> bytes:
    """Headings set letter by letter with a gap after each (how Elsevier's small-capital "r e f e r e n c e s"
    and a Chinese thesis's "结  论" are printed), each over a paragraph of body text."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    body = "The body of the section goes on in plain text for a while, long enough to be the body style. " * 3
    y = 80.0
    for heading, font in (("introduction", "helv"), ("methods", "helv"), ("结论", "china-s"), ("references", "helv")):
        x = 72.0
        for letter in heading:
            page.insert_text((x, y), letter, fontsize=12, fontname=font)
            x += pymupdf.get_text_length(letter, fontsize=12, fontname=font) + 4.5  # the letter spacing
        y += 22
        for line in range(3):
            page.insert_text((72, y), body[line * 90 : (line + 1) * 90], fontsize=10)
            y += 13
        y += 18
    return doc.tobytes()


def test_letter_spaced_headings_are_found_and_named() -> None:
    parsed = parse_document(_letter_spaced_pdf(), "spaced.pdf")
    headings = [b.text for b in parsed.blocks if b.kind == "heading"]
    assert headings == ["introduction", "methods", "结论", "references"], headings


@needs_corpus
def test_elsevier_letter_spaced_references_heading_opens_the_references() -> None:
    """Elsevier (Braz. J. Microbiol. 2016) prints "r e f e r e n c e s" in small capitals, one span per letter with
    zero-size spaces between them, which the text layer returns as four pieces of a line: before, the reference
    list was read as part of "Acknowledgments" (held-out file of issue 16, looked at after tuning)."""
    parsed, chunks = _read("elsevier_bjm2016_asparaginase_review.pdf")
    top = [b.text for b in parsed.blocks if b.kind == "heading" and len(b.heading_path) == 1]
    assert top[-2:] == ["Acknowledgments", "references"], top
    refs = [c for c in chunks if c.section_key == "References"]
    assert refs and all(c.weight == 0.0 for c in refs)


@needs_corpus
def test_a_chinese_thesis_with_letter_spaced_headings_and_spaced_numbers() -> None:
    """BIThesis prints "结    论", "附    录", "致    谢" with each character a block of its own, "第1 章一级题目"
    where its outline says "一级题目", and "1. 1 二级题目" (xeCJK's spaces): before, only "参考文献" of its five
    top-level headings was found (held-out file of issue 16, looked at after tuning)."""
    parsed, chunks = _read("zh_thesis_bit_undergrad_template.pdf")
    top = [b.text for b in parsed.blocks if b.kind == "heading" and len(b.heading_path) == 1]
    assert top == ["摘要", "Abstract", "目录", "第1 章一级题目", "结论", "参考文献", "附录", "致谢"], top
    paths = {b.heading_path for b in parsed.blocks if b.kind == "heading"}
    assert ("第1 章一级题目", "1.1 二级题目", "1.1.1 三级题目") in paths
    assert ("附录", "附录A LATEX 环境的安装") in paths
    shown = {(c.section, c.section_key) for c in chunks}
    assert {("结论", "Conclusions"), ("致谢", "Acknowledgements")} <= shown


def _raw(text: str, y: float, size: float = 12.0, bold: bool = False, x: float = 72.0) -> RawBlock:
    width = 8.0 * len(text)
    return RawBlock(lines=[RawLine(text=text, bbox=(x, y, x + width, y + size))], max_size=size, bold=bold)


def test_a_chapter_label_set_apart_from_its_title_joins_it() -> None:
    """ThuThesis sets "第1 章" and its title, "附录A" and its title, as blocks of their own on one baseline."""
    page = [
        _raw("第1 章", 111, 16, x=150),
        _raw("论文主要部分的写法", 111, 16, x=210),
        _raw("附录A", 400, 16, x=150),
        _raw("补充内容", 400, 16, x=200),
    ]
    joined = join_heading_fragments([page])[0]
    assert [b.text for b in joined] == ["第1 章 论文主要部分的写法", "附录A 补充内容"]


def test_section_names_the_outline_leaves_out_are_headings_in_its_size_whatever_their_weight() -> None:
    """A thesis outline lists its chapters only; "Abstract" (bold Latin beside the regular CJK "摘要") and "目录"
    printed in the chapters' size are top-level headings too, so the contents pages are not shown under the
    abstract's "Keywords" (bjfuthesis, fresh held-out set)."""
    body = "正文" * 30
    pages = [
        [_raw("摘要", 60, 16), _raw(body, 100)],
        [_raw("Abstract", 60, 16, bold=True), _raw("The abstract in English " * 5, 100), _raw("Keywords: a, b", 140)],
        [_raw("目录", 60, 16), _raw("1 绪论 ........ 1", 100)],
        [_raw("1 绪论", 60, 16), _raw(body, 100)],
        [_raw("2 方法", 60, 16), _raw(body, 100)],
        [_raw("3 结果", 60, 16), _raw(body, 100)],
        [_raw("Bold remark", 300, 12, bold=True), _raw(body, 330)],
    ]
    toc = [[1, "摘要", 1], [1, "绪论", 4], [1, "方法", 5], [1, "结果", 6]]
    pages, levels = find_headings(pages, toc)
    top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == ["摘要", "Abstract", "目录", "1 绪论", "2 方法", "3 结果"], top


def _pages_with_running_heads() -> bytes:
    """A thesis's last ten pages: "参考文献" as the heading of page 2 and as the running head of pages 2 and 3 only
    (the chapter's own, too few pages to count as repeated through the document), over its entries (which the
    table finder takes for a table: content a running head frames all the same)."""
    doc = pymupdf.open()
    for number in range(1, 11):
        page = doc.new_page(width=595, height=842)
        if number in (2, 3):
            page.insert_text((260, 60), "参考文献", fontsize=10, fontname="china-s")  # the running head
        if number == 2:
            page.insert_text((250, 130), "参考文献", fontsize=16, fontname="china-s")  # the heading
        for line in range(6):
            entry = f"[{number}{line}] 作者. 题名[J]. 刊名, 2020, {line}: 1-9."
            page.insert_text((72, 170 + 20 * line), entry, fontsize=10, fontname="china-s")
    return doc.tobytes()


def test_a_chapter_running_head_on_its_own_pages_is_dropped_and_its_heading_kept() -> None:
    parsed = parse_document(_pages_with_running_heads(), "backmatter.pdf")
    named = [(b.page, b.text) for b in parsed.blocks if b.text == "参考文献"]
    assert named == [(2, "参考文献")], named


def test_an_unlisted_section_name_one_half_point_off_the_chapters_size_is_top_level() -> None:
    """hustthesis sets "Abstract" in a bold Latin face at 17.9 pt beside chapter titles of 17.7 pt: one size as
    printed, so it opens the English abstract instead of leaving it under "摘要" (fresh held-out set)."""
    body = "正文" * 30
    pages = [
        [_raw("摘要", 60, 17.7), _raw(body, 100)],
        [_raw("Abstract", 60, 17.9, bold=True), _raw("The abstract in English " * 5, 100)],
        [_raw("基本格式测试", 60, 17.7), _raw(body, 100)],
        [_raw("其他格式测试", 60, 17.7), _raw(body, 100)],
        [_raw("Conclusions", 60, 19.0, bold=True), _raw(body, 100)],  # a size larger: not the chapters'
    ]
    toc = [[1, "摘要", 1], [1, "基本格式测试", 3], [1, "其他格式测试", 4]]
    pages, levels = find_headings(pages, toc)
    top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == ["摘要", "Abstract", "基本格式测试", "其他格式测试"], top


def test_a_section_starting_on_the_contents_page_takes_its_outline_entry_from_its_heading() -> None:
    """ctexart prints 目录 and "第1节 简介" on page 1: the entry belongs to the 15 pt heading, not to the bold 10.5 pt
    contents line read before it, so the top-level style is the headings' and "参考文献" (same size, not in the
    outline) is top level too (fresh held-out zhlineskip)."""
    body = "正文" * 30
    pages = [
        [_raw("目录", 60, 15, bold=True), _raw("第1节 简介", 90, 10.5, bold=True),
         _raw("第2节 功能", 110, 10.5, bold=True), _raw("第1节 简介", 300, 15, bold=True), _raw(body, 340)],
        [_raw("1.1 宏包依赖", 60, 12.7, bold=True), _raw(body, 100)],
        [_raw("第2节 功能", 60, 15, bold=True), _raw(body, 100)],
        [_raw("参考文献", 60, 15, bold=True), _raw("[1] 作者. 题名[M]. 出版社, 2005.", 100)],
    ]  # fmt: skip
    toc = [[1, "第1节 简介", 1], [2, "1.1 宏包依赖", 2], [1, "第2节 功能", 3]]
    pages, levels = find_headings(pages, toc)
    top = [(b.text.replace(" ", ""), b.max_size) for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == [("目录", 15), ("第1节简介", 15), ("第2节功能", 15), ("参考文献", 15)], top


def test_declarations_set_smaller_than_the_sections_are_top_level() -> None:
    """USENIX sets "Acknowledgements" in 12 pt bold between 14.3 pt sections; a run-in label ("Author
    contributions." in bold, revtex) is not a section of its own."""
    body = "Body text of the section. " * 10
    pages = [
        [_raw("1 Introduction", 60, 14.3, bold=True), _raw(body, 100, 10)],
        [_raw("2 Background", 60, 14.3, bold=True), _raw(body, 100, 10)],
        [_raw("3 Results", 60, 14.3, bold=True), _raw(body, 100, 10), _raw("Acknowledgements", 300, 12, bold=True),
         _raw(body, 330, 10), _raw("Author contributions.", 360, 10, bold=True), _raw(body, 372, 10),
         _raw("References", 400, 14.3, bold=True), _raw("[1] A. Author. Title. 2001.", 430, 9)],
    ]  # fmt: skip
    toc = [[1, "Introduction", 1], [1, "Background", 2], [1, "Results", 3], [1, "References", 3]]
    pages, levels = find_headings(pages, toc)
    top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == ["1 Introduction", "2 Background", "3 Results", "Acknowledgements", "References"], top


def test_headings_named_by_the_document_itself_are_found_from_their_recurring_style() -> None:
    """biblatex-chicago's sample names its sections "Editions", "Usage", "Shorthands" (no known section name but
    "References", no outline): short lines in a bold 14.3 pt style recurring over pages are its top level, the
    bold 12 pt ones level 2; bold words once in a while are not headings."""
    body = "Body text of the section, long enough to be a paragraph of running text. " * 4
    pages = [
        [_raw("Editions", 60, 14.3, bold=True), _raw(body, 90), _raw("Usage", 300, 14.3, bold=True), _raw(body, 330)],
        [_raw("Shorthands", 60, 14.3, bold=True), _raw(body, 90), _raw("Corner cases", 300, 12, bold=True),
         _raw(body, 330), _raw("Note well", 500, 12, bold=True), _raw(body, 530)],
        [_raw("Multiple authors", 60, 12, bold=True), _raw(body, 90), _raw("Further examples", 300, 14.3, bold=True),
         _raw(body, 330)],
        [_raw("References", 60, 24.8, bold=True), _raw("Adorno, Theodor W. 1999. The Complete Correspondence.", 90)],
    ]  # fmt: skip
    pages, levels = find_headings(pages, [])
    found = [(b.text, levels[id(b)]) for page in pages for b in page if id(b) in levels]
    assert found == [
        ("Editions", 1), ("Usage", 1), ("Shorthands", 1), ("Corner cases", 2), ("Note well", 2),
        ("Multiple authors", 2), ("Further examples", 1), ("References", 1),
    ], found  # fmt: skip


def test_a_subtitle_over_the_first_heading_is_not_joined_to_it() -> None:
    """Two lines in one heading style: a wrapped heading's lines are a line apart, a subtitle and the heading under
    it two; only the first are one paragraph (no running text is set in that size to learn its spacing from)."""
    from apps.documents.parsing.formats.pdf_paragraphs import join_paragraph_lines

    def block(text: str, y: float) -> RawBlock:
        return RawBlock(lines=[RawLine(text=text, bbox=(71, y, 520, y + 21))], max_size=14.3, bold=True)

    apart = join_paragraph_lines([block("Please don’t read on. See cms-dates-intro.pdf first, and more.", 56),
                                  block("Editions", 87)], {})  # fmt: skip
    assert [b.text for b in apart] == ["Please don’t read on. See cms-dates-intro.pdf first, and more.", "Editions"]
    wrapped = join_paragraph_lines([block("A heading long enough that it has to wrap onto a second line of", 56),
                                    block("its own", 74)], {})  # fmt: skip
    assert len(wrapped) == 1


def test_a_short_outline_and_the_type_style_together_give_the_headings() -> None:
    """zootaxa's outline lists its two numbered sections; "References" (unnumbered, not in the outline) is set in
    their style and is a heading too: two pieces of evidence, joined."""
    body = "Body text of the section, long enough to be a paragraph of running text. " * 4
    pages = [
        [_raw("An example manuscript", 60, 17.2), _raw(body, 100)],
        [_raw("1 Live example", 60, 14.3, bold=True), _raw(body, 90)],
        [_raw("2 Acknowledgements", 60, 14.3, bold=True), _raw(body, 90), _raw("References", 300, 14.3, bold=True),
         _raw("Artedi, P. (1793) Ichthyologiae pars IV. Editio II. Grypeswaldiae.", 330)],
    ]  # fmt: skip
    pages, levels = find_headings(pages, [[1, "Live example", 2], [1, "Acknowledgements", 3]])
    top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == ["1 Live example", "2 Acknowledgements", "References"], top


def test_one_section_name_set_well_above_the_text_shows_the_heading_style() -> None:
    """caspervector-ay: "本文参考文献" in 15 pt over 9 pt entries, then a second list under "其它参考文献示例（…）"
    in the same style; no outline, no repeated style. The lone name shows the style; a bold one of body size not."""
    entries = [_raw(f"作者{i}(1996)。题名[M]。北京：出版社。", 100 + 14 * i, 9) for i in range(30)]
    pages = [
        [_raw("caspervector-ay 作者–年编码制示例", 60, 18), _raw("本文参考文献", 300, 15), *entries[:15]],
        [_raw("其它参考文献示例（引自文献(国家标准委2005)）", 60, 15), *entries[15:]],
    ]
    pages, levels = find_headings(pages, [])
    assert [b.text for page in pages for b in page if id(b) in levels] == [
        "本文参考文献", "其它参考文献示例（引自文献(国家标准委2005)）",
    ]  # fmt: skip
    plain = [[_raw("References", 60, 9, bold=True), *entries[:15]], [_raw("Other examples", 60, 9, bold=True)]]
    assert find_headings(plain, [])[1] == {}


def test_a_skipped_section_number_is_forgiven_only_when_it_never_comes() -> None:
    """emulateapj: a footnote "4 Visiting Programmer, …" of the left column is read between "2. OBSERVATIONS" and
    "3. HELICITY AMPLITUDES" of the right one, in the headings' small type; section 3 follows, so it is not 4."""
    body = "Body text of the section, long enough to be a paragraph of running text. " * 4
    pages = [
        [_raw("1. INTRODUCTION", 330, 8, x=131), _raw(body, 345, 10), _raw("2. OBSERVATIONS", 480, 8, x=133),
         _raw(body, 495, 10), _raw("4 Visiting Programmer, Space Telescope Science Institute", 732, 8, x=59),
         _raw("3. HELICITY AMPLITUDES", 440, 8, x=382), _raw(body, 455, 10), _raw("Ei =", 600, 10, bold=True, x=363)],
        [_raw("4. FLOATING MATERIAL AND SO FORTH", 244, 8, x=85), _raw(body, 260, 10)],
    ]  # fmt: skip
    pages, levels = find_headings(pages, [])
    top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == ["1. INTRODUCTION", "2. OBSERVATIONS", "3. HELICITY AMPLITUDES", "4. FLOATING MATERIAL AND SO FORTH"]
    assert not any(b.text == "Ei =" for page in pages for b in page if id(b) in levels)  # an equation's left side


def test_a_chapter_label_over_its_title_joins_it_and_an_outline_entry_that_lost_its_math_matches() -> None:
    """hepthesis: "Appendix A." on a line of its own with "Pointless extras" under it, both in the chapter size;
    the outline writes "CP violation in the -meson system" for the printed "… the B-meson system"."""
    body = "Body text of the chapter, long enough to be a paragraph of running text. " * 4
    pages = [
        [_raw("CP violation in the B-meson system", 276, 24.8), _raw(body, 420)],
        [_raw("The LHCb experiment", 276, 24.8), _raw(body, 420)],
        [_raw("Appendix A.", 215, 24.8, x=71), _raw("Pointless extras", 279, 24.8), _raw(body, 420)],
    ]
    toc = [[1, "CP violation in the -meson system", 1], [1, "The LHCb experiment", 2], [1, "Pointless extras", 3]]
    pages, levels = find_headings(pages, toc)
    top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
    assert top == ["CP violation in the B-meson system", "The LHCb experiment", "Appendix A. Pointless extras"]
    apart = join_heading_fragments([[_raw("Appendix A.", 215, 24.8, x=71), _raw(body, 279)]])[0]
    assert next(b.text for b in apart) == "Appendix A."  # running text under a label is not its title


def test_a_contents_line_with_dot_operator_leaders_is_no_heading() -> None:
    """ctex sets contents leaders with U+22C5 ("附录⋅⋅⋅⋅⋅⋅ 39"); the outline names 附录 on that page too. The line
    is a contents entry, whichever reading (outline, style) would take it for the appendix heading."""
    body = "正文" * 30
    pages = [
        [_raw("目录", 60, 16), _raw("第1章 绪论⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅ 1", 100), _raw("附录⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅⋅ 3", 120, 16)],
        [_raw("第1章 绪论", 60, 16), _raw(body, 100)],
        [_raw("附录", 60, 16), _raw(body, 100)],
    ]
    toc = [[1, "目录", 1], [1, "附录", 1], [1, "第1章 绪论", 2], [1, "附录", 3]]
    pages, levels = find_headings(pages, toc)
    headings = [b.text for page in pages for b in page if id(b) in levels]
    assert not any("⋅" in text for text in headings), headings
    assert "附录" in headings


def _jss_pages() -> list[list[RawBlock]]:
    body = "The text of the section runs here in the body size of the paper. " * 4
    names = ["1. Introduction", "2. Models and software", "3. Illustrations", "4. Summary"]
    pages = [[_raw("Regression Models for Count Data in R", 60, 17.2, bold=True), _raw(body, 100, 10)]]
    pages += [[_raw(name, 60, 14.3, bold=True), _raw(body, 100, 10)] for name in names]
    pages.append([_raw("Computational details", 60, 14.3, bold=True), _raw(body, 100, 10)])
    pages.append([_raw("References", 60, 14.3, bold=True), _raw("Zeileis A (2008). Title. Venue.", 100, 10)])
    return pages


def test_an_unnumbered_section_after_the_numbered_ones_in_their_style_is_top_level() -> None:
    """JSS prints "Computational details" unnumbered, in the numbered sections' style, before its references;
    its outline may leave it out."""
    for toc in (
        [],
        [
            [1, "Introduction", 2],
            [1, "Models and software", 3],
            [1, "Illustrations", 4],
            [1, "Summary", 5],
            [1, "References", 7],
        ],
    ):
        pages, levels = find_headings(_jss_pages(), toc)
        top = [b.text for page in pages for b in page if levels.get(id(b)) == 1]
        assert "Computational details" in top, (toc, top)
        assert "Regression Models for Count Data in R" not in top


def test_a_report_s_chapter_label_over_its_title_makes_the_chapters_top_level() -> None:
    """LaTeX's report class: "Chapter 1" on a line of its own, the title under it in the same large type, over
    up to three lines; the numbered sections "1.1", "2.1" are one level below (the sixth fresh set's ABINIT note,
    whose four chapters were not found, its passages all before "1.1")."""
    body = "The text of the chapter runs here in the body size of the report, long enough to be a paragraph. " * 3

    def title(lines: list[str], y: float) -> RawBlock:
        rows = [
            RawLine(text=t, bbox=(103, y + 30 * k, 103 + 12 * len(t), y + 30 * k + 25)) for k, t in enumerate(lines)
        ]
        return RawBlock(lines=rows, max_size=24.8, bold=True)

    pages = [
        [_raw("Chapter 1", 201, 24.8, bold=True, x=103), title(["Wavefunction in plane waves", "and symmetries"], 251)],
        [_raw("1.1 Plane waves representation", 100, 17.2, bold=True), _raw(body, 130)],
        [_raw("1.2 Symmetries", 100, 17.2, bold=True), _raw(body, 130)],
        [_raw("Chapter 2", 201, 24.8, bold=True, x=103), title(["Electronic density"], 251)],
        [_raw("2.1 Electronic density", 100, 17.2, bold=True), _raw(body, 130)],
        [
            _raw("Chapter 3", 201, 24.8, bold=True, x=103),
            title(["Generalization of the kinetic", "energy density", "to the tensorial form"], 251),
            _raw(body, 360),
        ],
    ]
    pages, levels = find_headings(pages, [])
    by_level = collections.defaultdict(list)
    for b in (b for page in pages for b in page if id(b) in levels):
        by_level[levels[id(b)]].append(b.text)
    assert by_level[1] == [
        "Chapter 1 Wavefunction in plane waves and symmetries",
        "Chapter 2 Electronic density",
        "Chapter 3 Generalization of the kinetic energy density to the tensorial form",
    ]
    assert by_level[2] == ["1.1 Plane waves representation", "1.2 Symmetries", "2.1 Electronic density"]
