"""DOCX parser (python-docx): body paragraphs and tables in document order, with stable ids.

Paragraph ids: the `w14:paraId` Word writes on each paragraph when present (and unique), otherwise
"p<ordinal>" where the ordinal counts every w:p we visit — body paragraphs, paragraphs inside content
controls, and table-cell paragraphs — in document order, 0-based, empty ones included. A viewer
resolves an id with the same walk (see `iter_paragraphs`). Footnotes and endnotes follow the body as
blocks under the heading path ("Footnotes",) / ("Endnotes",), with ids "fn<w:id>" / "en<w:id>". List items
carry their visible label ("1.", "a)", "•"). Textboxes, headers/footers and comments are not read.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph

from ..blocks import Block, ParsedDocument
from ..errors import ParseError
from ..placeholders import is_placeholder_author, is_placeholder_title
from ..sections import canonical_section
from ..textutil import clean_inline, join_line_breaks
from .docx_extras import Numbering, iter_notes, paragraph_numbering

W14_PARA_ID = "{http://schemas.microsoft.com/office/word/2010/wordml}paraId"
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .doc, and also password-protected .docx
# "heading N" is how Word stores its built-in heading styles; Chinese templates may name them "标题 N".
_HEADING_RE = re.compile(r"^(?:heading|标题)\s*([1-9])$", re.IGNORECASE)
_CAPTION_STYLES = {"caption", "table caption", "image caption", "figure caption"}
# Text inside these is not part of the paragraph's visible text: deleted/moved-away revisions,
# the duplicate fallback of alternate content, and textbox paragraphs nested in a run.
_SKIP_ANCESTORS = {qn("w:del"), qn("w:moveFrom"), qn("w:txbxContent"), MC_FALLBACK}
_CONTAINERS = {qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml"), qn("w:smartTag")}
_INVALID = "The file is not a valid Word document (it may be damaged or truncated)."


class DocxParser:
    name = "docx"
    doc_type = "docx"
    extensions = (".docx",)
    label = "Word"

    def score(self, filename: str, head: bytes) -> float:
        named = filename.lower().endswith(".docx")
        if head.startswith(ZIP_MAGIC):
            if b"word/" in head:
                return 1.0
            # Named .docx but holding a workbook: the workbook parser (1.0) wins; otherwise ours.
            return 0.9 if named else 0.0
        if named:
            # Ours even when broken, so the message says what is wrong with *this* Word file.
            return 0.5 if head.startswith(OLE_MAGIC) else 0.1
        return 0.0

    def parse(self, data: bytes, filename: str) -> ParsedDocument:
        document = _open(data)
        blocks = list(_blocks(document))
        return ParsedDocument(blocks=blocks, metadata=_metadata(document, blocks), doc_type="docx")


def _open(data: bytes) -> docx.document.Document:
    if data.startswith(OLE_MAGIC):
        # Word stores encrypted .docx files in an OLE container; so is the old binary .doc format.
        raise ParseError(
            "The Word document is password-protected or in the old .doc format; remove the password "
            "or save it as .docx, then upload it again."
        )
    try:
        return docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, PackageNotFoundError, KeyError, ValueError) as exc:
        raise ParseError(_INVALID, detail=repr(exc)) from exc


def _walk(container) -> Iterator:
    """Yield w:p and w:tbl elements in document order, looking through content controls."""
    for child in container:
        if child.tag in (qn("w:p"), qn("w:tbl")):
            yield child
        elif child.tag in _CONTAINERS:
            yield from _walk(child)


def iter_paragraphs(document: docx.document.Document) -> Iterator[tuple[str, str]]:
    """(para_id, text) for every paragraph the parser visits, in the parser's order. Used to resolve
    a chunk's para_ids back to the document."""
    used: set[str] = set()
    for ordinal, p in enumerate(_all_paragraph_elements(document.element.body)):
        yield _para_id(p, ordinal, used), _para_text(p)
    for _, note_id, paragraphs in iter_notes(document):
        yield note_id, _note_text(paragraphs)


def _note_text(paragraphs: list) -> str:
    return " ".join(t for t in (_para_text(p) for p in paragraphs) if t)


def _all_paragraph_elements(container) -> Iterator:
    for el in _walk(container):
        if el.tag == qn("w:p"):
            yield el
        else:
            yield from _all_paragraph_elements_in_table(el)


def _para_id(p, ordinal: int, used: set[str]) -> str:
    pid = p.get(W14_PARA_ID)
    # Copy-paste can leave duplicate paraIds; an id that points at two places is no locator.
    if not pid or pid in used:
        pid = f"p{ordinal}"
    used.add(pid)
    return pid


def _para_text(p) -> str:
    parts = []
    for el in p.iter(qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr"), qn("w:noBreakHyphen")):
        if _skipped(el, p):
            continue
        if el.tag == qn("w:t"):
            parts.append(el.text or "")
        elif el.tag == qn("w:noBreakHyphen"):
            parts.append("-")
        elif el.tag == qn("w:tab"):
            parts.append(" ")
        else:
            parts.append("\n")  # a manual line break: a space, or nothing inside Chinese text (join_line_breaks)
    return clean_inline(join_line_breaks("".join(parts)))


def _skipped(el, p) -> bool:
    node = el.getparent()
    while node is not None and node is not p:
        if node.tag in _SKIP_ANCESTORS or node.tag == qn("w:p"):
            return True  # also: text of a paragraph nested inside this one (textbox)
        node = node.getparent()
    return False


def _blocks(document: docx.document.Document) -> Iterator[Block]:
    numbering = Numbering(document)
    used: set[str] = set()
    ordinal = 0  # paragraph ordinal, for fallback ids
    para_no = 0  # block ordinal
    path: list[tuple[int, str]] = []
    for el in _walk(document.element.body):
        if el.tag == qn("w:tbl"):
            cell_paras = list(_all_paragraph_elements_in_table(el))
            first_id = None
            for p in cell_paras:
                pid = _para_id(p, ordinal, used)
                ordinal += 1
                first_id = first_id or pid
            rows = _table_rows(el)
            if rows:
                text = "\n".join(" | ".join(cells) for cells in rows)
                yield Block("table", text, tuple(t for _, t in path), para_no, para_id=first_id, cells=rows)
                para_no += 1
            continue
        pid = _para_id(el, ordinal, used)
        ordinal += 1
        paragraph = Paragraph(el, document._body)
        # Every numbered paragraph advances its list's counter, shown or not (empty items, numbered headings).
        num_id, ilvl = paragraph_numbering(el, paragraph.style)
        label = numbering.label(num_id, ilvl) if numbering.levels else ""
        text = _para_text(el)
        if not text:
            continue
        kind, level = _classify(paragraph)
        if kind == "heading":
            path = [(lv, t) for lv, t in path if lv < level] + [(level, text)]
        elif kind == "list_item" and label:
            text = f"{label} {text}"
        label = label if kind in ("heading", "list_item") else ""
        level = ilvl if kind == "list_item" and label else 0
        yield Block(kind, text, tuple(t for _, t in path), para_no, para_id=pid, label=label, level=level)
        para_no += 1
    for heading, note_id, paragraphs in iter_notes(document):
        text = _note_text(paragraphs)
        if text:
            yield Block("paragraph", text, (heading,), para_no, para_id=note_id)
            para_no += 1


def _all_paragraph_elements_in_table(tbl) -> Iterator:
    for tc in tbl.iter(qn("w:tc")):
        # A nested table's cells come up later in this same iteration, so only the cell's own
        # paragraphs are taken here.
        yield from (p for p in _walk(tc) if p.tag == qn("w:p"))


def _table_rows(tbl) -> tuple[tuple[str, ...], ...]:
    """Cell texts row by row (empty rows left out); a nested table is flattened into its cell."""
    rows = []
    for tr in tbl.iter(qn("w:tr")):
        if _enclosing_table(tr) is not tbl:
            continue  # rows of nested tables are folded into the outer cell below
        cells = []
        for tc in tr.iter(qn("w:tc")):
            if _enclosing_row(tc) is not tr:
                continue
            texts = [_para_text(p) for p in tc.iter(qn("w:p")) if not _in_textbox(p, tc)]
            cells.append(" ".join(t for t in texts if t))
        if any(cells):
            rows.append(tuple(cells))
    return tuple(rows)


def _enclosing_table(el):
    node = el.getparent()
    while node is not None and node.tag != qn("w:tbl"):
        node = node.getparent()
    return node


def _enclosing_row(el):
    node = el.getparent()
    while node is not None and node.tag != qn("w:tr"):
        node = node.getparent()
    return node


def _in_textbox(p, stop) -> bool:
    node = p.getparent()
    while node is not None and node is not stop:
        if node.tag in _SKIP_ANCESTORS:
            return True
        node = node.getparent()
    return False


def _classify(paragraph: Paragraph) -> tuple[str, int]:
    """(kind, heading level). Built-in "Heading N" styles and explicit outline levels (on the
    paragraph or anywhere up its style chain) make headings; "Title" is a level-0 heading above
    them; numbering or a List style makes a list item."""
    p_pr = paragraph._p.pPr
    style = paragraph.style
    names = []
    outline = _outline_level(p_pr)
    numbered = p_pr is not None and p_pr.numPr is not None
    s = style
    while s is not None:
        names.append((s.name or "").lower())
        s_pr = s.element.pPr
        if outline is None:
            outline = _outline_level(s_pr)
        numbered = numbered or (s_pr is not None and s_pr.numPr is not None)
        s = s.base_style
    if names and names[0] == "title":
        return "heading", 0
    for name in names:  # a custom style based on "Heading 2" is a level-2 heading
        m = _HEADING_RE.match(name)
        if m:
            return "heading", int(m.group(1))
    if outline is not None and outline < 9:  # 9 means "body text"
        return "heading", outline + 1
    if names and names[0] in _CAPTION_STYLES:
        return "caption", 0
    if _num_id(p_pr) == "0":
        numbered = False  # numId 0 explicitly switches inherited numbering off
    if numbered or any(n.startswith("list") for n in names[:1]):
        return "list_item", 0
    return "paragraph", 0


def _outline_level(p_pr) -> int | None:
    if p_pr is None:
        return None
    el = p_pr.find(qn("w:outlineLvl"))
    val = el.get(qn("w:val")) if el is not None else None
    return int(val) if val is not None and val.isdigit() else None


def _num_id(p_pr) -> str | None:
    if p_pr is None or p_pr.numPr is None or p_pr.numPr.numId is None:
        return None
    return str(p_pr.numPr.numId.val)


def _metadata(document: docx.document.Document, blocks: list[Block]) -> dict:
    props = document.core_properties
    out: dict = {}
    title = clean_inline(props.title or "")
    # A template's own title ("标准名称", "Word Document") or one printed nowhere in the opening text is no title.
    placeholder = bool(title) and is_placeholder_title(title, _opening_text(document))
    if placeholder:
        title = ""
    if not title:
        # A "Title"-styled paragraph is the visible title when the properties have none.
        title = next((p.text.strip() for p in document.paragraphs if (p.style.name or "").lower() == "title"), "")
    if title:
        out["title"] = title
    elif placeholder and (heading := _opening_heading(blocks)):
        # The document was given a title, the template's: the heading it opens with is the real one, guessed.
        out["title"] = heading
        out["title_guessed"] = True
    author = clean_inline(props.author or "")
    if author and not is_placeholder_author(author):
        out["authors"] = [author]
    for key in ("subject", "keywords"):
        value = clean_inline(getattr(props, key) or "")
        if value:
            out[key] = value
    return out


OPENING_CHARS = 3000  # the text a title property is looked for in: about a page, textboxes included
OPENING_BLOCKS = 3  # a heading after this many blocks is a section's, not the document's title


def _opening_text(document: docx.document.Document) -> str:
    """The body's first OPENING_CHARS characters, text in shapes and textboxes included (a cover often holds the
    title in one)."""
    out, size = [], 0
    for t in document.element.body.iter(qn("w:t")):
        out.append(t.text or "")
        size += len(t.text or "")
        if size >= OPENING_CHARS:
            break
    return " ".join(out)


def _opening_heading(blocks: list[Block]) -> str | None:
    """The heading the document opens with (before OPENING_BLOCKS blocks of text), unless it names a section
    ("Contents", "摘要", "1 Introduction"): a section's heading is not the document's title."""
    for block in blocks[:OPENING_BLOCKS]:
        if block.kind != "heading":
            continue
        text = block.text
        if 3 <= len(text) <= 300 and not is_placeholder_title(text) and not canonical_section(text):
            return text
        return None
    return None


PARSER = DocxParser()
