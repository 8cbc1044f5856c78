"""A reference list never runs on into a table (issue 16, the eighth fresh set's multcomp vignette): the list is
the last text, its tables are floated to the page after it, and the last entry took the table's header row
("… Evolution and Human Behavior, 30, 146–151. Variable Estimate Adjusted p-value Partner"). A line of a block the
parser read as a table ends the list."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect
from apps.citations.refparse.entries_lines import RefLine
from apps.citations.refparse.entries_unnumbered import _region

# The printed lines with their boxes: the list at the foot of page 7, the table at the top of page 8.
_LIST = [
    ("Agresti A (2002). Categorical Data Analysis. 2nd edition. John Wiley and Sons, New", 7, (99, 495, 513, 506)),
    ("York.", 7, (110, 509, 136, 520)),
    ("Hothorn T, Bretz F, Westfall P (2008). “Simultaneous Inference in General Parametric", 7, (99, 531, 513, 542)),
    ("Models.” Biometrical Journal, 50(3), 346–363.", 7, (110, 542, 331, 556)),
    ("Pollet TV, Nettle D (2009). “Partner Wealth Predicts Self-Reported Orgasm Frequency", 7, (99, 567, 513, 578)),
    ("in a Sample of Chinese Women.” Evolution and Human Behavior, 30, 146–151.", 7, (110, 578, 487, 592)),
]
_TABLE = [  # its rows, as the text layer gives them
    ("Variable Estimate Adjusted p-value", 8, (144, 96, 468, 108)),
    ("Partner income 0.02 1.000", 8, (144, 111, 441, 122)),
    ("Partner height 0.01 1.000", 8, (144, 124, 441, 135)),
    ("Duration of relationship 0.09 1.000", 8, (144, 138, 441, 149)),
    ("Age -0.37 0.092", 8, (144, 151, 441, 162)),
    ("Difference in education -0.17 0.848", 8, (144, 165, 441, 176)),
]


def _lines(table: bool) -> list[RefLine]:
    out = [
        RefLine(
            f"Body text of the vignette, line {k}, in the text size.",
            page=7,
            bbox=(99, 90 + 12 * k, 513, 100 + 12 * k),
            size=10.9,
            block=k,
        )
        for k in range(30)
    ]
    out.append(
        RefLine(
            "References",
            page=7,
            bbox=(99, 470, 170, 482),
            size=14.3,
            block=30,
            heading=True,
            ref_heading=True,
            in_references=True,
        )
    )
    out += [
        RefLine(text, page=page, bbox=box, size=10.9, block=31 + k, in_references=True)
        for k, (text, page, box) in enumerate(_LIST)
    ]
    out += [  # the table's cells are one parser block
        RefLine(text, page=page, bbox=box, size=10.9, block=40, in_references=True, table=table)
        for text, page, box in _TABLE
    ]
    return out


def test_the_last_entry_stops_where_a_table_begins() -> None:
    entries = _detect(_lines(table=True))
    assert len(entries) == 3
    last = " ".join(ln.text for ln in entries[-1].lines)
    assert last.endswith("146–151.") and "Variable" not in last


def test_the_region_of_the_list_ends_at_the_table_and_only_there() -> None:
    # The region an unlabelled list is split in: the table's rows fell in it (and, with more rows on the page, ran
    # on as the last entry's lines); a table block closes it, lines of other blocks do not.
    assert "Variable Estimate Adjusted p-value" in [ln.text for ln in _region(_lines(table=False), 31)]
    assert [ln.text for ln in _region(_lines(table=True), 31)] == [text for text, _, _ in _LIST]
