"""HTML and XLSX parsing, DOCX list labels and footnotes, and format detection for them. No Django, no database."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import docx
import openpyxl
import pytest

from apps.documents.parsing import chunk_document, parse_document
from apps.documents.parsing.formats.docx import iter_paragraphs
from apps.documents.parsing.registry import parser_for

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
needs_corpus = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without it

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Field notes</title>
<style>p { color: red }</style><script>document.write("tracking")</script></head>
<body>
<nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<h1>Wetland survey</h1>
<p>We walked the <b>northern</b> transect<br>twice a week.</p>
<div hidden>hidden draft</div><p aria-hidden="true">screen-reader junk</p>
<p style="display: none">invisible</p>
<h2>Methods</h2>
<ul><li>Count birds<ul><li>at dawn</li></ul></li><li>Record water level</li></ul>
<table><caption>Table 1. Counts</caption>
<thead><tr><th>Site</th><th>Birds</th></tr></thead>
<tbody><tr><td>North</td><td>12</td></tr><tr><td>South</td><td>7</td></tr></tbody></table>
<h3>Equipment</h3>
<div>Binoculars and <span>waders</span><noscript>enable JS</noscript>.</div>
<h2>References</h2>
<ol><li>Smith J. Wetland birds. 2001.</li></ol>
<footer>Copyright 2024</footer>
</body></html>
"""


def test_html_visible_text_headings_lists_tables() -> None:
    parsed = parse_document(PAGE.encode(), "notes.html")
    assert parsed.doc_type == "html" and parsed.metadata["title"] == "Field notes"
    got = [(b.kind, b.text, b.heading_path) for b in parsed.blocks]
    survey, methods = ("Wetland survey",), ("Wetland survey", "Methods")
    assert got == [
        ("heading", "Wetland survey", survey),
        ("paragraph", "We walked the northern transect twice a week.", survey),
        ("heading", "Methods", methods),
        ("list_item", "Count birds", methods),
        ("list_item", "at dawn", methods),
        ("list_item", "Record water level", methods),
        ("caption", "Table 1. Counts", methods),
        ("table", "Site | Birds\nNorth | 12\nSouth | 7", methods),
        ("heading", "Equipment", (*methods, "Equipment")),
        ("paragraph", "Binoculars and waders.", (*methods, "Equipment")),
        ("heading", "References", ("Wetland survey", "References")),
        ("list_item", "Smith J. Wetland birds. 2001.", ("Wetland survey", "References")),
        ("paragraph", "Copyright 2024", ("Wetland survey", "References")),
    ]
    text = " ".join(b.text for b in parsed.blocks)
    for gone in ("tracking", "color", "Home", "About us", "hidden draft", "junk", "invisible", "enable JS"):
        assert gone not in text
    chunks = chunk_document(parsed)
    assert all(c.locator_precision == "paragraph" and c.para_ids == [] for c in chunks)
    assert [(c.chunk_type, c.section, c.weight) for c in chunks] == [
        ("text", "Wetland survey", 1.0),
        ("text", "Methods", 1.0),
        ("caption", "Methods", 1.0),
        ("table", "Methods", 1.0),
        ("text", "Methods", 1.0),  # "Equipment" is a sub-heading of Methods
        ("text", "References", 0.0),
    ]
    assert (chunks[3].para_start, chunks[3].para_end) == (7, 7)
    assert chunks[-1].para_start is None


def test_html_encodings_and_detection() -> None:
    latin = '<html><head><meta charset="iso-8859-1"></head><body><p>café crème</p></body></html>'.encode("latin-1")
    assert parse_document(latin, "menu.htm").blocks[0].text == "café crème"
    no_charset = "<p>naïve 数据</p>".encode()
    assert parse_document(no_charset, "page.html").blocks[0].text == "naïve 数据"
    assert parser_for("download", b"<!DOCTYPE html><html><body>x</body></html>").name == "html"
    assert parser_for("page.txt", b"<!DOCTYPE html><html>").name == "text"  # the name breaks the tie


def _workbook() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    ws.append(["Site", "Birds", "Date", "Note"])
    ws.append(["North", 12, dt.date(2024, 5, 1), "first\nvisit"])
    ws.append(["South", 7.5, dt.datetime(2024, 5, 2, 6, 30), None])
    ws.append([])
    ws.append([])
    ws["C6"] = "Totals"
    ws["D6"] = 19.5
    hidden = wb.create_sheet("Scratch")
    hidden["A1"] = "do not index"
    hidden.sheet_state = "hidden"
    big = wb.create_sheet("Log")
    for i in range(1, 301):
        big.append([i, f"observation number {i} at the northern transect"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_xlsx_sheet_regions_become_tables() -> None:
    parsed = parse_document(_workbook(), "survey.xlsx")
    assert parsed.doc_type == "xlsx"
    got = [(b.kind, b.heading_path, b.line_start, b.line_end) for b in parsed.blocks]
    assert got == [
        ("table", ("Results",), 1, 3),
        ("table", ("Results",), 6, 6),
        ("table", ("Log",), 1, 300),
    ]
    assert (
        parsed.blocks[0].text
        == "Site | Birds | Date | Note\nNorth | 12 | 2024-05-01 | first visit\nSouth | 7.5 | 2024-05-02 06:30:00"
    )
    assert parsed.blocks[1].text == "Totals | 19.5"  # the empty columns A-B before the region are not cells of it
    assert "do not index" not in " ".join(b.text for b in parsed.blocks)
    chunks = chunk_document(parsed)
    log = [c for c in chunks if c.heading_path == ("Log",)]
    assert len(log) > 5 and all(c.chunk_type == "table" and len(c.text) <= 1600 for c in log)
    assert all(c.text.split("\n")[0][0].isdigit() for c in log)  # split between rows, never inside one
    assert all((c.line_start, c.line_end) == (1, 300) and c.locator_precision == "paragraph" for c in log)
    assert {c.section for c in chunks} == {"Results", "Log"}


def test_xlsx_detection() -> None:
    data = _workbook()
    assert parse_document(data, "renamed.docx").doc_type == "xlsx"  # the content decides
    assert parser_for("survey", data[:65536]).name == "xlsx"


@needs_corpus
def test_docx_list_labels() -> None:
    parsed = parse_document((CORPUS / "docx-pandoc-tests/lists/lists.docx").read_bytes(), "lists.docx")
    items = [b.text for b in parsed.blocks if b.kind == "list_item"]
    assert items[:5] == ["1. one", "2. two", "a. a", "b. b", "• one"]
    numbering = parse_document((CORPUS / "docx-docxjs-render-tests/numbering/document.docx").read_bytes(), "n.docx")
    texts = [b.text for b in numbering.blocks]
    for label in ("1) one", "III. three", "iii. three", "C) three", "(c) three", "3.1. four", "3.2. five"):
        assert label in texts
    assert not any("\uf000" <= ch <= "\uf8ff" for t in texts for ch in t)  # no Symbol-font bullet glyphs
    restart = parse_document(
        (CORPUS / "docx-pandoc-tests/lists_restarting/lists_restarting.docx").read_bytes(), "r.docx"
    )
    assert [b.text for b in restart.blocks if b.kind == "list_item"] == ["2. Foo", "3. Bar", "4. Baz", "1. Bop."]


@needs_corpus
def test_docx_footnotes_and_endnotes_are_blocks_with_resolvable_ids() -> None:
    path = CORPUS / "docx-pandoc-tests/notes/notes.docx"
    parsed = parse_document(path.read_bytes(), "notes.docx")
    notes = [(b.kind, b.text, b.heading_path, b.para_id) for b in parsed.blocks[-2:]]
    assert notes == [
        ("paragraph", "My note.", ("Footnotes",), "fn1"),
        ("paragraph", "This is an endnote at the end of the document.", ("Endnotes",), "en1"),
    ]
    chunks = chunk_document(parsed)
    assert chunks[-1].section == "Endnotes" and chunks[-2].section == "Footnotes"
    paragraphs = dict(iter_paragraphs(docx.Document(str(path))))
    assert paragraphs["fn1"] == "My note." and paragraphs["en1"].startswith("This is an endnote")
