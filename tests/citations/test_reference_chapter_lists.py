"""A book with a reference list after each chapter, numbering restarting at [1] (issue 16, the tenth fresh set's
LaTeX Notes: eight lists of 24 entries, of which only the first chapter's 5 were read). Every list is read, and a
"[1]" in a chapter links to that chapter's list, never another chapter's first entry."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect
from apps.citations.refparse.entries_lines import RefLine
from apps.citations.refparse.markers import find_mentions
from apps.citations.refparse.types import ReferenceEntry


def _entry(index: int, number: int, chunk: int, title: str) -> ReferenceEntry:
    return ReferenceEntry(index=index, number=number, text=f"A. Author. {title}, 2008.", chunk_indices=[chunk])


# Chapter 1 is chunks 0-2 with its list in chunk 3; chapter 2 is chunks 4-5 with its list in chunk 6.
_BOOK = [
    _entry(0, 1, 3, "A Short Introduction"),
    _entry(1, 2, 3, "The Companion"),
    _entry(2, 1, 6, "The Symbol List"),
    _entry(3, 2, 6, "The Graphics Companion"),
]


def test_a_number_links_to_its_own_chapters_list() -> None:
    chunks = [(1, "LaTeX is explained in [1] and [2]."), (5, "Symbols are listed in [1], pictures in [2].")]
    mentions = find_mentions(chunks, _BOOK)
    by_chunk = {m.chunk_index: m.entry_indices for m in mentions}
    assert [m.numbers for m in mentions] == [[1], [2], [1], [2]]
    assert [m.entry_indices for m in mentions if m.chunk_index == 1] == [[0], [1]]
    assert [m.entry_indices for m in mentions if m.chunk_index == 5] == [[2], [3]]
    assert set(by_chunk) == {1, 5}


def test_a_number_after_every_list_links_nothing() -> None:
    # An epilogue after the last chapter's list: its "[1]" could be any chapter's first entry.
    assert find_mentions([(8, "As [1] says, the end.")], _BOOK) == []


def test_one_list_with_a_stray_number_stays_one_list() -> None:
    # A list read with a number out of order ("1, 2, 3, 2") is still one list: every chunk links into it.
    entries = [_entry(i, n, 9, f"Work {i}") for i, n in enumerate((1, 2, 3, 2))]
    mentions = find_mentions([(1, "See [3]."), (12, "And [1].")], entries)
    assert [m.entry_indices for m in mentions] == [[2], [0]]


def _book(*chapters: tuple[str, list[str]]) -> list[RefLine]:
    """Chapters of body text, each closed by a list under its heading (a plain line, as LaTeX Notes prints it)."""
    rows: list[tuple[str, float, dict]] = []
    for k, (heading, entries) in enumerate(chapters):
        rows.append((f"第{k + 1}章 正文", 24.0, {"heading": True}))
        rows += [(f"第 {k + 1} 章第 {n} 行，正文的文字。", 12.0, {}) for n in range(20)]
        rows.append((heading, 14.3, {}))
        rows += [(text, 12.0, {}) for text in entries]
    return [
        RefLine(text, page=1 + k // 40, bbox=(90, 80 + 16 * (k % 40), 500, 92 + 16 * (k % 40)), size=size, block=k, **f)
        for k, (text, size, f) in enumerate(rows)
    ]


_CH1 = [
    "[1] Tobias Oetiker. A (Not So) Short Introduction to LaTeX2e, 2008. URL http://www.ctan.org/lshort/.",
    "[2] Frank Mittelbach and Michel Goossens. The LaTeX Companion. Addison-Wesley, 2004.",
]
_CH2 = [
    "[1] Scott Pakin. The Comprehensive LaTeX Symbol List, 2008. URL http://www.ctan.org/symbols/.",
    "[2] George Grätzer. More Math into LaTeX. Springer, 4th edition, 2007.",
    "[3] Keith Reckdahl. Using Imported Graphics in LaTeX and pdfLaTeX, 2006. URL http://www.ctan.org/epslatex/.",
]


def test_every_chapters_list_is_read() -> None:
    entries = _detect(_book(("参考文献", _CH1), ("参考文献", _CH2)))
    assert [(e.number, e.lines[0].text[4:16]) for e in entries] == [
        (1, "Tobias Oetik"),
        (2, "Frank Mittel"),
        (1, "Scott Pakin."),
        (2, "George Grätz"),
        (3, "Keith Reckda"),
    ]


def test_one_list_under_its_heading_is_read_once() -> None:
    assert len(_detect(_book(("参考文献", _CH2)))) == 3
