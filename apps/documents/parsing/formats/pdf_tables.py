"""Tables in PDFs, read as tables: one row per line, cells joined by " | ", a box per row (issue 16).

Without this a table dissolves into loose text lines, and a quote from one of its rows cannot be boxed. PyMuPDF's
table finder ("lines" strategy: the grid that ruling lines draw) proposes tables; only grids that read as tables
are kept, because a wrong table is worse than loose lines:

- a chart's axes and grid, a UML diagram or a drawn flow chart also make a grid: curves, slanted lines and images
  inside it give them away;
- a form's boxes are mostly merged or empty cells, and a one-row "table" is a rule above and below a line of text;
- a few rows per ruled band (a statistics table ruled every fifth row, a booktabs body) come out as one row whose
  cells hold the same number of lines: those rows are split line by line when the lines hold numbers.

A full-width row of a single cell at the top or bottom of the grid (the table's title, its notes) is left to the
text as a paragraph, so the caption stays a caption. Borderless tables (columns made by whitespace only) are
found by pdf_tables_text.py.

Rectangles are in the parser's coordinates (points from the top-left of the page as stored, before /Rotate): a
rotated page whose text runs horizontally before rotation (a landscape table turned for printing) is searched
without its rotation, so rows are rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pymupdf

from ..blocks import Block, Rect
from ..textutil import clean_inline, join_lines
from .pdf_layout import RawBlock
from .pdf_table_model import TableRaw, TableRow, as_raw
from .pdf_tables_text import find_text_tables

MIN_ROWS = 2  # rows with text; one ruled line of text is not a table
MAX_MERGED = 0.3  # share of grid slots that are merged into a neighbour: above it, a form or a diagram
MAX_EMPTY = 0.8  # share of empty cells: above it, a chart's grid or an empty form
MAX_SLANTED = 2  # slanted line segments inside the grid: a chart or a diagram has many, a table none
MAX_CURVES = 4  # curve segments (rounded corners of a box are four)
LARGER = 1.0  # points: a block in type this much larger than a whitespace table's is a heading beside it
MIN_RULE = 8.0  # points: a shorter vertical or horizontal stroke is a tick or a glyph, not a rule
MAX_STROKES = 20_000  # drawing items on a page: more is a plot of data points (seconds of table finding for none)
MIN_IMAGE_SHARE = 0.1  # an image covering this share of the grid makes it a figure
FULL_ROW = 0.8  # a lone cell this wide at the grid's top or bottom is a title or a note, not a row
_NUMBER = re.compile(r"^[\s(\[]*[-+−–]?[$€£¥]?\d[\d,.\s]*%?[)\]]?\s*$")


def lift_tables(page: pymupdf.Page, raw: list[RawBlock]) -> tuple[list[RawBlock], list[TableRaw]]:
    """The page's tables, and its text blocks without the lines inside them (the blocks are changed in place). A
    whitespace table has no borders to say where it ends: a text block in larger type than the table's (a heading
    of the next column beside it) is not its own, and stays text."""
    tables = find_tables(page)
    if not tables:
        return raw, []
    for block in raw:
        for table in tables:
            inside = [ln for ln in block.lines if table.holds(ln.bbox)]
            if inside:
                table.adopt_style(block, sum(len(ln.text.strip()) for ln in inside))
    for block in raw:  # what a whitespace table caught of the text beside it goes back to the text
        for table in tables:
            if not table.ruled:
                inside = [ln for ln in block.lines if table.holds(ln.bbox)]
                if inside and block.max_size > table.max_size + LARGER:
                    table.release([ln.bbox for ln in inside])
    tables = [t for t in tables if sum(1 for row in t.rows if any(row.cells)) >= MIN_ROWS]
    kept = []
    for block in raw:
        lines = block.lines
        for table in tables:
            lines = [ln for ln in lines if not table.holds(ln.bbox)]
        if len(lines) != len(block.lines):
            block.lines = lines
            block.refresh()
        if block.lines:
            kept.append(block)
    return kept, [t for t in tables if t.max_size]


def around_tables(
    join: Callable[[list[list[RawBlock]]], list[list[RawBlock]]], pages: list[list[RawBlock]]
) -> list[list[RawBlock]]:
    """`join` (the paragraph-line joiner, over a document's pages) applied to the runs of text blocks between
    tables, each run as a page of its own: a table is never joined to the paragraph above or below it, nor cut
    where a row looks like a list item, and its rows do not count as lines of running text."""
    runs: list[list[RawBlock]] = []
    layout: list[list[int | TableRaw]] = []  # per page: run numbers and tables, in reading order
    for page in pages:
        parts: list[int | TableRaw] = []
        run: list[RawBlock] = []
        for block in [*page, None]:
            if (block is None or isinstance(block, TableRaw)) and run:
                parts.append(len(runs))
                runs.append(run)
                run = []
            if isinstance(block, TableRaw):
                parts.append(block)
            elif block is not None:
                run.append(block)
        layout.append(parts)
    joined = join(runs)
    return [[b for part in parts for b in ([part] if isinstance(part, TableRaw) else joined[part])] for parts in layout]


def table_block(raw: TableRaw, page: int, heading_path: tuple[str, ...], para_no: int) -> Block:
    """The parsing Block of a table: cells row by row, text one row per line, one rectangle per row."""
    rows = [row for row in raw.rows if any(row.cells)]
    return Block(
        kind="table",
        text="\n".join(row.text for row in rows),
        heading_path=heading_path,
        para_no=para_no,
        page=page,
        rects=tuple(Rect(page, *(round(v, 2) for v in row.bbox)) for row in rows),
        cells=tuple(tuple(row.cells) for row in rows),
    )


def find_tables(page: pymupdf.Page) -> list[TableRaw]:
    """Ruled tables that read as tables, then whitespace tables among the rest of the words (pdf_tables_text.py),
    top to bottom, in the parser's coordinates."""
    if page.rotation:
        if not _upright_unrotated(page):
            return []  # text set upright for the rotated view: rare, and not worth a wrong grid
        with pymupdf.open() as tmp:
            tmp.insert_pdf(page.parent, from_page=page.number, to_page=page.number)
            flat = tmp[0]
            flat.set_rotation(0)
            return _tables_on(flat)
    return _tables_on(page)


def _tables_on(page: pymupdf.Page) -> list[TableRaw]:
    words = page.get_text("words", flags=pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP)
    drawn: list[list[dict]] = []  # the page's drawings (MuPDF's raw form, the fast one), read once when needed

    def drawings() -> list[dict]:
        if not drawn:
            drawn.append(page.get_cdrawings())
        return drawn[0]

    ruled = _ruled_tables(page, words, drawings) if _has_grid(drawings()) else []

    def upright() -> list[tuple]:
        """The boxes of the page's horizontal text lines (read only for a page with a candidate table)."""
        blocks = page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)["blocks"]
        return [ln["bbox"] for b in blocks if b.get("type") == 0 for ln in b["lines"] if abs(ln["dir"][1]) < 0.1]

    found = ruled + find_text_tables(words, ruled, page.rect.width, drawings, upright)
    return sorted(found, key=lambda t: t.bbox[1])


def _ruled_tables(page: pymupdf.Page, words: list[tuple], drawings: Callable[[], list[dict]]) -> list[TableRaw]:
    found = page.find_tables(strategy="lines")
    if not found or not found.tables:
        return []
    images = [pymupdf.Rect(im["bbox"]) for im in page.get_image_info()]
    out = []
    for table in found.tables:
        grid = table.extract()
        if not _reads_as_table(table, grid, drawings(), images):
            continue
        rows = _rows(table, grid, words)
        rows = _without_title_rows(rows, pymupdf.Rect(table.bbox))
        if sum(1 for row in rows if any(row.cells)) < MIN_ROWS:
            continue
        out.append(as_raw(rows, ruled=True))
    return out


def _has_grid(drawings: list[dict]) -> bool:
    """Whether the page draws two vertical and two horizontal rules at least (lines, thin bars or box edges): the
    table finder costs tens to hundreds of milliseconds a page, and most pages of a paper have at most horizontal
    rules (booktabs tables, which pdf_tables_text.py reads)."""
    if sum(len(path["items"]) for path in drawings) > MAX_STROKES:
        return False
    vertical = horizontal = 0
    for path in drawings:
        for item in path["items"]:
            if item[0] == "l":
                dx, dy = abs(item[1][0] - item[2][0]), abs(item[1][1] - item[2][1])
                vertical += dx <= 1 and dy >= MIN_RULE
                horizontal += dy <= 1 and dx >= MIN_RULE
            elif item[0] == "re":
                w, h = item[1][2] - item[1][0], item[1][3] - item[1][1]
                vertical += (h >= MIN_RULE) * (1 if w <= 2 else 2)
                horizontal += (w >= MIN_RULE) * (1 if h <= 2 else 2)
            if vertical >= 2 and horizontal >= 2:
                return True
    return False


def _upright_unrotated(page: pymupdf.Page) -> bool:
    lines = [ln for b in page.get_text("dict")["blocks"] if b.get("type") == 0 for ln in b["lines"]]
    flat = sum(1 for ln in lines if abs(ln["dir"][1]) < 0.1)
    return bool(lines) and flat >= 0.8 * len(lines)


def _reads_as_table(table, grid: list[list], drawings: list[dict], images: list[pymupdf.Rect]) -> bool:
    slots = [cell for row in grid for cell in row]
    merged = sum(cell is None for cell in slots)
    real = [cell for cell in slots if cell is not None]
    empty = sum(1 for cell in real if not (cell or "").strip())
    if table.row_count < 1 or table.col_count < 2 or not real:
        return False
    if merged > MAX_MERGED * len(slots) or empty > MAX_EMPTY * len(real):
        return False
    rows_with_two = sum(1 for row in grid if sum(1 for c in row if c and c.strip()) >= 2)
    # Two rows that fill two cells; a long regular grid (a statement whose amounts are mostly blank) is enough too.
    if rows_with_two < 2 and not (table.row_count >= 5 and not merged):
        return False
    box = pymupdf.Rect(table.bbox)
    if any((im & box).get_area() > MIN_IMAGE_SHARE * box.get_area() for im in images if im.intersects(box)):
        return False
    slanted = curves = 0
    for path in drawings:
        if not box.intersects(path["rect"]):
            continue
        for item in path["items"]:
            if item[0] == "l" and abs(item[1][0] - item[2][0]) > 1 and abs(item[1][1] - item[2][1]) > 1:
                slanted += 1
            elif item[0] == "c":
                curves += 1
    return slanted <= MAX_SLANTED and curves <= MAX_CURVES


def _rows(table, grid: list[list], words: list[tuple]) -> list[TableRow]:
    out = []
    for row, texts in zip(table.rows, grid, strict=True):
        cells = [(box, text or "") for box, text in zip(row.cells, texts, strict=True) if box is not None]
        if not cells:
            continue
        out += _split_stacked(cells, words) or [
            TableRow([_cell_text(text) for _, text in cells], [tuple(box) for box, _ in cells])
        ]
    return out


def _split_stacked(cells: list[tuple[tuple, str]], words: list[tuple]) -> list[TableRow]:
    """A ruled band holding several rows (every cell with text has the same number of lines, and one column holds
    only numbers) cut into one row per text line; [] when the band is one row."""
    lines = [text.split("\n") if text.strip() else [] for _, text in cells]
    counts = {len(ls) for ls in lines if ls}
    if len(counts) != 1 or (k := counts.pop()) < 2:
        return []
    if not any(ls and all(_NUMBER.match(x) for x in ls) for ls in lines):
        return []
    band = pymupdf.Rect(cells[0][0])
    for box, _ in cells[1:]:
        band |= box
    ys = _line_bands([w for w in words if _centre(w[:4]) in band])
    if len(ys) != k:
        return []
    rows = []
    for i, (y0, y1) in enumerate(ys):
        rows.append(
            TableRow(
                [clean_inline(ls[i]) if ls else "" for ls in lines],
                [(box[0], y0, box[2], y1) for box, _ in cells],
            )
        )
    return rows


def _line_bands(words: list[tuple]) -> list[tuple[float, float]]:
    """The vertical extents of the text lines the words make, top to bottom."""
    bands: list[list[float]] = []
    for w in sorted(words, key=lambda w: (w[1] + w[3]) / 2):
        mid = (w[1] + w[3]) / 2
        if bands and mid <= bands[-1][1]:
            bands[-1][0], bands[-1][1] = min(bands[-1][0], w[1]), max(bands[-1][1], w[3])
        else:
            bands.append([w[1], w[3]])
    return [(a, b) for a, b in bands]


def _without_title_rows(rows: list[TableRow], box: pymupdf.Rect) -> list[TableRow]:
    """Rows of one cell spanning the grid at its top or bottom (a title, a note) are left out of the table; their
    text stays in the page's text blocks, so a caption remains a caption."""

    def lone(row: TableRow) -> bool:
        filled = [b for b, c in zip(row.boxes, row.cells, strict=True) if c]
        return len(filled) <= 1 and (not filled or filled[0][2] - filled[0][0] >= FULL_ROW * box.width)

    while rows and lone(rows[0]):
        rows = rows[1:]
    while rows and lone(rows[-1]):
        rows = rows[:-1]
    return rows


def _cell_text(text: str) -> str:
    """A cell's lines joined as running text (CJK without spaces, broken words closed up)."""
    return clean_inline(join_lines([ln for ln in text.split("\n") if ln.strip()]))


def _centre(bbox) -> pymupdf.Point:
    return pymupdf.Point((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2)
