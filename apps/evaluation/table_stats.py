"""What reading found in a PDF's tables, for `manage.py evaluate_reading` (issue 16): tables, rows, and how many
rows of the table passages have a rectangle whose page text holds every cell of the row (the goal is all of them:
a quote from a row can only be boxed when its row's box holds it)."""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from apps.documents.parsing.blocks import ParsedDocument
from apps.documents.parsing.chunking import ChunkDraft


def table_stats(parsed: ParsedDocument, drafts: Sequence[ChunkDraft], source: str | bytes | None = None) -> dict:
    """{"tables", "rows", "table_passages", "rows_checked", "rows_boxed"}. Rows are checked with the PDF (a path or
    its bytes): a row is boxed when `page.get_textbox(rect)` holds each word of its cells (spaces ignored: a cell's
    lines are joined and CJK is set without them), word by word; without the PDF only the rectangles are counted."""
    tables = [b for b in parsed.blocks if b.kind == "table"]
    out = {
        "tables": len(tables),
        "rows": sum(len(b.cells) or b.text.count("\n") + 1 for b in tables),
        "table_passages": 0,
        "rows_checked": 0,
        "rows_boxed": 0,
    }
    doc = _open(source) if parsed.doc_type == "pdf" else None
    try:
        for draft in drafts:
            if draft.chunk_type != "table":
                continue
            out["table_passages"] += 1
            for row, rect in table_rows(parsed, draft):
                out["rows_checked"] += 1
                out["rows_boxed"] += rect is not None and (doc is None or _holds(doc, rect, row))
    finally:
        if doc is not None:
            doc.close()
    return out


def table_rows(parsed: ParsedDocument, draft: ChunkDraft) -> list[tuple[str, object]]:
    """The rows of a table passage with the rectangle the passage keeps for each (None where it has none): the
    passage's last lines are its table's rows, after any headings that lead it."""
    lead = sum(len(parsed.blocks[i].rects) for i in draft.blocks[:-1])
    rects = draft.rects[lead:]
    lines = draft.text.split("\n")
    if not rects or len(rects) > len(lines):
        return [(line, None) for line in lines]
    return list(zip(lines[-len(rects) :], rects, strict=True))


def _holds(doc: pymupdf.Document, rect, row: str) -> bool:
    if not 1 <= rect.page <= doc.page_count:
        return False
    text = _squash(doc[rect.page - 1].get_textbox(pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y1)))
    # Word by word: a cell that wraps is read line by line across the row's cells, so its words are not adjacent.
    return all(_squash(word) in text for word in row.replace(" | ", " ").split())


def _squash(text: str) -> str:
    return "".join(text.split()).casefold()


def _open(source: str | bytes | None) -> pymupdf.Document | None:
    if source is None:
        return None
    return pymupdf.open(stream=source, filetype="pdf") if isinstance(source, bytes) else pymupdf.open(source)
