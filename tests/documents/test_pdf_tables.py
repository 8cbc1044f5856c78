"""Tables in real PDFs (issue 16): a ruled table, a borderless one and a turned landscape one become table passages
with one row per line (cells joined by " | ") and a box per row that holds the row's text; a long table is cut
between rows, each piece with its own rows' boxes; a quote of a row is boxed cell by cell inside that row; papers,
a form and pages of charts get no table."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pymupdf
import pytest

from apps.documents.parsing import chunk_document, parse_document
from apps.documents.quote_places import quote_rects
from apps.evaluation.table_stats import table_rows, table_stats

CORPUS = (Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus").resolve()
VARIED = CORPUS / "pdf-varied"
RULED = VARIED / "zh_report_quarterly_2018q1_tables.pdf"  # WPS export, dense ruled tables
BORDERLESS = VARIED / "table_icdar2013_us-002_nces_borrowing.pdf"  # whitespace columns, rules above and below
TURNED = VARIED / "odd_rotated_nics_firearm_checks_2015-11.pdf"  # /Rotate 90, landscape table ruled every 5 rows
pytestmark = pytest.mark.usefixtures("shared_corpus")  # fails, never skips, without the corpus


@cache
def _read(path: Path):
    parsed = parse_document(path.read_bytes(), path.name)
    return parsed, chunk_document(parsed)


def _table_passages(path: Path):
    return [d for d in _read(path)[1] if d.chunk_type == "table"]


def _row_box_text(path: Path, rect) -> str:
    with pymupdf.open(path) as doc:
        return doc[rect.page - 1].get_textbox(pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y1))


def _squash(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("path", [RULED, BORDERLESS, TURNED], ids=["ruled", "borderless", "turned"])
def test_every_row_of_a_table_passage_has_a_box_that_holds_its_text(path):
    parsed, drafts = _read(path)
    stats = table_stats(parsed, drafts, str(path))
    assert stats["tables"] >= 1 and stats["rows"] >= 30
    assert stats["rows_checked"] == stats["rows"]  # every row of every table is in a table passage ...
    assert stats["rows_boxed"] == stats["rows_checked"]  # ... with a box whose page text holds it
    for draft in _table_passages(path):
        assert draft.locator_precision == "bbox" and draft.page == draft.page_end
        assert len(table_rows(parsed, draft)) == len(draft.rects)  # one box per row, no more


def test_a_ruled_table_reads_row_by_row_and_leaves_the_text_around_it():
    parsed, _ = _read(RULED)
    row = "营业收入（元） | 4,755,785.11 | 5,699,227.63 | -16.55%"
    (table,) = [b for b in parsed.blocks if b.kind == "table" and row in b.text.split("\n")]
    assert table.page == 3 and table.cells[1] == ("营业收入（元）", "4,755,785.11", "5,699,227.63", "-16.55%")
    assert table.text.split("\n")[0] == " | 本报告期 | 上年同期 | 本报告期比上年同期增减"
    box = table.rects[1]
    assert all(_squash(cell) in _squash(_row_box_text(RULED, box)) for cell in table.cells[1])
    # The figures are read once, in the table, not again as loose lines.
    loose = [b.text for b in parsed.blocks if b.kind != "table"]
    assert not any("4,755,785.11" in text for text in loose)
    # The 26 ruled tables of the report, statements continued over pages included.
    assert sum(b.kind == "table" for b in parsed.blocks) == 26


def test_a_borderless_table_keeps_its_columns_and_its_group_rows():
    parsed, _ = _read(BORDERLESS)
    tables = [b for b in parsed.blocks if b.kind == "table"]
    assert [t.page for t in tables] == [1, 3]  # Table 4 and Table 5; the bar chart on page 4 is no table
    rows = tables[0].text.split("\n")
    assert "Public 4-year | 44.4 | 31,200 | 25.5 | 10.2 | 26.9 | 19.3 | 18.1" in rows
    assert "Type of degree-granting institution |  |  |  |  |  |  | " in rows  # a group row, in its place
    assert rows.index("Total | 44.8 | $33,200 | 23.2 | 10.3 | 27.0 | 20.1 | 19.4") < rows.index(
        "Type of degree-granting institution |  |  |  |  |  |  | "
    )
    # The note under the table is text, after it.
    after = parsed.blocks[parsed.blocks.index(tables[0]) + 1]
    assert after.kind != "table" and after.text.startswith("NOTE: Graduate includes first-professional")


def test_a_turned_landscape_table_is_read_in_rows_in_the_viewers_coordinates():
    parsed, _ = _read(TURNED)
    (table,) = [b for b in parsed.blocks if b.kind == "table"]
    alabama = next(i for i, cells in enumerate(table.cells) if cells[0] == "Alabama")
    assert table.cells[alabama][:4] == ("Alabama", "18,870", "23,022", "22,650")
    assert table.cells[alabama + 1][0] == "Alaska"  # a ruled band of five states is five rows
    assert len(table.cells) >= 55
    # Boxes as the parser stores every box: points on the page as stored, before its /Rotate (1008 x 612 here).
    box = table.rects[alabama]
    assert box.x1 - box.x0 > 800 and box.y1 - box.y0 < 10  # a row across the stored page, one line high
    assert _squash("Alabama18,87023,022") in _squash(_row_box_text(TURNED, box))
    # The title over the grid stays text, before the table.
    before = [b.text for b in parsed.blocks[: parsed.blocks.index(table)]]
    assert any("NICS Firearm Background Checks" in text for text in before)


def test_a_long_table_is_cut_between_rows_each_piece_keeping_its_own_rows_boxes():
    parsed, _ = _read(TURNED)
    (table,) = [b for b in parsed.blocks if b.kind == "table"]
    pieces = _table_passages(TURNED)
    assert len(pieces) >= 5
    assert "\n".join(p.text for p in pieces) == table.text  # no row cut, none lost, none twice
    assert [r for p in pieces for r in p.rects] == list(table.rects)
    for piece in pieces:
        assert len(piece.rects) == len(piece.text.split("\n"))
        assert len(piece.text) <= 1600


@pytest.mark.parametrize(
    "name",
    [
        "ieeetran_arxiv1601.03642_creativity_ml.pdf",  # two-column IEEE paper
        "acm_stoc2007_smooth_sensitivity.pdf",  # two-column ACM paper with a long reference list
        "odd_form_irs_f1040nr.pdf",  # a form's grid of boxes
        "odd_newsletter_feline_multicolumn.pdf",  # three-column magazine pages
        "word_nist_sp800-223_hpc_security.pdf",  # a report with a table of contents and numbered references
    ],
)
def test_papers_forms_and_column_layouts_without_tables_get_none(name):
    parsed, _ = _read(VARIED / name)
    assert [b.text[:80] for b in parsed.blocks if b.kind == "table"] == []


def test_charts_with_grids_and_a_printed_table_of_contents_are_no_tables():
    parsed, _ = _read(VARIED / "arxiv1504.06236_influential_nodes_1col.pdf")
    tables = [b for b in parsed.blocks if b.kind == "table"]
    # Its two real tables (datasets, and the measures compared); not the contents on page 1 nor the charts on 14.
    assert [(t.page, t.text.split("\n")[0].split(" | ")[0]) for t in tables] == [(5, "Dataset"), (12, "Dataset")]


def test_a_quote_of_a_table_row_is_boxed_cell_by_cell_inside_that_row():
    piece = next(p for p in _table_passages(TURNED) if any(r.startswith("Alaska | ") for r in p.text.split("\n")))
    rows = piece.text.split("\n")
    k = next(i for i, r in enumerate(rows) if r.startswith("Alaska | "))
    rects = [r.as_dict() for r in piece.rects]
    boxes = quote_rects(str(TURNED), rects, rows[k])
    row = rects[k]
    filled = [c for c in rows[k].split(" | ") if c]
    assert len(boxes) == len(filled)  # one box per filled cell, the zeros of this row included
    for box in boxes:
        centre = ((box["x0"] + box["x1"]) / 2, (box["y0"] + box["y1"]) / 2)
        assert row["x0"] <= centre[0] <= row["x1"] and row["y0"] <= centre[1] <= row["y1"], box
    assert [b["x0"] for b in boxes] == sorted(b["x0"] for b in boxes)  # left to right, as the cells
    # The cells' texts, as the page has them under the boxes.
    with pymupdf.open(TURNED) as doc:
        page = doc[0]
        under = [page.get_textbox(pymupdf.Rect(b["x0"], b["y0"], b["x1"], b["y1"])).strip() for b in boxes]
    assert under[:3] == ["Alaska", "209", "3,062"]


def test_a_quote_of_two_rows_boxes_both_and_a_prose_quote_in_a_table_passage_finds_nothing_wrong():
    piece = next(p for p in _table_passages(RULED) if "营业收入（元）" in p.text)
    rows = piece.text.split("\n")
    rects = [r.as_dict() for r in piece.rects]
    quote = " ".join(rows[1:3])  # as an answer quotes it: whitespace collapsed
    boxes = quote_rects(str(RULED), rects, quote)
    quoted_rows = {i for i, r in enumerate(rects) for b in boxes if r["y0"] <= (b["y0"] + b["y1"]) / 2 <= r["y1"]}
    assert quoted_rows == {1, 2}
    assert quote_rects(str(RULED), rects, "Nothing like this | is in the table | at all") == []
