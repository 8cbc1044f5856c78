"""Parsing + chunking against the shared real-document corpus. No Django, no database.

Run: python -m pytest tests/documents/test_parsing.py -q -p no:django
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import io
import re
import unicodedata
from pathlib import Path

import docx
import pymupdf
import pytest

from apps.documents.parsing import (
    SUPPORTED_EXTENSIONS,
    ChunkDraft,
    ParsedDocument,
    ParseError,
    UnsupportedFormat,
    chunk_document,
    parse_document,
)
from apps.documents.parsing.blocks import Block, Rect
from apps.documents.parsing.formats.docx import iter_paragraphs
from apps.documents.parsing.registry import parser_for
from apps.documents.parsing.textutil import fix_ligatures, join_lines

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
PDFS = sorted(CORPUS.glob("sci-pdf-*/**/*.pdf"))
DOCXS = sorted(CORPUS.glob("docx-pandoc-tests/*/*.docx")) + sorted(CORPUS.glob("docx-docxjs-render-tests/*/*.docx"))
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it

MIN_TOKEN_SHARE = 0.9  # a chunk "matches" when 90% of its words are found inside its rects
MIN_CHUNK_SHARE = 0.99  # ... and at least 99% of all PDF chunks must match


def _tokens(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", fix_ligatures(text)).lower()
    text = re.sub(r"[-\u00ad\u2010]\s+", "", text)  # words hyphenated at a line end
    # The parser brackets superscript citations ("word12" -> "word[12]"); the page's own text has no brackets.
    text = text.replace("[", "").replace("]", "")
    return re.findall(r"\w+", text)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@functools.cache
def _parsed(path: Path) -> tuple[ParsedDocument, list[ChunkDraft]]:
    parsed = parse_document(path.read_bytes(), path.name)
    return parsed, chunk_document(parsed)


def _rect_text(page: pymupdf.Page, rect: Rect, textbox: bool) -> str:
    box = pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y1)
    # get_textbox walks every character in Python (~0.1 s a call), so the exhaustive check uses the
    # C-side clip of get_text, which is also stricter (characters inside the box, not just touching).
    return page.get_textbox(box) if textbox else page.get_text("text", clip=box)


def _rect_share(doc: pymupdf.Document, chunk: ChunkDraft, textbox: bool = False) -> float:
    want = _tokens(chunk.text)
    if not want:
        return 1.0
    # Joined before tokenising so a word hyphenated across two rects is whole again.
    found_text = "\n".join(_rect_text(doc[r.page - 1], r, textbox) for r in chunk.rects)
    found = collections.Counter(_tokens(found_text))
    hits = sum(min(n, found[t]) for t, n in collections.Counter(want).items())
    return hits / len(want)


# --- PDF ---------------------------------------------------------------------------------------


@needs_corpus
def test_pdf_chunk_text_is_inside_its_rects() -> None:
    total = matched = 0
    report = []
    worst: list[tuple[float, str, int]] = []
    for path in PDFS:
        _, chunks = _parsed(path)
        with pymupdf.open(path) as doc:
            n_ok = 0
            for chunk in chunks:
                if chunk.locator_precision != "bbox":
                    continue
                share = _rect_share(doc, chunk)
                n_ok += share >= MIN_TOKEN_SHARE
                total += 1
                worst.append((share, path.parent.name, chunk.chunk_index))
            bbox_chunks = sum(c.locator_precision == "bbox" for c in chunks)
            matched += n_ok
            report.append(f"{path.parent.name}: {n_ok}/{bbox_chunks} chunks matched")
    share = matched / total
    print(f"\nPDF rect check: {matched}/{total} chunks = {share:.2%}; " + "; ".join(report))
    print("lowest token shares:", sorted(worst)[:5])
    assert total > 500
    assert share >= MIN_CHUNK_SHARE, "\n".join(report)


@needs_corpus
def test_pdf_get_textbox_sample() -> None:
    """The exact probe a viewer would use, page.get_textbox on each rect, on a sample."""
    for path in PDFS:
        _, chunks = _parsed(path)
        # one real paragraph-sized chunk per PDF, the one with fewest rects to keep this quick
        bbox_chunks = [c for c in chunks if c.locator_precision == "bbox" and len(c.text) >= 300]
        chunk = min(bbox_chunks, key=lambda c: (len(c.rects), c.chunk_index))
        with pymupdf.open(path) as doc:
            assert _rect_share(doc, chunk, textbox=True) >= MIN_TOKEN_SHARE, (path, chunk.text[:200])


@needs_corpus
@pytest.mark.parametrize("path", PDFS, ids=lambda p: p.parent.name)
def test_pdf_locators_are_in_range(path: Path) -> None:
    parsed, chunks = _parsed(path)
    assert parsed.doc_type == "pdf"
    assert parsed.page_count and set(parsed.page_sizes) == set(range(1, parsed.page_count + 1))
    assert chunks and [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert [b.para_no for b in parsed.blocks] == list(range(len(parsed.blocks)))
    for chunk in chunks:
        assert 1 <= chunk.page <= chunk.page_end <= parsed.page_count
        if chunk.section_key == "References":
            assert chunk.para_start is None and chunk.para_end is None and chunk.weight == 0.0
        else:
            assert chunk.para_start <= chunk.para_end
        assert len(chunk.text) <= 1600
        if chunk.locator_precision == "bbox":
            assert chunk.rects and not chunk.locator_degraded
            assert {r.page for r in chunk.rects} <= set(range(chunk.page, chunk.page_end + 1))
            assert {chunk.page, chunk.page_end} <= {r.page for r in chunk.rects}
            for r in chunk.rects:
                width, height = parsed.page_sizes[r.page]
                assert -1 <= r.x0 < r.x1 <= width + 1 and -1 <= r.y0 < r.y1 <= height + 1
        else:
            assert chunk.locator_degraded and chunk.page in parsed.needs_ocr_pages
        # ligatures are spelled out
        assert not re.search("[\ufb00-\ufb06]", chunk.text)


@needs_corpus
def test_pdf_running_heads_and_folios_dropped() -> None:
    parsed, _ = _parsed(CORPUS / "sci-pdf-jats/papers/bmc-evolbiol-14-70/paper.pdf")
    texts = [b.text for b in parsed.blocks]
    assert not any(t.startswith("Barnett et al. BMC Evolutionary Biology") for t in texts)
    assert not any(re.fullmatch(r"Page \d+ of \d+", t) for t in texts)
    assert parsed.metadata["title"].startswith("Revealing the maternal demographic history")
    headings = [b.heading_path for b in parsed.blocks if b.kind == "heading"]
    assert ("Methods", "DNA extraction and amplification") in headings


@needs_corpus
def test_pdf_doi_from_first_page_matches_jats() -> None:
    for name in ("plosone-0115884", "f1000research-3-190", "hindawi-PMC4706941"):
        parsed, _ = _parsed(CORPUS / "sci-pdf-jats/papers" / name / "paper.pdf")
        jats = (CORPUS / "sci-pdf-jats/papers" / name / "paper.xml").read_text(encoding="utf-8")
        expected = re.search(r'pub-id-type="doi">([^<]+)', jats).group(1)
        assert parsed.metadata["doi"] == expected


@needs_corpus
def test_pdf_without_usable_text_layer_goes_to_ocr() -> None:
    # This F1000 PDF embeds fonts without a Unicode map on several pages: the text is gibberish.
    parsed, _ = _parsed(CORPUS / "sci-pdf-jats/papers/f1000research-3-305/paper.pdf")
    assert 1 in parsed.needs_ocr_pages
    assert all(b.page not in parsed.needs_ocr_pages for b in parsed.blocks)


def _image_only_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 50), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(50, 50, 300, 300), pixmap=pix)
    text_page = doc.new_page()
    text_page.insert_text((72, 100), "A page that does have a text layer.", fontsize=11)
    return doc.tobytes()


def test_scanned_page_is_listed_for_ocr_and_degrades_locators() -> None:
    parsed = parse_document(_image_only_pdf(), "scan.pdf")
    assert parsed.needs_ocr_pages == [1]
    assert {b.page for b in parsed.blocks} == {2}
    # text later added for the OCR page (no usable geometry) gets a page-level, degraded locator
    ocr_block = Block("paragraph", "Recognised text.", (), 0, page=1)
    parsed.blocks = [ocr_block, *(dataclasses.replace(b, para_no=1) for b in parsed.blocks)]
    chunks = chunk_document(parsed, target_chars=10)
    assert chunks[0].locator_precision == "paragraph" and chunks[0].locator_degraded
    assert chunks[0].page == 1 and chunks[0].rects == []
    assert chunks[-1].locator_precision == "bbox" and not chunks[-1].locator_degraded


def _two_column_pdf() -> bytes:
    doc = pymupdf.open()
    for n in range(1, 4):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 40), "Journal of Careful Tests 2024", fontsize=9)
        page.insert_text((300, 770), str(n), fontsize=9)
        for i in range(4):
            y = 120 + i * 14
            page.insert_text((72, y), f"Left column line {i} on page {n}", fontsize=10)
            page.insert_text((330, y), f"Right column line {i} on page {n}", fontsize=10)
        page.insert_text((72, 300), "The parser repairs hyphen-", fontsize=10)
        page.insert_text((72, 312), "ation at the end of lines.", fontsize=10)
    return doc.tobytes()


def test_two_columns_running_heads_and_hyphenation() -> None:
    parsed = parse_document(_two_column_pdf(), "columns.pdf")
    page1 = [b.text for b in parsed.blocks if b.page == 1]
    joined = " ".join(page1)
    assert "Journal of Careful Tests" not in joined
    assert not any(t.strip() == "1" for t in page1)
    assert joined.index("Left column line 3") < joined.index("Right column line 0")
    assert "The parser repairs hyphenation at the end of lines." in joined


def test_text_helpers() -> None:
    assert fix_ligatures("\ufb01nd the \ufb02ow \ufb03x") == "find the flow ffix"
    assert join_lines(["mitochon-", "drial DNA"]) == "mitochondrial DNA"
    assert join_lines(["Smith-", "Jones"]) == "Smith- Jones"  # capital: a name, not a broken word


# --- DOCX --------------------------------------------------------------------------------------


@needs_corpus
@pytest.mark.parametrize("path", DOCXS, ids=lambda p: p.parent.name)
def test_docx_para_ids_resolve_to_chunk_text(path: Path) -> None:
    parsed, chunks = _parsed(path)
    assert parsed.doc_type == "docx"
    paragraphs = dict(iter_paragraphs(docx.Document(str(path))))
    for chunk in chunks:
        assert chunk.locator_precision == "paragraph" and not chunk.locator_degraded
        assert chunk.para_ids, chunk
        text = _squash(chunk.text)
        for pid in chunk.para_ids:
            assert pid in paragraphs, (pid, chunk.text)
            para = _squash(paragraphs[pid])
            pieces = [_squash(p) for p in chunk.text.split("\n\n")]
            assert para in text or any(p and p in para for p in pieces), (pid, para, chunk.text)


@needs_corpus
def test_docx_headings_give_heading_path() -> None:
    parsed, chunks = _parsed(CORPUS / "docx-pandoc-tests/headers/headers.docx")
    kinds = {b.text: (b.kind, b.heading_path) for b in parsed.blocks}
    assert kinds["A Test of Headers"] == ("heading", ("A Test of Headers",))
    assert kinds["Third level"] == ("heading", ("A Test of Headers", "Second Level", "Third level"))
    plain = next(c for c in chunks if "Some plain text." in c.text)
    assert plain.heading_path == ("A Test of Headers", "Second Level")
    assert plain.section == "Second Level"
    # chunks never cross a heading change: each chunk's blocks share one heading path
    for chunk in chunks:
        paths = {b.heading_path for b in parsed.blocks[chunk.para_start : chunk.para_end + 1]}
        assert paths <= {chunk.heading_path} | {chunk.heading_path[:i] for i in range(7)}


@needs_corpus
def test_docx_tables_lists_and_metadata() -> None:
    _, chunks = _parsed(CORPUS / "docx-pandoc-tests/tables/tables.docx")
    tables = [c for c in chunks if c.chunk_type == "table"]
    assert tables and all(c.para_ids for c in tables)
    assert any("Name | Game | Fame | Blame\nLebron James | Basketball" in c.text for c in tables)
    lists, _ = _parsed(CORPUS / "docx-pandoc-tests/lists/lists.docx")
    assert sum(b.kind == "list_item" for b in lists.blocks) >= 5
    meta, _ = _parsed(CORPUS / "docx-pandoc-tests/metadata/metadata.docx")
    assert meta.metadata["title"] == "This Is the Title"
    assert meta.metadata["authors"]
    assert all(re.fullmatch(r"[0-9A-F]{8}", b.para_id) for b in meta.blocks)  # real w14:paraIds


# --- text and Markdown -------------------------------------------------------------------------

MARKDOWN = """# Guide

First paragraph line one
continues on line four.

## Install

- item one
- item two
  still item two

```sh
pip install x

echo done
```

Setext title
------------

| a | b |
|---|---|
| 1 | 2 |
"""


def test_markdown_blocks_and_line_ranges() -> None:
    parsed = parse_document(MARKDOWN.replace("\n", "\r\n").encode(), "guide.md")
    assert parsed.doc_type == "md" and parsed.metadata["title"] == "Guide"
    got = [(b.kind, b.line_start, b.line_end, b.heading_path) for b in parsed.blocks]
    assert got == [
        ("heading", 1, 1, ("Guide",)),
        ("paragraph", 3, 4, ("Guide",)),
        ("heading", 6, 6, ("Guide", "Install")),
        ("list_item", 8, 8, ("Guide", "Install")),
        ("list_item", 9, 10, ("Guide", "Install")),
        ("paragraph", 12, 16, ("Guide", "Install")),
        ("heading", 18, 19, ("Guide", "Setext title")),
        ("table", 21, 23, ("Guide", "Setext title")),
    ]
    lines = MARKDOWN.split("\n")
    code = parsed.blocks[5]
    assert code.text == "\n".join(lines[11:16])
    chunks = chunk_document(parsed)
    assert all(c.locator_precision == "paragraph" for c in chunks)
    first = chunks[0]
    assert (first.line_start, first.line_end, first.section) == (1, 4, "Guide")
    assert chunks[-1].chunk_type == "table" and chunks[-1].line_end == 23


def test_plain_text_paragraphs() -> None:
    data = "Alpha line\nbeta line\n\n\nGamma\n# not a heading in .txt\n".encode("cp1252")
    parsed = parse_document(data, "notes.txt")
    assert parsed.doc_type == "txt"
    assert [(b.kind, b.text, b.line_start, b.line_end) for b in parsed.blocks] == [
        ("paragraph", "Alpha line beta line", 1, 2),
        ("paragraph", "Gamma # not a heading in .txt", 5, 6),
    ]
    assert parse_document("caf\xe9 na\xefve".encode("cp1252"), "x.txt").blocks[0].text == "caf\xe9 na\xefve"


RST_TEXT = """============================
Performance and optimization
============================

This document explains how to make code faster.

Introduction
============

Generally one's first concern is to write code that works. The speed of a program
- which could be an expensive one - is judged later.

Template performance
--------------------

Note that:

* using blocks is faster than using includes
  for most templates
* heavily-fragmented templates can affect performance
1. a counted item after the bullets

=====  =====
a      b
=====  =====
"""


def test_plain_text_titles_and_list_items_as_plain_text_documents_write_them() -> None:
    parsed = parse_document(RST_TEXT.encode(), "performance.txt")
    got = [(b.kind, b.text[:30], b.heading_path) for b in parsed.blocks]
    assert got[:4] == [
        ("heading", "Performance and optimization", ("Performance and optimization",)),
        ("paragraph", "This document explains how to ", ("Performance and optimization",)),
        ("heading", "Introduction", ("Performance and optimization", "Introduction")),
        ("paragraph", "Generally one's first concern ", ("Performance and optimization", "Introduction")),
    ]
    # "- which could be …" inside a paragraph stays in it.
    assert parsed.blocks[3].text.endswith("The speed of a program - which could be an expensive one - is judged later.")
    assert [(b.kind, b.line_start, b.line_end) for b in parsed.blocks[4:10]] == [
        ("heading", 13, 14),
        ("paragraph", 16, 16),
        ("list_item", 18, 19),
        ("list_item", 20, 20),
        ("list_item", 21, 21),
        ("paragraph", 23, 25),
    ]
    assert parsed.blocks[6].text == "* using blocks is faster than using includes for most templates"
    assert parsed.blocks[4].heading_path[-1] == "Template performance"
    # A simple table's borders are no titles.
    assert parsed.blocks[-1].kind == "paragraph" and parsed.blocks[-1].text.startswith("=====  =====")


# --- chunking ----------------------------------------------------------------------------------


def test_long_block_split_at_sentences_keeps_locators() -> None:
    sentence = "This sentence is about forty characters. "
    rect = Rect(1, 10, 10, 100, 20)
    blocks = [
        Block("heading", "Results", ("Results",), 0, page=1, rects=(rect,)),
        Block("paragraph", sentence * 100, ("Results",), 1, page=1, rects=(rect,)),
        Block("table", "a | b\n1 | 2", ("Results",), 2, page=2, rects=(Rect(2, 1, 1, 9, 9),)),
    ]
    parsed = ParsedDocument(blocks=blocks, page_count=2, doc_type="pdf")
    chunks = chunk_document(parsed, target_chars=1000, max_chars=1600)
    text_chunks = [c for c in chunks if c.chunk_type == "text"]
    assert len(text_chunks) >= 4
    assert text_chunks[0].text.startswith("Results\n\nThis sentence")  # heading travels with text
    for c in text_chunks:
        assert len(c.text) <= 1600 and c.text.rstrip().endswith(".")
        assert c.para_end == 1 and c.rects[-1] == rect and c.page == 1
    assert chunks[-1].chunk_type == "table" and chunks[-1].page == 2 and chunks[-1].section == "Results"


def test_chunks_never_cross_a_heading() -> None:
    blocks = [
        Block("heading", "A", ("A",), 0, para_id="p0"),
        Block("paragraph", "one", ("A",), 1, para_id="p1"),
        Block("heading", "B", ("B",), 2, para_id="p2"),
        Block("paragraph", "two", ("B",), 3, para_id="p3"),
    ]
    chunks = chunk_document(ParsedDocument(blocks=blocks, doc_type="docx"))
    assert [(c.text, c.para_ids, c.section) for c in chunks] == [
        ("A\n\none", ["p0", "p1"], "A"),
        ("B\n\ntwo", ["p2", "p3"], "B"),
    ]


# --- errors ------------------------------------------------------------------------------------


def _readable(err: ParseError) -> str:
    msg = str(err)
    assert msg[0].isupper() and msg.endswith(".")
    assert not re.search(r"Error|Exception|Traceback|errno|0x", msg)
    return msg


def _encrypted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    out = io.BytesIO()
    doc.save(out, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "name", "expected"),
    [
        (b"", "empty.pdf", "The file is empty."),
        (b"   \n", "blank.txt", "The file is empty."),
        (b"\x00\x01garbage" * 50, "broken.pdf", "not a valid PDF"),
        (b"%PDF-1.7\n1 0 obj <<>> garbage", "truncated.pdf", "not a valid PDF"),
        (b"PK\x03\x04 not really a zip" * 20, "broken.docx", "not a valid Word document"),
        (b"this is not a word file", "notes.docx", "not a valid Word document"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "locked.docx", "password-protected"),
        (b"\x00\x00binary", "notes.txt", "plain text"),
        (b"PK\x03\x04 not really a zip" * 20, "broken.xlsx", "not a valid Excel workbook"),
        (b"just some text, not a workbook", "sheet.xlsx", "not a valid Excel workbook"),
    ],
)
def test_bad_files_raise_readable_errors(data: bytes, name: str, expected: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_document(data, name)
    assert expected in _readable(info.value)


def test_encrypted_pdf() -> None:
    with pytest.raises(ParseError) as info:
        parse_document(_encrypted_pdf(), "locked.pdf")
    assert _readable(info.value) == ("The PDF is password-protected; remove the password and upload it again.")


@pytest.mark.parametrize("name", ["data.xyz", "slides.pptx", "old.doc", "noextension"])
def test_unsupported_types(name: str) -> None:
    with pytest.raises(UnsupportedFormat) as info:
        parse_document(b"\x01\x02\x03 some bytes \x00", name)
    msg = _readable(info.value)
    assert ".pdf, .docx" in msg
    if name == "data.xyz":
        assert msg.startswith("Files of type .xyz are not supported; supported types are: ")


@needs_corpus
def test_content_beats_the_name() -> None:
    pdf_bytes = PDFS[0].read_bytes()
    assert parse_document(pdf_bytes, "renamed.docx").doc_type == "pdf"
    docx_bytes = (CORPUS / "docx-pandoc-tests/headers/headers.docx").read_bytes()
    assert parse_document(docx_bytes, "renamed.pdf").doc_type == "docx"
    assert parser_for("paper", pdf_bytes[:1024]).doc_type == "pdf"
    assert set(SUPPORTED_EXTENSIONS) == {".pdf", ".docx", ".txt", ".md", ".markdown", ".html", ".htm", ".xlsx"}
