"""In-text citation markers: find them in chunk text and resolve them to reference entries.

Numeric styles: "[12]", "[3–5]", "[1, 4, 7]", "[1,3–5,9]" (superscripts arrive as brackets too: the PDF parser
rewrites them), and "(12)" only where a document-level check shows that parenthesised numbers are its citations.
Author-year styles live in markers_authoryear.py. The rule everywhere: rather no link than a wrong one, so a
marker is linked only to entries that exist, and doubtful forms are dropped rather than guessed.
"""

from __future__ import annotations

import re

from .markers_authoryear import find_author_year
from .markers_labels import find_label_mentions
from .types import CitationMention, ReferenceEntry

NUMERIC = "numeric"
AUTHOR_YEAR = "author-year"
MAX_RANGE = 40  # "[1–100]" is an interval, not forty citations; real ranges are short
MIN_PAREN_CITES = 3  # parenthesised numbers count as citations only when at least this many distinct ones fit

_NUM = r"\d{1,3}"
_ITEM = rf"{_NUM}(?:\s*[-\u2010-\u2014]\s*{_NUM})?"
_LIST = rf"\s*{_ITEM}(?:\s*[,;]\s*{_ITEM})*\s*"
_BRACKET_RE = re.compile(rf"\[({_LIST})\]")
_PAREN_RE = re.compile(rf"\(({_LIST})\)")
_RANGE_RE = re.compile(rf"({_NUM})\s*[-\u2010-\u2014]\s*({_NUM})")
# A word right before a bracket that makes it an interval or a range of values, not a citation.
_INTERVAL_RE = re.compile(r"\b(?:range|ranges|interval|intervals|between|within|scale|domain)\s*$", re.I)
# Words before "(n)" that make the number a label of something else: "Figure (2)", "Eq. (3)", "step (1)".
_LABEL_WORD_RE = re.compile(
    r"\b(?:fig|figs|figure|figures|table|tables|eq|eqs|equation|equations|section|sections|sect|step|steps|"
    r"chapter|line|lines|row|rows|column|columns|no|nos|number|panel|stage|phase|lemma|theorem|rule|formula|"
    r"item|case|part|type|version|group|level|grade|class|appendix|algorithm|listing|page|pages|p|pp|n|vol)\.?\s*$",
    re.I,
)
# "t[1]", "to[1]", "v0[4]": an index glued to a short symbol (PCA components, vectors, code registers).
_INDEXED_RE = re.compile(r"(?:^|[^\w])(?:[^\W\d_]{1,2}|[^\W\d_]\d{1,2})$")
# Program text: assignments, comments, statement ends. Numbers in brackets or parentheses there are indexes.
_CODE_RE = re.compile(r":=|//|==|->|;\s*$|[{}]|\b(?:mov|push|jmp|return|def|var|int)\b", re.M)
MIN_CODE_SIGNS = 3
_MATH_BEFORE_RE = re.compile(r"[=<>+*/^\u00b1\u2212\u00d7\u2264\u2265]\s*$")


def detect_style(entries: list[ReferenceEntry]) -> str:
    """Numbered reference list -> numeric citations; otherwise author-year."""
    numbered = sum(1 for e in entries if e.number is not None)
    return NUMERIC if entries and numbered * 2 >= len(entries) else AUTHOR_YEAR


def find_mentions(
    chunks: list[tuple[int, str]], entries: list[ReferenceEntry], style: str | None = None
) -> list[CitationMention]:
    """Citation mentions in the given (chunk_index, text) pairs, which should be the non-reference chunks.

    `style` may be "numeric", "author-year", or a finer corpus name ("bracket-numeric", "superscript-numeric");
    None detects it from the entries."""
    if not entries:
        return []
    if style is None:
        style = detect_style(entries)
    if any(e.label for e in entries) and all(e.number is None for e in entries):
        return find_label_mentions(chunks, entries)
    if style == AUTHOR_YEAR:
        return find_author_year(chunks, entries)
    lists = _numbered_lists(entries)
    if not lists:
        return []
    mentions = []
    parens = []
    for chunk_index, text in chunks:
        by_number = _list_for(chunk_index, lists)
        if not by_number:
            continue
        top = max(by_number)
        mentions += _numeric_in(chunk_index, text, _BRACKET_RE, by_number, top)
        parens += _paren_candidates(chunk_index, text, by_number, top)
    if _parens_are_citations(parens, len(mentions)):
        mentions += parens
    mentions.sort(key=lambda m: (m.chunk_index, m.start))
    return mentions


def _numbered_lists(entries: list[ReferenceEntry]) -> list[tuple[int | None, dict[int, int]]]:
    """The numbered lists, each as (the first chunk it is in, number -> entry index). A book with a list after
    each chapter (numbering restarting at 1) has several; a paper has one."""
    lists: list[tuple[int | None, dict[int, int]]] = []
    for entry in entries:
        if entry.number is None:
            continue
        if not lists or (entry.number == 1 and lists[-1][1]):  # a list starts again at 1, not at a stray number
            lists.append((min(entry.chunk_indices, default=None), {}))
        lists[-1][1][entry.number] = entry.index
    return lists


def _list_for(chunk_index: int, lists: list[tuple[int | None, dict[int, int]]]) -> dict[int, int]:
    """The list a chunk's numbers refer to: the only one, or with a list per chapter, the first list after the
    chunk (its chapter's). A chunk after every list, or lists not located, link nothing: "[1]" there could be any
    chapter's first entry."""
    if len(lists) == 1:
        return lists[0][1]
    for first_chunk, by_number in lists:
        if first_chunk is None:
            return {}
        if first_chunk >= chunk_index:
            return by_number
    return {}


def parse_numbers(body: str) -> list[int] | None:
    """The numbers of a marker's inside ("1,3–5, 9" -> [1, 3, 4, 5, 9]); None when it is not a citation list
    (a reversed or over-long range, a zero)."""
    numbers: list[int] = []
    for part in re.split(r"[,;]", body):
        part = part.strip()
        m = _RANGE_RE.fullmatch(part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if not 0 < lo < hi or hi - lo > MAX_RANGE:
                return None
            numbers += range(lo, hi + 1)
        elif part.isdigit() and int(part) > 0:
            numbers.append(int(part))
        else:
            return None
    return numbers


def _mention(
    chunk_index: int, m: re.Match, by_number: dict[int, int], top: int, require_all: bool
) -> CitationMention | None:
    numbers = parse_numbers(m.group(1))
    # A number past the end of the list means this is not a citation list at all ("[0, 1]", "[2010]").
    if not numbers or max(numbers) > top:
        return None
    linked = [n for n in numbers if n in by_number]
    if not linked or (require_all and len(linked) != len(numbers)):
        return None
    return CitationMention(
        chunk_index=chunk_index,
        start=m.start(),
        end=m.end(),
        entry_indices=[by_number[n] for n in linked],
        numbers=linked,
        style=NUMERIC,
    )


def _numeric_in(
    chunk_index: int, text: str, pattern: re.Pattern, by_number: dict[int, int], top: int
) -> list[CitationMention]:
    if len(_CODE_RE.findall(text)) >= MIN_CODE_SIGNS:
        return []
    out = []
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 20) : m.start()]
        if _INTERVAL_RE.search(before) or _INDEXED_RE.search(before):
            continue
        mention = _mention(chunk_index, m, by_number, top, require_all=False)
        if mention:
            out.append(mention)
    return out


def _paren_candidates(chunk_index: int, text: str, by_number: dict[int, int], top: int) -> list[CitationMention]:
    """Parenthesised "(12)" markers that pass the context rules; whether the document uses them is decided later."""
    if len(_CODE_RE.findall(text)) >= MIN_CODE_SIGNS:
        return []
    found = []
    for m in _PAREN_RE.finditer(text):
        before = text[max(0, m.start() - 25) : m.start()]
        # "ebx(748)", "f(2)", "(1)(2)": a call, an index or an offset in code or maths, not a citation.
        if before[-1:] and (before[-1].isalnum() or before[-1] in "_)]"):
            continue
        if _LABEL_WORD_RE.search(before) or _MATH_BEFORE_RE.search(before):
            continue
        mention = _mention(chunk_index, m, by_number, top, require_all=True)
        if mention:
            found.append(mention)
    return _drop_enumerations(found)


def _drop_enumerations(found: list[CitationMention]) -> list[CitationMention]:
    """In "we did (1) this, (2) that" a run (1), (2), ... inside one chunk is an enumeration, not citations."""
    singles = [m for m in found if len(m.numbers) == 1]
    enum: set[int] = set()
    for i, m in enumerate(singles):
        if m.numbers[0] != 1:
            continue
        run = [m]
        for other in singles[i + 1 :]:
            if other.numbers[0] == run[-1].numbers[0] + 1:
                run.append(other)
        if len(run) >= 2:
            enum.update(id(r) for r in run)
    # "(a)", "(i)" enumerations mixed with numbers are not handled here; they never look like "(12)".
    return [m for m in found if id(m) not in enum]


def _parens_are_citations(parens: list[CitationMention], bracket_count: int) -> bool:
    """The document-level check: numbered list, several distinct parenthesised numbers that fit it, and
    bracket markers clearly the minority (a paper citing with "[n]" uses "(n)" for equations and items)."""
    distinct = {n for m in parens for n in m.numbers}
    return len(distinct) >= MIN_PAREN_CITES and len(parens) > 2 * bracket_count
