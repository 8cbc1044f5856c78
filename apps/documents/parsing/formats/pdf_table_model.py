"""A table found on a PDF page, as it travels through the page-layout steps (pdf_tables.py, pdf_tables_text.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .pdf_layout import BBox, RawBlock, RawLine

GROW = 1.0  # points: a text line counts as inside a cell when its centre is within the cell grown by this


@dataclass
class TableRow:
    cells: list[str]  # cell texts, left to right ("" for an empty cell); merged slots are left out
    boxes: list[BBox]  # the cells' boxes, one per cell

    bbox: BBox = field(init=False)  # the box of the row's filled cells (of all its cells when none is filled)

    def __post_init__(self) -> None:
        boxes = [b for b, c in zip(self.boxes, self.cells, strict=True) if c] or self.boxes
        self.bbox = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    @property
    def text(self) -> str:
        return " | ".join(self.cells)


@dataclass
class TableRaw(RawBlock):
    """A table travelling through the page-layout steps as one block: its lines are its rows (text joined with
    " | ", box = the row's), so reading order and running-line removal see it where it is."""

    rows: list[TableRow] = field(default_factory=list)
    ruled: bool = False  # drawn with a grid (pdf_tables.py), else made of whitespace (pdf_tables_text.py)
    _styles: dict = field(default_factory=dict, repr=False)  # (size, bold) -> characters, of the lines taken in

    def holds(self, bbox: BBox) -> bool:
        """Whether a text line's centre lies in one of the table's filled cells (its title and notes rows left out;
        an empty cell's box may reach over text that is not the table's). Plain arithmetic: a statistics table has
        a thousand cells and its page as many lines."""
        x, y = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        for row in self.rows:
            top, bottom = row.bbox[1] - GROW, row.bbox[3] + GROW
            if top <= y <= bottom and any(
                b[0] - GROW <= x <= b[2] + GROW and b[1] - GROW <= y <= b[3] + GROW
                for b, c in zip(row.boxes, row.cells, strict=True)
                if c
            ):
                return True
        return False

    def release(self, boxes: list[BBox]) -> None:
        """Empty the cells holding these text lines (their text is not the table's), and drop rows left empty."""
        for box in boxes:
            x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            for row in self.rows:
                for i, b in enumerate(row.boxes):
                    if row.cells[i] and b[0] - GROW <= x <= b[2] + GROW and b[1] - GROW <= y <= b[3] + GROW:
                        row.cells[i] = ""
        self.rows = [TableRow(row.cells, row.boxes) for row in self.rows if any(row.cells)]  # boxes anew
        self.lines = [RawLine(text=row.text, bbox=row.bbox) for row in self.rows] or self.lines[:1]
        self.refresh()

    def adopt_style(self, block: RawBlock, chars: int) -> None:
        """The table takes the type style of most of its text, so the heading finder's idea of the body style and
        the paragraph joiner's style checks see the table as the text it is made of."""
        key = (block.max_size, block.bold)
        self._styles[key] = self._styles.get(key, 0) + chars
        self.max_size, self.bold = max(self._styles, key=self._styles.get)


def as_raw(rows: list[TableRow], ruled: bool = False) -> TableRaw:
    lines = [RawLine(text=row.text, bbox=row.bbox) for row in rows]
    return TableRaw(lines=lines, rows=rows, ruled=ruled)
