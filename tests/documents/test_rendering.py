"""The viewer's HTML for DOCX, Markdown, text, web pages and workbooks, drawn from the same parse as the chunks:
every block anchored by its locator, numbers and labels as the document shows them, real tables, all escaped."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import lxml.html
import openpyxl
import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from apps.documents.models import Chunk, Document, DocumentStatus
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.rendering import document_html, render_parsed

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
GUIDE = ROOT / "demo" / "portal-guide.docx"
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it


def _render(data: bytes, name: str):
    parsed = parse_document(data, name)
    html = render_parsed(parsed, data)
    return parsed, lxml.html.fragment_fromstring(str(html), create_parent="div"), str(html)


def _text(el) -> str:
    return " ".join(el.text_content().split())


def _corpus_docx() -> list[Path]:
    return [*sorted(CORPUS.glob("docx-*/**/*.docx")), GUIDE]


@needs_corpus
def test_every_real_docx_has_one_unique_anchor_per_block_matching_its_chunks():
    files = _corpus_docx()
    assert len(files) > 70
    for path in files:
        # given a real Word file, parsed once
        data = path.read_bytes()
        parsed, root, _ = _render(data, path.name)
        chunks = chunk_document(parsed)
        # then every block is one element, and ids never repeat
        ids = [el.get("id") for el in root.iter() if el.get("id", "").startswith("para-")]
        assert len(ids) == len(set(ids)), path
        assert ids == [f"para-{b.para_id}" for b in parsed.blocks], path
        # and every chunk's paragraph ids and ordinals find exactly its blocks
        for chunk in chunks:
            for pid in chunk.para_ids:
                assert root.get_element_by_id(f"para-{pid}") is not None, (path, pid)
            if chunk.para_start is not None:
                by_ordinal = [
                    el.get("id")
                    for el in root.iter()
                    if el.get("data-para-no") and chunk.para_start <= int(el.get("data-para-no")) <= chunk.para_end
                ]
                assert by_ordinal == [f"para-{pid}" for pid in chunk.para_ids], (path, chunk.chunk_index)


@needs_corpus
def test_table_blocks_keep_their_cells_and_their_text_is_unchanged():
    for path in _corpus_docx():
        for block in parse_document(path.read_bytes(), path.name).blocks:
            if block.kind == "table":
                assert block.cells, path
                assert block.text == "\n".join(" | ".join(row) for row in block.cells), path


@needs_corpus
def test_a_docx_table_is_a_real_table_and_its_cells_are_cells():
    parsed, root, _ = _render((CORPUS / "docx-pandoc-tests/tables/tables.docx").read_bytes(), "tables.docx")
    table = root.get_element_by_id("para-5DB4F9C7")  # the first table's first cell paragraph
    assert table.tag == "table"
    rows = [[_text(td) for td in tr.findall("td")] for tr in table.iter("tr")]
    assert rows[0] == ["Name", "Game", "Fame", "Blame"]
    assert ["Lebron James", "Basketball", "Very High", "Leaving Cleveland"] in rows
    assert all(tr.get("data-unit") is not None for tr in table.iter("tr"))
    # the guide's roles table too, with the paragraph under it keeping its own anchor
    parsed, root, _ = _render(GUIDE.read_bytes(), GUIDE.name)
    table = next(el for el in root.iter("table"))
    assert [_text(td) for td in table.iter("td")][:4] == ["Role", "Can read", "Can upload", "Can manage members"]
    assert table.get("id") == f"para-{next(b.para_id for b in parsed.blocks if b.kind == 'table')}"


@needs_corpus
def test_numbered_headings_show_the_number_word_shows():
    _, root, _ = _render(
        (CORPUS / "docx-pandoc-tests/enumerated_headings/enumerated_headings.docx").read_bytes(), "h.docx"
    )
    headings = [(el.tag, _text(el)) for el in root.iter("h2", "h3", "h4")]
    assert headings == [("h2", "1 H1"), ("h3", "1.1 H2"), ("h4", "1.1.1 H3")]
    _, root, _ = _render((CORPUS / "docx-pandoc-tests/numbered_header/numbered_header.docx").read_bytes(), "n.docx")
    heading = root.get_element_by_id("para-35420AC2")
    assert heading.tag == "h2"
    assert _text(heading) == "1. A Numbered Header."
    # the number is shown beside the heading, not taken for its text (the chunks do not have it either)
    assert heading.find_class("doc-extra")[0].text == "1."


@needs_corpus
def test_a_table_paragraph_and_a_paragraph_under_a_numbered_heading_are_anchored():
    path = CORPUS / "docx-pandoc-tests/0_level_headers/0_level_headers.docx"
    parsed, root, _ = _render(path.read_bytes(), path.name)
    chunks = chunk_document(parsed)
    in_table = next(c for c in chunks if c.chunk_type == "table")
    table = root.get_element_by_id(f"para-{in_table.para_ids[0]}")
    assert table.tag == "table"
    assert "11 August 2017" in [_text(td) for td in table.iter("td")]
    under = next(c for c in chunks if "Nothing to introduce" in c.text)
    heading, paragraph = (root.get_element_by_id(f"para-{pid}") for pid in under.para_ids)
    assert _text(heading) == "SECTION 1 Introduction"
    assert _text(paragraph) == "Nothing to introduce, yet."


@needs_corpus
def test_list_items_keep_their_labels_and_levels():
    path = CORPUS / "docx-docxjs-render-tests/numbering/document.docx"
    parsed, root, _ = _render(path.read_bytes(), path.name)
    items = [el for el in root.iter("li")]
    assert len(items) == sum(1 for b in parsed.blocks if b.kind == "list_item")
    texts = [_text(li) for li in items]
    expected = ["• one", "➢ one", "✓ one", "1) one", "(1. one", "III. three", "iii. three", "C) three", "3.1. four"]
    assert set(expected) <= set(texts)
    nested = next(li for li in items if _text(li) == "3.1. four")
    assert "doc-level-1" in nested.get("class")
    assert nested.find_class("doc-label")[0].text == "3.1."


def _docx_with(text: str) -> bytes:
    document = docx.Document()
    document.add_heading("Scripts", level=1)
    document.add_paragraph(text)
    document.add_table(rows=1, cols=2).rows[0].cells[1].text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_document_text_is_escaped_never_markup():
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    for name, data in (
        ("evil.docx", _docx_with(evil)),
        ("evil.md", f"# Title\n\n{evil}\n\n| a | {evil} |\n|---|---|\n".encode()),
        ("evil.txt", f"{evil}\n".encode()),
        (
            "evil.html",
            f"<html><body><h1>T</h1><p onclick='x()'>{evil.replace('<', '&lt;')}</p>{evil}</body></html>".encode(),
        ),
    ):
        _, root, html = _render(data, name)
        assert "<script" not in html and "<img" not in html and "onclick" not in html, name
        assert "&lt;script&gt;" in html, name
        assert not list(root.iter("script", "img")), name
    # the web page's text is shown as text, and its own script is not even text
    _, root, html = _render(f"<html><body><p>{evil.replace('<', '&lt;')}</p>{evil}</body></html>".encode(), "p.html")
    assert _text(root) == evil


MARKDOWN = """# Minutes

We agreed to read
the papers first.

## Actions

- Everyone reads
  one paper.
- Ed books the room.

| Who | What |
|-----|------|
| Ed  | room |

```
code line
```
"""


def test_markdown_lines_are_anchors_and_blocks_carry_their_line_range():
    parsed, root, _ = _render(MARKDOWN.encode(), "minutes.md")
    for block in parsed.blocks:
        el = root.get_element_by_id(f"para-p{block.para_no}")
        assert (int(el.get("data-line-start")), int(el.get("data-line-end"))) == (block.line_start, block.line_end)
    for number in (1, 3, 4, 6, 8, 9, 10, 12, 14, 16, 17, 18):
        line = root.get_element_by_id(f"line-{number}")
        assert line is not None, number
    assert _text(root.get_element_by_id("line-4")) == "the papers first."
    assert root.get_element_by_id("para-p1").tag == "p"
    assert _text(root.get_element_by_id("para-p1")) == "We agreed to read the papers first."
    assert [el.tag for el in root.iter("h2", "h3")] == ["h2", "h3"]
    assert [_text(li) for li in root.iter("li")] == ["- Everyone reads one paper.", "- Ed books the room."]
    table = root.get_element_by_id("para-p5")
    assert [_text(th) for th in table.iter("th")] == ["Who", "What"]
    assert root.get_element_by_id("line-14").tag == "tr"
    assert root.get_element_by_id("para-p6").tag == "pre"
    # every chunk's line range is covered by the blocks that carry it
    for chunk in chunk_document(parsed):
        for number in range(chunk.line_start, chunk.line_end + 1):
            if number in (2, 5, 7, 11, 15):
                continue  # blank lines belong to no block
            line = root.get_element_by_id(f"line-{number}")
            owner = next(a for a in line.iterancestors() if a.get("data-line-start"))
            assert int(owner.get("data-line-start")) <= number <= int(owner.get("data-line-end"))


def test_plain_text_keeps_its_lines_numbered():
    data = b"First line\n    indented line\n\nSecond paragraph\r\nstill second\n"
    parsed, root, _ = _render(data, "notes.txt")
    assert [b.line_start for b in parsed.blocks] == [1, 4]
    assert root.get_element_by_id("line-2").text == "    indented line"
    assert root.get_element_by_id("line-5").get("data-line") == "5"
    assert "doc-text-lines" in root.get_element_by_id("para-p1").get("class")


def test_a_workbook_is_one_table_per_region_with_its_row_numbers():
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Samples"
    sheet.append(["Site", "Count"])
    sheet.append(["North", 12])
    sheet.append(["<b>South</b>", "3 | 4"])
    sheet["B6"], sheet["C6"] = "second", "region"
    workbook.create_sheet("Notes")["A1"] = "checked"
    out = io.BytesIO()
    workbook.save(out)
    _, root, html = _render(out.getvalue(), "samples.xlsx")
    labels = [_text(el) for el in root.find_class("doc-section-label")]
    assert labels == ["Sheet “Samples”", "Sheet “Notes”"]
    first, second, third = root.iter("table")
    assert [tr.get("data-row") for tr in first.iter("tr")] == ["1", "2", "3"]
    assert [[_text(td) for td in tr.findall("td")] for tr in first.iter("tr")][2] == ["<b>South</b>", "3 | 4"]
    assert "&lt;b&gt;South" in html
    assert [tr.get("data-row") for tr in second.iter("tr")] == ["6"]
    assert (first.get("data-line-start"), first.get("data-line-end")) == ("1", "3")
    assert [_text(td) for td in third.iter("td")] == ["checked"]


def test_a_web_page_shows_its_parsed_blocks_only():
    page = b"""<html><head><style>p{}</style></head><body><nav>menu</nav><h1>Report</h1>
    <p>First <b>bold</b> part.</p><ul><li>one</li><li>two</li></ul>
    <table><caption>Counts</caption><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>"""
    parsed, root, html = _render(page, "report.html")
    assert "menu" not in html and "<b>" not in html
    assert [el.get("id") for el in root.iter() if el.get("id")] == [f"para-p{b.para_no}" for b in parsed.blocks]
    assert [_text(td) for td in root.iter("td")] == ["a", "b", "1", "2"]
    assert [_text(li) for li in root.iter("li")] == ["one", "two"]  # no invented numbers
    assert root.find_class("doc-caption")[0].text == "Counts"


# ---- document_html: the cached entry point the viewer calls ------------------------------------------------------


def _document(collection, name: str, data: bytes, sha: str) -> Document:
    document = Document(
        collection=collection, original_name=name, size=len(data), sha256=sha, status=DocumentStatus.READY
    )
    document.file.save(name, ContentFile(data), save=False)
    document.save()
    return document


def test_document_html_is_cached_by_content(collection):
    document = _document(collection, "guide.docx", GUIDE.read_bytes(), "b1" * 32)
    first = document_html(document)
    assert 'id="para-p11"' in first
    # the second call does not read the file again
    document.file.storage.delete(document.file.name)
    assert document_html(document) == first
    # a new file (another hash) is rendered afresh: here the file is gone, which the view answers with 404
    fresh = Document.objects.get(pk=document.pk)
    fresh.sha256 = "b2" * 32
    with pytest.raises(FileNotFoundError):
        document_html(fresh)


def test_a_file_that_cannot_be_parsed_gives_a_readable_message(collection):
    document = _document(collection, "broken.docx", b"PK\x03\x04 this is not a zip file", "b3" * 32)
    html = str(document_html(document))
    assert "This document cannot be shown here" in html
    assert "not a valid Word document" in html


def test_the_viewer_page_draws_a_docx_with_its_target(collection, page_client_for):
    data = GUIDE.read_bytes()
    document = _document(collection, "guide.docx", data, "b4" * 32)
    document.doc_type = "docx"
    document.save()
    for draft in chunk_document(parse_document(data, "guide.docx")):
        Chunk.objects.create(
            document=document,
            chunk_index=draft.chunk_index,
            text=draft.text,
            para_start=draft.para_start,
            para_end=draft.para_end,
            locator={"para_ids": draft.para_ids},
            locator_precision=draft.locator_precision,
        )
    response = page_client_for("viewer").get(reverse("document-viewer", args=[document.pk]) + "?chunk=3")
    assert response.status_code == 200
    content = response.content.decode()
    assert '<article id="doc-viewer" class="doc-viewer doc-docx"' in content
    assert '<table id="para-p11" class="doc-table" data-para-no="11">' in content
    assert "js/viewer-doc.js" in content


def test_the_viewer_renders_while_the_cache_is_away(monkeypatch, collection, caplog):
    """Redis away (the cache raises on every call): the document is rendered anyway, and the log says why."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from portal import soft_cache

    def refuse(*args, **kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(soft_cache.cache, "get", refuse)
    monkeypatch.setattr(soft_cache.cache, "set", refuse)
    document = Document(
        collection=collection, original_name="memo.md", doc_type="md", status=DocumentStatus.READY, sha256="c" * 64
    )
    document.file.save("memo.md", ContentFile(b"# Memo\n\nThe lab moves on Monday.\n"), save=False)
    document.save()
    html = document_html(document)
    assert "The lab moves on Monday." in html
    assert "cache unavailable" in caplog.text
