"""A table the question names, as a list (issue 15): "在 CnOCR README 的“可使用的检测模型”表中，模型原始来源是 cnocr
的检测模型有哪些？", "Which frameworks appear in the Framework Integration table?".

Table chunks arrive one row per line with their cells joined by " | " (the DOCX and Markdown readers write them so).
The rows under the header are the items, each verbatim; when the question names a cell value that some rows hold
and others do not ("cnocr" in the 模型原始来源 column), only the rows that hold it. The header and the section's
headings name the table, as a list's lead-in and heading do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from apps.citations.answers.list_blocks import ListBlock, heading_of, sections_of
from apps.citations.answers.question import Question
from apps.citations.answers.types import Evidence

# The question asks about a table by name.
NAMES_A_TABLE = re.compile(r"\btables?\b|表格|表中|表里|表内|的表|表[”」』]", re.I)
MIN_ROWS = 2  # rows under the header


def names_a_table(question: Question) -> bool:
    return bool(NAMES_A_TABLE.search(question.text))


def table_lists(question: Question, evidence: Sequence[Evidence]) -> list[ListBlock]:
    """Every table chunk of the evidence as a list of its rows (those holding a cell value the question names,
    when it names one), header as its context."""
    blocks = []
    for e in evidence:
        if e.hit.chunk_type != "table":
            continue
        rows = [line.strip() for line in e.hit.text.split("\n") if " | " in line]
        if len(rows) < MIN_ROWS + 1:
            continue
        header, body = rows[0], rows[1:]
        body = _rows_naming(question, body) or body
        blocks.append(
            ListBlock(
                e.number,
                "",
                [(e.number, row) for row in body],
                heading=heading_of(e.hit),
                context=header,
                sections=sections_of(e.hit),
            )
        )
    return blocks


def _rows_naming(question: Question, rows: list[str]) -> list[str]:
    """The rows with a cell that holds a key term of the question which some rows' cells hold and others' do not."""
    cells = [[unicodedata.normalize("NFKC", c).casefold().strip() for c in row.split(" | ")] for row in rows]
    telling = [
        term for term in question.key_terms if 0 < sum(any(term in cell for cell in row) for row in cells) < len(rows)
    ]
    return [row for row, its in zip(rows, cells, strict=True) if any(term in cell for term in telling for cell in its)]
