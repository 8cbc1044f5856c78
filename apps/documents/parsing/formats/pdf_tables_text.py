"""Tables without a grid: columns made by whitespace only, rows by text lines (statistics reports, booktabs tables
with a rule above and below and none between), found from the words' positions (issue 16).

PyMuPDF's "text" strategy calls nearly every page a table (two columns of prose are two aligned columns), so the
page's words are read here with stricter evidence of a table:

- a line of the page is cut into segments where the gap between two words is wider than a space can stretch
  (TABLE_GAP of the type height); a line with three segments or more is a table line;
- at least MIN_LINES table lines, close together (group rows of one segment, "Undergraduate major", may sit between
  them), make a candidate; the columns are the x ranges that the segments of most of its lines cover (a header
  spanning two columns covers a gap in one line only, so it does not join them);
- a segment as wide as a column of text and holding a sentence's worth of words is the neighbouring column's
  prose beside a one-column table, not a cell: it stays text;
- it is kept when its cells are short (prose has long ones: a three-column magazine page), a fair share of them
  are numbers, it has three columns at least, and it is not a table of contents (dot leaders, or section numbers
  with page numbers) nor drawn like a figure or a form (vertical lines, slanted lines or curves inside it: a
  whitespace table has at most horizontal rules).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from statistics import median

from .pdf_table_model import TableRaw, TableRow, as_raw

TABLE_GAP = 0.7  # a gap wider than this share of the type height separates two cells (a space is about 0.25)
ROW_TOLERANCE = 0.4  # words whose vertical centres differ by less than this share of their height are one line
MIN_SEGMENTS = 3  # segments that make a line a table line
MIN_LINES = 4  # table lines that make a table
MAX_BREAK = 2.5  # line heights: a larger gap between two lines ends the table
MAX_RUN_BREAK = 2  # other lines (group labels, a wrapped header) allowed between two table lines
COLUMN_SHARE = 0.15  # an x position belongs to a column when the segments of this share of the lines cover it
MIN_COLUMNS = 3
EDGE_FILL = 0.2  # a first or last column filled in fewer of the rows than this is another column's text
MAX_CELL_WORDS = 4.0  # mean words per filled cell; prose columns hold eight and more
MIN_NUMBERS = 0.25  # share of filled cells that are numbers
PROSE_WIDTH = 0.3  # share of the page width: a segment this wide ...
PROSE_WORDS = 5  # ... with this many words is a line of running text
MAX_VERTICAL = 2  # vertical lines inside a whitespace table (a form's boxes and a chart's axes and bars have more)
MAX_SLANTED = 2  # slanted line and curve segments inside it (a chart's plot lines)
TOC_SHARE = 0.5  # rows that read "2.1 | Methods | 7": a table of contents
MAX_PACKED = 0.1  # share of filled cells holding several numbers ("0.37 0.39 0.26"): columns not told apart
# Running text caught beside a table: a sentence ends inside a cell, or a word is broken at its end ("train-").
_SENTENCE = re.compile(r"[^\W\d_]{2}[.?!] +[A-Z]|[^\W\d_]-(?: |$)")
_PACKED = re.compile(r"^[-+−–]?\d[\d,.]*%?(?: +[-+−–]?\d[\d,.]*%?)+$")
_TOC_ROW = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.?|[A-Z]\.?) \| [^|]*[^\W\d_][^|]* \| \d{1,4}$")
_NUMBER = re.compile(r"^[\s(\[]*[-+−–]?[$€£¥]?\d[\d,.\s]*[%‰]?[)\]*†‡a-z]?\s*$")
_LEADERS = re.compile(r"(\.\s?){4,}|…{2,}")

Word = tuple  # PyMuPDF word: (x0, y0, x1, y1, text, block, line, word)


def find_text_tables(
    words: list[Word],
    taken: list[TableRaw],
    width: float,
    drawings: Callable[[], list[dict]],
    upright: Callable[[], list[tuple]],
) -> list[TableRaw]:
    """Whitespace tables among the page's words (those outside the ruled tables already found, and on `upright`
    lines: the boxes of the page's horizontal text lines; a table turned on its side is not read). `width` is the
    page's; `drawings` gives the page's vector drawings (asked for only when a candidate is found)."""
    free = [w for w in words if w[4].strip() and not any(t.holds(w[:4]) for t in taken)]
    if not _runs(_lines(free)):
        return []  # most pages: no candidate, and no need to read their lines' directions
    lines_upright = upright()
    free = [w for w in free if _on(w, lines_upright)]
    lines = [[seg for seg in line if not _prose(seg, width)] for line in _lines(free)]
    words_per_block = Counter(w[5] for w in free)
    out = []
    for run in _runs([line for line in lines if line]):
        table = _table(run, words_per_block)
        if table is not None and not _drawn_like_a_figure(table.bbox, drawings()):
            out.append(table)
    return out


def _on(word: Word, lines: list) -> bool:
    x, y = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in lines)


def _prose(segment: list[Word], width: float) -> bool:
    return segment[-1][2] - segment[0][0] >= PROSE_WIDTH * width and len(segment) >= PROSE_WORDS


def _drawn_like_a_figure(bbox: tuple, drawings: list[dict]) -> bool:
    x0, y0, x1, y1 = bbox
    vertical = slanted = 0
    for path in drawings:  # MuPDF's raw drawings: points and rectangles are tuples
        r = path["rect"]
        if r[2] < x0 or r[0] > x1 or r[3] < y0 or r[1] > y1:
            continue
        for item in path["items"]:
            if item[0] == "l":
                dx, dy = abs(item[1][0] - item[2][0]), abs(item[1][1] - item[2][1])
                vertical += dx <= 1 and dy > 3
                slanted += dx > 1 and dy > 1
            elif item[0] == "re":
                vertical += 2 * (item[1][3] - item[1][1] > 3 and item[1][2] - item[1][0] > 3)
            elif item[0] in ("c", "qu"):
                slanted += 1
    return vertical > MAX_VERTICAL or slanted > MAX_SLANTED


def _lines(words: list[Word]) -> list[list[list[Word]]]:
    """The page's text lines top to bottom, each as its segments left to right (a segment: a list of words)."""
    rows: list[list[Word]] = []
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        centre, height = (w[1] + w[3]) / 2, w[3] - w[1]
        if rows:
            last = rows[-1]
            last_centre = median((v[1] + v[3]) / 2 for v in last)
            if abs(centre - last_centre) <= ROW_TOLERANCE * max(height, last[0][3] - last[0][1]):
                last.append(w)
                continue
        rows.append([w])
    out = []
    for row in rows:
        row.sort(key=lambda w: w[0])
        height = median(w[3] - w[1] for w in row)
        segments = [[row[0]]]
        for w in row[1:]:
            if w[0] - segments[-1][-1][2] > TABLE_GAP * height:
                segments.append([w])
            else:
                segments[-1].append(w)
        out.append(segments)
    return out


def _runs(lines: list[list[list[Word]]]) -> list[list[list[list[Word]]]]:
    """Stretches of lines holding at least MIN_LINES table lines, trimmed to start and end with one."""
    runs, current, others = [], [], 0
    for line in lines:
        if current and _top(line) - _bottom(current[-1]) > MAX_BREAK * _height(current[-1]):
            runs.append(current)
            current, others = [], 0
        if len(line) >= MIN_SEGMENTS:
            current.append(line)
            others = 0
        elif current:
            others += 1
            if others > MAX_RUN_BREAK:
                runs.append(current)
                current, others = [], 0
            else:
                current.append(line)
    runs.append(current)
    out = []
    for run in runs:
        while run and len(run[-1]) < MIN_SEGMENTS:
            run = run[:-1]
        if sum(len(line) >= MIN_SEGMENTS for line in run) >= MIN_LINES:
            out.append(run)
    return out


def _table(run: list[list[list[Word]]], words_per_block: Counter) -> TableRaw | None:
    columns = _columns([line for line in run if len(line) >= MIN_SEGMENTS])
    if len(columns) < MIN_COLUMNS:
        return None
    run = _without_passing_text(run, columns, words_per_block)
    columns = _columns([line for line in run if len(line) >= MIN_SEGMENTS])
    if len(columns) < MIN_COLUMNS:
        return None
    rows = []
    for line in run:
        cells = _by_column(line, columns)
        texts = [" ".join(w[4] for seg in cell for w in seg) for cell in cells]
        boxes = [
            _box([w for seg in cell for w in seg]) if cell else _empty_box(columns[i], line)
            for i, cell in enumerate(cells)
        ]
        rows.append(TableRow(texts, boxes))
    rows = _without_sparse_edges(rows)
    if not rows or len(rows[0].cells) < MIN_COLUMNS:
        return None
    filled = [c for row in rows for c in row.cells if c]
    if not filled or any(_LEADERS.search(c) or "\ufffd" in c for c in filled):  # U+FFFD: glyphs without text
        return None
    if sum(bool(_TOC_ROW.match(" | ".join(c for c in row.cells if c))) for row in rows) >= TOC_SHARE * len(rows):
        return None
    if any(len(c.split()) >= 4 and _SENTENCE.search(c) for c in filled):
        return None
    if sum(bool(_PACKED.match(c)) for c in filled) > MAX_PACKED * len(filled):
        return None
    if sum(len(c.split()) for c in filled) / len(filled) > MAX_CELL_WORDS:
        return None
    if sum(bool(_NUMBER.match(c)) for c in filled) < MIN_NUMBERS * len(filled):
        return None
    return as_raw(rows)


def _without_passing_text(
    run: list[list[list[Word]]], columns: list[tuple[float, float]], words_per_block: Counter
) -> list[list[list[Word]]]:
    """The run without a first or last column of the other column's running text: its lines line up with the
    table's rows, but their text blocks go on above or below the table (PaSa's Table 9 beside reference entries
    whose first and last lines lie outside it). A column is such text when most of its filled cells hold words of
    a block that has words outside the run; a caption sharing a block with the header row flags one cell only."""
    in_run = Counter(w[5] for line in run for seg in line for w in seg)
    passing_blocks = {b for b, n in in_run.items() if words_per_block[b] > n}
    if not passing_blocks:
        return run
    filled = [0] * len(columns)
    passing = [0] * len(columns)
    for line in run:
        for k, segments in enumerate(_by_column(line, columns)):
            if segments:
                filled[k] += 1
                passing[k] += any(w[5] in passing_blocks for seg in segments for w in seg)
    flagged = [f > 0 and p > f / 2 for f, p in zip(filled, passing, strict=True)]
    lo, hi = 0, len(columns)
    while hi - lo > MIN_COLUMNS and flagged[hi - 1]:
        hi -= 1
    while hi - lo > MIN_COLUMNS and flagged[lo]:
        lo += 1
    if (lo, hi) == (0, len(columns)):
        return run
    kept = [[seg for cell in _by_column(line, columns)[lo:hi] for seg in cell] for line in run]
    return [sorted(line, key=lambda seg: seg[0][0]) for line in kept if line]


def _by_column(line: list[list[Word]], columns: list[tuple[float, float]]) -> list[list[list[Word]]]:
    cells: list[list[list[Word]]] = [[] for _ in columns]
    for segment in line:
        centre = (segment[0][0] + segment[-1][2]) / 2
        cells[min(range(len(columns)), key=lambda i: _distance(centre, columns[i]))].append(segment)
    return cells


def _without_sparse_edges(rows: list[TableRow]) -> list[TableRow]:
    """The rows without a first or last column that few rows fill: beside a one-column table on a two-column page,
    the other column's short lines (a heading, a paragraph's last words) line up with its rows; they stay text."""
    n = len(rows[0].cells)
    fill = [sum(1 for row in rows if row.cells[i]) for i in range(n)]
    lo, hi = 0, n
    while hi - lo >= MIN_COLUMNS and fill[lo] < EDGE_FILL * len(rows):
        lo += 1
    while hi - lo >= MIN_COLUMNS and fill[hi - 1] < EDGE_FILL * len(rows):
        hi -= 1
    if (lo, hi) == (0, n):
        return rows
    kept = [TableRow(row.cells[lo:hi], row.boxes[lo:hi]) for row in rows]
    return [row for row in kept if any(row.cells)]


def _columns(lines: list[list[list[Word]]]) -> list[tuple[float, float]]:
    """X ranges covered by the segments of at least COLUMN_SHARE of the lines."""
    edges = sorted({round(v) for line in lines for seg in line for v in (seg[0][0], seg[-1][2])})
    if not edges:
        return []
    need = max(2, COLUMN_SHARE * len(lines))
    out: list[tuple[float, float]] = []
    start = None
    for x in range(edges[0], edges[-1] + 1):
        covered = sum(1 for line in lines if any(seg[0][0] <= x <= seg[-1][2] for seg in line)) >= need
        if covered and start is None:
            start = x
        elif not covered and start is not None:
            out.append((start, x - 1))
            start = None
    if start is not None:
        out.append((start, edges[-1]))
    return out


def _distance(x: float, column: tuple[float, float]) -> float:
    return 0.0 if column[0] <= x <= column[1] else min(abs(x - column[0]), abs(x - column[1]))


def _box(words: list[Word]) -> tuple[float, float, float, float]:
    return (min(w[0] for w in words), min(w[1] for w in words), max(w[2] for w in words), max(w[3] for w in words))


def _empty_box(column: tuple[float, float], line: list[list[Word]]) -> tuple[float, float, float, float]:
    return (column[0], _top(line), column[1], _bottom(line))


def _top(line: list[list[Word]]) -> float:
    return min(w[1] for seg in line for w in seg)


def _bottom(line: list[list[Word]]) -> float:
    return max(w[3] for seg in line for w in seg)


def _height(line: list[list[Word]]) -> float:
    return median(w[3] - w[1] for seg in line for w in seg)
