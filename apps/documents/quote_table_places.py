"""Boxes of a quote taken from a table row, on a PDF page (issue 16).

A table chunk holds one row per line with its cells joined by " | " (parsing/formats/pdf_tables.py), and its
rectangles are one per row. The page has no " | ", and a cell's text may wrap inside its cell, so the prose search
of quote_places.py cannot find such a quote. Instead: the quote is cut into its cells, the rows whose page text
holds (most of) those cells are the quoted rows, and within each the boxes of the quoted cells are searched, so
the viewer boxes the cells of the row that was cited.
"""

from __future__ import annotations

import math
import re

import pymupdf

CELL_SEPARATOR = " | "
MIN_SHARE = 0.5  # a row is quoted when it holds at least this share of the best row's cells (and at least two)
GROW = 1.0  # points: a glyph box may stick out of its row's box a little (MuPDF clips by overlap, not by this)
MAX_PAGES = 3
_SPLIT = re.compile(r"\s*\|\s*|\n")
_ASCII_WORD = re.compile(r"^[\w.,%+\-−–$€£¥()/]+$", re.ASCII)


def is_table_quote(quote: str) -> bool:
    return CELL_SEPARATOR.strip() in quote and len(quote_cells(quote)) >= 2


def quote_cells(quote: str) -> list[str]:
    """The quote's cells in order, without a cut mark."""
    return [c for c in (part.strip(" …") for part in _SPLIT.split(quote)) if c]


def table_quote_rects(doc: pymupdf.Document, rects: list[dict], quote: str) -> list[dict]:
    """Boxes ({page, x0, y0, x1, y1}) of the quoted cells inside the rows (the chunk's rectangles) that hold them;
    [] when no row does."""
    cells = quote_cells(quote)
    if not cells:
        return []
    pages = sorted({r["page"] for r in rects if 1 <= r["page"] <= doc.page_count})[:MAX_PAGES]
    rows = []
    for rect in rects:
        if rect["page"] in pages:
            page = doc[rect["page"] - 1]
            box = pymupdf.Rect(rect["x0"], rect["y0"], rect["x1"], rect["y1"])
            rows.append((page, box, _row_text(page, box)))
    quoted = _quoted_rows(rows, cells)
    out = []
    for page, box, found in quoted:
        words = [w for w in page.get_text("words", clip=box) if _inside(pymupdf.Rect(w[:4]), box)]
        left = box.x0  # cells are read left to right: each is looked for right of the one before
        for cell in found:
            hits = _cell_boxes(page, box, words, cell, left)
            if hits:
                left = min(h.x1 for h in hits) if len(hits) == 1 else left
            out += [_as_dict(page.number + 1, hit) for hit in hits]
    return out


def _quoted_rows(rows: list[tuple], cells: list[str]) -> list[tuple]:
    """The rows that hold the quote, each with the cells it holds, in page order. Greedy: the row holding most of
    the cells not yet placed, while it holds at least two of them and MIN_SHARE of them (a quote may span rows,
    and a "0" is in many rows)."""
    remaining = list(cells)
    picked: dict[int, list[str]] = {}
    while remaining:
        scored = [
            (i, [c for c in remaining if _holds(text, c)]) for i, (_, _, text) in enumerate(rows) if i not in picked
        ]
        if not scored:
            break
        i, found = max(scored, key=lambda item: len(item[1]))
        least = min(2, len(cells)) if not picked else max(2, math.ceil(MIN_SHARE * len(remaining)))
        if len(found) < least:
            break
        picked[i] = [c for c in cells if c in found]
        for cell in found:
            remaining.remove(cell)
    return [(rows[i][0], rows[i][1], picked[i]) for i in sorted(picked)]


def _squash(text: str) -> str:
    return "".join(text.split()).casefold()


def _holds(row_text: str, cell: str) -> bool:
    """Whether the row's page text holds the cell: spaces are ignored (a wrapped cell, CJK set without them), but a
    short Latin or numeric cell ("0", "12") must be a whole word of the row, not a piece of another number."""
    squashed = _squash(cell)
    if not squashed or squashed not in _squash(row_text):
        return False
    if _ASCII_WORD.match(squashed) and len(squashed) < 4:
        return squashed in {_squash(w) for w in row_text.split()}
    return True


def _cell_boxes(page: pymupdf.Page, row: pymupdf.Rect, words: list, cell: str, left: float) -> list[pymupdf.Rect]:
    """The cell's text boxes inside the row, right of `left`: a short number or word is a whole word of the row
    (MuPDF's search would find "0" inside "10"); other cells MuPDF's search finds, or where the cell wraps (its
    lines are not one string on the page), the row's words that make it up."""
    wanted = _squash(cell)
    after = [w for w in words if w[0] >= left - 1] or words
    if _ASCII_WORD.match(wanted) and len(wanted) < 4:
        return [pymupdf.Rect(w[:4]) for w in after if _squash(w[4]) == wanted][:1]
    hits = [hit for hit in page.search_for(cell, clip=row) if _inside(hit, row)]
    if hits:
        later = [hit for hit in hits if hit.x0 >= left - 1] or hits
        return later[:1] if _ASCII_WORD.match(wanted) else later
    return [pymupdf.Rect(w[:4]) for w in after if len(_squash(w[4])) >= 2 and _squash(w[4]) in wanted]


def _inside(hit: pymupdf.Rect, row: pymupdf.Rect) -> bool:
    x, y = (hit.x0 + hit.x1) / 2, (hit.y0 + hit.y1) / 2
    return row.x0 - GROW <= x <= row.x1 + GROW and row.y0 - GROW <= y <= row.y1 + GROW


def _row_text(page: pymupdf.Page, row: pymupdf.Rect) -> str:
    """The row's words (those whose centre is in it: MuPDF's clip also takes a neighbour row's glyphs that touch
    the box), in reading order."""
    return " ".join(w[4] for w in page.get_text("words", clip=row) if _inside(pymupdf.Rect(w[:4]), row))


def _as_dict(page: int, hit: pymupdf.Rect) -> dict:
    return {"page": page, **{k: round(getattr(hit, k), 2) for k in ("x0", "y0", "x1", "y1")}}
