"""The line numbers of a review copy ("5, 10, 15, …" of the lineno package, in the margins and the gutter): lone
numbers that are no part of the text. Left in, MuPDF glues them to the line on their baseline, so they start
passages ("60 I.A.1. Third-level heading") and read as labels of reference entries ("305. 4N. D. Birell").

A page's line numbers are a column of lone numbers sharing an edge (left- or right-aligned), increasing down the
page by a steady step of 5 or 10, standing where the text does not run: few of the page's lines cross that
column (a full-width title or table may; the lines of a column of text all would, so a table's column of
values "5, 10, 15, 20" inside the text is kept). Numbering of every line (a step of 1: Word's line numbering, a
journal's accepted manuscript, a preprint server's copy) looks like a column of entry labels "1, 2, 3" beside a
list on one page; it is told apart by density: line numbers stand beside nearly every line of the page, where
a list's labels stand beside the first line of each entry only, and entries of one line are rare.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

_NUMBER_RE = re.compile(r"\d{1,4}")
# Lone numbers of one page before they read as line numbering, and of one of its columns (a short last page of a
# two-column paper has three in each: "385, 390, 395" and "400, 405, 410").
_MIN_NUMBERS = 4
_MIN_IN_COLUMN = 3
_BUCKET = 6.0  # points: numbers of one column share an edge within this
_STEADY = 0.7  # share of the steps that are the column's step
_CROSSING = 0.15  # at most this share of the page's other lines may cross the column
# Numbering of every line: at least this many numbers, as many as this share of the page's other lines.
_MIN_EVERY_LINE = 10
_EVERY_LINE_SHARE = 0.75
_SLANT = 0.2  # both parts of a line's direction above this: set at a slant (12° to 78°), a watermark

T = TypeVar("T")
Box = tuple[float, float, float, float]


def page_line_numbers(lines: Sequence[T], box: Callable[[T], Box], text: Callable[[T], str]) -> set[int]:
    """ids of the lines of one page that are its line numbers."""
    numbers = [ln for ln in lines if _NUMBER_RE.fullmatch(text(ln).strip())]
    if len(numbers) < _MIN_NUMBERS:
        return set()
    others = [box(ln) for ln in lines if not _NUMBER_RE.fullmatch(text(ln).strip())]
    out: set[int] = set()
    for edge in (0, 2):  # left-aligned, then right-aligned columns
        columns: dict[int, list[T]] = {}
        for ln in numbers:
            columns.setdefault(round(box(ln)[edge] / _BUCKET), []).append(ln)
        for members in columns.values():
            dense = len(members) >= max(_MIN_EVERY_LINE, _EVERY_LINE_SHARE * len(others))
            if _is_numbering(members, box, text, dense) and _outside_text(members, box, others):
                out.update(id(ln) for ln in members)
    return out if len(out) >= _MIN_NUMBERS else set()


def _is_numbering(members: list[T], box: Callable[[T], Box], text: Callable[[T], str], dense: bool) -> bool:
    if len(members) < _MIN_IN_COLUMN:
        return False
    values = [int(text(ln).strip()) for ln in sorted(members, key=lambda ln: box(ln)[1])]
    steps = [b - a for a, b in itertools.pairwise(values)]
    if any(s <= 0 for s in steps):
        return False
    step, count = Counter(steps).most_common(1)[0]
    return (step in (5, 10) or (step == 1 and dense)) and count >= _STEADY * len(steps)


def _outside_text(members: list[T], box: Callable[[T], Box], others: list[Box]) -> bool:
    left = min(box(ln)[0] for ln in members)
    right = max(box(ln)[2] for ln in members)
    middle = (left + right) / 2
    crossing = sum(1 for x0, _, x1, _ in others if x0 < middle < x1)
    return crossing <= _CROSSING * max(len(others), 1)


def drop_line_numbers(blocks: list[dict]) -> None:
    """Remove a page's line numbers from its MuPDF text blocks (`get_text("dict")["blocks"]`), in place."""

    def line_text(line: dict) -> str:
        return "".join(span["text"] for span in line["spans"])

    lines = [line for block in blocks for line in block["lines"]]
    numbering = page_line_numbers(lines, box=lambda line: tuple(line["bbox"]), text=line_text)
    if numbering:
        for block in blocks:
            block["lines"] = [line for line in block["lines"] if id(line) not in numbering]
        blocks[:] = [block for block in blocks if block["lines"]]


def drop_diagonal_lines(blocks: list[dict]) -> None:
    """Remove text set at a slant from a page's MuPDF text blocks, in place: a watermark or stamp across the page
    ("ACCEPTED MANUSCRIPT", "DRAFT", "CONFIDENTIAL"), which MuPDF otherwise joins into the lines it crosses. Text
    turned a quarter (a margin stamp, a rotated table) is no slant and stays."""
    for block in blocks:
        block["lines"] = [
            ln for ln in block["lines"] if not (abs(ln["dir"][0]) > _SLANT and abs(ln["dir"][1]) > _SLANT)
        ]
    blocks[:] = [block for block in blocks if block["lines"]]
