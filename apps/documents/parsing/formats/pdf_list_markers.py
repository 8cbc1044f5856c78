"""List markers that MuPDF returns as lines of their own, put back in front of their items' first lines.

Sphinx, LaTeX and Word often set a list item's bullet or number in a box of its own, left of the item's text, on the
same baseline. MuPDF then returns "•" or "2." as a line of its own (sometimes in a block of its own), so the
reader saw a run of bare markers ("• • • • •") and, apart from them, the items' text run together into one
paragraph ("process a request …; change received response …; …"): no item could be found, quoted or listed.

A line whose whole text is one marker (a bullet, or a short counter such as "2.", "b)", "(iv)") is joined to the
line that starts just right of it on the same baseline, in its own block (or anywhere on the page when its block
holds markers only): the marker's text goes in front of
that line's first span and the line's box grows to cover it. A marker with no such line stays as it was.
"""

from __future__ import annotations

import re

_BULLETS = "•●○◦▪■□◆◇▸►‣⁃∙·*–-"
_BULLET = re.compile(f"^[{re.escape(_BULLETS)}]$")
# One bullet glyph, or a counter of at most three characters with its closing (or enclosing) punctuation.
_MARKER = re.compile(
    rf"^(?:[{re.escape(_BULLETS)}]|\(?(?:\d{{1,3}}|[a-zA-Z]|[ivxlcIVXLC]{{1,4}})[.)）]|[(（](?:\d{{1,3}}|[a-zA-Z])[)）])$"
)
GAP = 4.0  # the item's text starts at most this many line heights right of its marker
OVERLAP = 0.5  # share of the shorter line's height the two lines share vertically: one baseline
INDENT = 3.0  # a marker starts at most this many line heights right of its block's left edge (a nested item's)


def _text(line: dict) -> str:
    return "".join(span["text"] for span in line["spans"]).strip()


def _same_baseline(a: dict, b: dict) -> bool:
    shared = min(a["bbox"][3], b["bbox"][3]) - max(a["bbox"][1], b["bbox"][1])
    return shared >= OVERLAP * min(a["bbox"][3] - a["bbox"][1], b["bbox"][3] - b["bbox"][1])


def attach_list_markers(blocks: list[dict]) -> None:
    """Join every marker-only line of a page's MuPDF text blocks (`get_text("dict")["blocks"]`, text blocks
    only) to its item's first line, in place; the marker's own line is removed from its block."""
    lines = [line for block in blocks for line in block["lines"] if _text(line)]
    block_of = {id(line): k for k, block in enumerate(blocks) for line in block["lines"]}
    is_marker = {id(line): bool(_MARKER.match(_text(line))) for line in lines}
    # A block of markers only is a column of bullets set apart from its items: its markers may join lines of
    # other blocks. Any other marker joins a line of its own block: an equation's number "(9)" at a column's
    # right edge is no bullet of the next column's line beside it.
    # (A counter alone in a block of its own is an equation's number far more often than a list's.)
    markers_in: dict[int, list[str]] = {}
    for line in lines:
        markers_in.setdefault(block_of[id(line)], []).append(_text(line) if is_marker[id(line)] else "")
    apart = {k for k, texts in markers_in.items() if all(texts) and (len(texts) >= 2 or _BULLET.match(texts[0]))}
    left_edge: dict[int, float] = {}  # the leftmost start of a block's text lines
    for line in lines:
        if not is_marker[id(line)]:
            k = block_of[id(line)]
            left_edge[k] = min(left_edge.get(k, line["bbox"][0]), line["bbox"][0])
    taken: set[int] = set()
    for marker in (line for line in lines if is_marker[id(line)]):
        x0, y0, x1, y1 = marker["bbox"]
        height = max(y1 - y0, 1.0)
        own = block_of[id(marker)]
        beside = [ln for ln in lines if ln is not marker and _same_baseline(ln, marker)]
        # A marker opens a line: nothing stands right before it ("Fig. –", the "A." of "M. A. Nielsen").
        if any(x0 - GAP * height <= ln["bbox"][2] <= x0 + 1.0 for ln in beside):
            continue
        candidates = [
            ln
            for ln in beside
            if not is_marker[id(ln)]
            and id(ln) not in taken
            and (own in apart or block_of[id(ln)] == own)
            and x1 - 1.0 <= ln["bbox"][0] <= x1 + GAP * height
        ]
        if not candidates:
            continue
        best = min(candidates, key=lambda ln: ln["bbox"][0])
        # Nothing between the marker and its text, and the marker stands at the left edge of the text's block (an
        # item's marker hangs left of its text or is indented a little; an equation number is far right of it).
        if any(x1 - 1.0 <= ln["bbox"][0] < best["bbox"][0] for ln in beside if ln is not best):
            continue
        if x0 > left_edge.get(block_of[id(best)], x0) + INDENT * height:
            continue
        taken.add(id(best))
        first = dict(marker["spans"][0])  # the marker's own face: a bold "3." before "AMSMATH Package" is bold
        first["text"] = f"{_text(marker)} "
        first["bbox"] = tuple(marker["bbox"])
        best["spans"] = [first, *best["spans"]]
        bx0, by0, bx1, by1 = best["bbox"]
        best["bbox"] = (min(bx0, x0), min(by0, y0), max(bx1, x1), max(by1, y1))
        marker["spans"] = []  # emptied: the reader skips lines without text
    for block in blocks:
        block["lines"] = [line for line in block["lines"] if line["spans"]]
