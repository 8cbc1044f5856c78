"""A whitespace table in one column of a two-column page, beside the other column's reference entries (issue 16,
the sixth fresh set's PaSa paper, Table 9 on page 10): the entries' lines line up with the table's rows and their
justified spaces make cells, so the table took "Agile: A novel framework of llm agents. | arXiv" as two more
columns, and two reference entries were lost in it. Text whose block goes on above or below the table is the other
column's running text: the table keeps its own three columns and the entries stay text."""

from __future__ import annotations

from apps.documents.parsing.formats.pdf_tables_text import find_text_tables

_CHAR, _SPACE = 4.6, 2.5


def _words(text: str, x: float, y: float, block: int, line: int) -> list[tuple]:
    out = []
    for k, word in enumerate(text.split()):
        out.append((x, y, x + _CHAR * len(word), y + 10.9, word, block, line, k))
        x += _CHAR * len(word) + _SPACE
    return out


def _page(with_entries: bool) -> list[tuple]:
    words = []
    table = [
        ("α", "Crawler Recall", "Crawler Actions"),
        ("0.5", "0.7227", "175.9"),
        ("1.0", "0.7708", "319.8"),
        ("1.5", "0.7931", "382.4"),
        ("2.0", "0.8063", "785.5"),
    ]
    for k, row in enumerate(table):
        y = 212 + 13.7 * k
        for x, cell in zip((88, 133, 222), row, strict=True):
            words += _words(cell, x, y, block=5, line=k)
    if with_entries:  # the right column: two entries, justified into pieces, reaching above and below the table
        right = [
            (216, [(317, "Hanchong Zhang, Yuchen Zhang, and Hang Li. 2024.")], 23),
            (227, [(317, "Agile: A novel framework of llm agents."), (502, "arXiv")], 23),
            (238, [(317, "preprint arXiv:2405.14751.")], 23),
            (258, [(306, "Team Gemini. 2023. Gemini:"), (445, "a family of highly")], 24),
            (269, [(317, "capable multimodal models."), (461, "arXiv preprint")], 24),
            (279, [(317, "arXiv:2312.11805.")], 24),
        ]
        for k, (y, pieces, block) in enumerate(right):
            for x, text in pieces:
                words += _words(text, x, y, block=block, line=k)
    return words


def _tables(words: list[tuple]):
    return find_text_tables(words, [], 595.0, lambda: [], lambda: [(0, 0, 595, 842)])


def test_a_table_beside_the_other_column_s_entries_keeps_only_its_own_columns() -> None:
    alone = _tables(_page(with_entries=False))
    beside = _tables(_page(with_entries=True))
    assert len(alone) == len(beside) == 1
    assert [r.cells for r in beside[0].rows] == [r.cells for r in alone[0].rows]
    assert beside[0].rows[1].cells == ["0.5", "0.7227", "175.9"]
    assert not any("Agile" in c or "Gemini" in c for r in beside[0].rows for c in r.cells)
