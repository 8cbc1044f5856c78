"""Excel workbooks (openpyxl, read-only streaming): one table block per sheet region.

A region is a run of consecutive non-empty rows; blank rows separate regions, as they separate tables a
person lays out on one sheet. Each block carries the sheet name as its heading path, and its first and
last spreadsheet row numbers in line_start/line_end (real row numbers, so "rows 12-40" can be shown).
Cells hold the values Excel last calculated (data_only), not formulas. Hidden sheets are not read: what
is hidden in the workbook is hidden in search too.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import openpyxl
from openpyxl.utils.exceptions import InvalidFileException

from ..blocks import Block, ParsedDocument
from ..errors import ParseError
from ..textutil import clean_inline
from .docx import ZIP_MAGIC

_INVALID = "The file is not a valid Excel workbook (it may be damaged or truncated)."
MAX_ROWS = 200_000  # non-empty rows read per workbook; a data dump past this is cut and flagged


class XlsxParser:
    name = "xlsx"
    doc_type = "xlsx"
    extensions = (".xlsx",)
    label = "Excel"

    def score(self, filename: str, head: bytes) -> float:
        named = filename.lower().endswith(self.extensions)
        if head.startswith(ZIP_MAGIC):
            if b"xl/" in head and b"word/" not in head:
                return 1.0
            return 0.5 if named else 0.0
        return 0.1 if named else 0.0

    def parse(self, data: bytes, filename: str) -> ParsedDocument:
        try:
            workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError) as exc:
            raise ParseError(_INVALID, detail=repr(exc)) from exc
        try:
            blocks, truncated = _blocks(workbook)
            metadata: dict = {}
            props = workbook.properties
            if clean_inline(props.title or ""):
                metadata["title"] = clean_inline(props.title)
            if clean_inline(props.creator or ""):
                metadata["authors"] = [clean_inline(props.creator)]
            if truncated:
                metadata["truncated_at_rows"] = MAX_ROWS
        finally:
            workbook.close()
        return ParsedDocument(blocks=blocks, metadata=metadata, doc_type="xlsx")


def _blocks(workbook) -> tuple[list[Block], bool]:
    blocks: list[Block] = []
    budget = MAX_ROWS
    for sheet in workbook.worksheets:
        if sheet.sheet_state != "visible":
            continue
        region: list[tuple[int, list[str]]] = []
        for row_no, values in enumerate(sheet.iter_rows(min_row=1, values_only=True), start=1):
            cells = [_cell_text(v) for v in values]
            while cells and not cells[-1]:
                cells.pop()
            if cells:
                region.append((row_no, cells))
                budget -= 1
                if budget <= 0:
                    _emit(blocks, sheet.title, region)
                    return blocks, True
            elif region:
                _emit(blocks, sheet.title, region)
                region = []
        _emit(blocks, sheet.title, region)
    return blocks, False


def _emit(blocks: list[Block], sheet: str, region: list[tuple[int, list[str]]]) -> None:
    if not region:
        return
    # Columns left empty by the whole region (a table that starts in column C) are not cells of it.
    lead = min(next(i for i, c in enumerate(cells) if c) for _, cells in region)
    rows = tuple(tuple(cells[lead:]) for _, cells in region)
    text = "\n".join(" | ".join(cells) for cells in rows)
    blocks.append(
        Block(
            kind="table",
            text=text,
            heading_path=(sheet,),
            para_no=len(blocks),
            line_start=region[0][0],
            line_end=region[-1][0],
            cells=rows,
        )
    )


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.12g}"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    # A cell's own line breaks would read as new rows; " | " inside a cell is left as is.
    return clean_inline(str(value).replace("\n", " "))


PARSER = XlsxParser()
