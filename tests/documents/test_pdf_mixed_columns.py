"""Pages that are two columns for a part of their height only (a reference list ending above one-column
appendices, Quantum's template), and appendix labels set over their title in the text's own size (APA 7):
the third fresh set's families (issue 16)."""

from __future__ import annotations

from apps.documents.parsing.formats.pdf_heading_fragments import join_heading_fragments
from apps.documents.parsing.formats.pdf_layout import RawBlock, RawLine, reading_order

WIDTH = 595.0


def _block(text: str, x0: float, y0: float, x1: float, lines: int = 1, size: float = 10.9, bold: bool = False):
    pitch = 13.0
    return RawBlock(
        lines=[
            RawLine(text=text if k == 0 else f"{text} ({k})", bbox=(x0, y0 + k * pitch, x1, y0 + k * pitch + 11))
            for k in range(lines)
        ],
        max_size=size,
        bold=bold,
    )


def test_a_list_ending_in_two_columns_above_one_column_text_is_read_column_by_column() -> None:
    left_3 = _block("[3] Help article published by the arXiv on Considerations", 57, 59, 288, lines=3)
    left_4 = _block("[4] StackExchange discussion on How to get DOI", 57, 119, 288)
    right_4 = _block("links in bibliography (2016-11-18)", 325, 59, 489)
    right_5 = _block("[5] StackExchange discussion on Automatically adding DOI fields", 308, 77, 539, lines=3)
    heading = _block("A First section of the appendix", 57, 148, 247, size=14.3, bold=True)
    wide = [
        _block("Quantum allows the usage of appendices in one column, " * 2, 57, 175 + 40 * k, 539, lines=3)
        for k in range(8)
    ]
    blocks = [left_3, right_4, right_5, left_4, heading, *wide]
    ordered = reading_order(blocks, WIDTH)
    names = [b.text[:12] for b in ordered]
    # The left column to its end ("[4] …" below the right column's last line), then the right, then the appendix.
    assert ordered[:5] == [left_3, left_4, right_4, right_5, heading], names
    assert ordered[5:] == wide


def test_a_one_column_page_with_a_heading_and_an_equation_number_keeps_its_order() -> None:
    # Short blocks at the left (a heading) and at the right (an equation's number) that do not stand side by
    # side with text of the other column are no columns.
    blocks = [
        _block("A.1 Subsection", 57, 60, 137, size=12, bold=True),
        _block("Ideally, the command appendix should be put before the appendices. " * 2, 57, 82, 538, lines=3),
        _block("A = B", 282, 130, 313),
        _block("(6)", 525, 130, 539),
        _block(
            "You are free to change this in case it is more appropriate for your article. " * 2, 57, 155, 538, lines=3
        ),
    ]
    assert reading_order(blocks, WIDTH) == blocks


def test_an_appendix_label_over_its_title_in_the_text_size_is_one_heading() -> None:
    body = [
        _block(
            "Lorem ipsum dolor sit amet, consectetuer adipiscing elit. " * 2, 72, 200 + 30 * k, 536, lines=2, size=12
        )
        for k in range(6)
    ]
    label = _block("Appendix A", 270, 78, 342, size=12, bold=True)
    title = _block("Instrument", 273, 102, 339, size=12, bold=True)
    page = join_heading_fragments([[label, title, *body]])[0]
    assert page[0].text == "Appendix A Instrument"
    # A plain paragraph under the label, not in its style, is no title.
    prose = _block("As shown in Figure A1, these results are impressive.", 72, 102, 515, size=12)
    page = join_heading_fragments([[_block("Appendix B", 270, 78, 342, size=12, bold=True), prose, *body]])[0]
    assert page[0].text == "Appendix B"
