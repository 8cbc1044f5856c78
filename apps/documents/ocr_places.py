"""Boxes of a quote on a scanned PDF page, from the lines OCR recognised there.

A scanned page has no text layer for MuPDF to search (quote_places.quote_rects), but the chunk read from it keeps
the recognised lines with their boxes (Chunk.locator["ocr_lines"], formats/pdf_ocr.py). The chunk's text was made
from those very lines, so the quote is found in them: compared without whitespace (OCR and line joining differ in
spaces, and Chinese has none) and without the hyphen of a word broken at a line end, each character of the joined
lines knows its line, and the part of a line the quote covers is boxed by its share of the line's characters
(recognised lines carry no glyph positions; the share is close for Chinese and for proportional Latin type alike).
"""

from __future__ import annotations

MIN_CHARS = 12  # a quote piece shorter than this (without spaces) is looked for only as a whole quote's part
MAX_LINES = 400  # bounds the work of one request; a chunk has a few dozen lines


def ocr_quote_rects(lines: list[dict], pieces: list[str]) -> list[dict]:
    """{page, x0, y0, x1, y1} boxes covering each piece of the quote (quote_places.quote_pieces) found in the
    recognised `lines` ({text, page, x0, y0, x1, y1}, in reading order); [] when none is found. Never raises."""
    try:
        return _rects(lines[:MAX_LINES], pieces)
    except (KeyError, TypeError, ValueError):  # a locator from another version, or hand-edited: no boxes
        return []


def _rects(lines: list[dict], pieces: list[str]) -> list[dict]:
    flat, owner = _flatten(lines)
    out: list[dict] = []
    start = 0
    for piece in pieces:
        key = _key(piece)
        if not key:
            continue
        at = flat.find(key, start)
        if at < 0:
            at = flat.find(key)  # a quote whose pieces are not in the chunk's order
        if at < 0:
            out += _halves(flat, owner, lines, key)
            continue
        out += _boxes(lines, owner[at : at + len(key)])
        start = at + len(key)
    return out


def _halves(flat: str, owner: list[tuple[int, int, int]], lines: list[dict], key: str) -> list[dict]:
    """A piece not found whole (an OCR slip inside it): its halves, and theirs, while they are long enough."""
    if len(key) < 2 * MIN_CHARS:
        return []
    out = []
    for half in (key[: len(key) // 2], key[len(key) // 2 :]):
        at = flat.find(half)
        out += _boxes(lines, owner[at : at + len(half)]) if at >= 0 else _halves(flat, owner, lines, half)
    return out


def _key(text: str) -> str:
    return "".join(text.split()).casefold()


def _flatten(lines: list[dict]) -> tuple[str, list[tuple[int, int, int]]]:
    """The lines' characters without whitespace, joined, and for each character (line, its position in that line's
    own characters, that line's character count). A line-end hyphen before a lower-case letter is dropped (the
    chunk joined "perfor-" | "mance" into "performance")."""
    keys = [_key(str(line["text"])) for line in lines]
    flat: list[str] = []
    owner: list[tuple[int, int, int]] = []
    for n, key in enumerate(keys):
        following = keys[n + 1][:1] if n + 1 < len(keys) else ""
        if key.endswith("-") and len(key) > 1 and key[-2].isalpha() and following.islower():
            key = key[:-1]
        for i, ch in enumerate(key):
            flat.append(ch)
            owner.append((n, i, len(key)))
    return "".join(flat), owner


def _boxes(lines: list[dict], span: list[tuple[int, int, int]]) -> list[dict]:
    """One box per line the span touches: the line's box cut to the share of its characters the span covers."""
    touched: dict[int, tuple[int, int, int]] = {}  # line -> (first, last + 1, its character count)
    for n, i, count in span:
        first, end, _ = touched.get(n, (i, i + 1, count))
        touched[n] = (min(first, i), max(end, i + 1), count)
    out = []
    for n, (first, end, count) in touched.items():
        line = lines[n]
        x0, width = float(line["x0"]), float(line["x1"]) - float(line["x0"])
        out.append(
            {
                "page": int(line["page"]),
                "x0": round(x0 + width * first / count, 2),
                "y0": float(line["y0"]),
                "x1": round(x0 + width * end / count, 2),
                "y1": float(line["y1"]),
            }
        )
    return out
