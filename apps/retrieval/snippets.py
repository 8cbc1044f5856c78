"""The snippet of a search result: a window of the chunk around its best query terms, terms in <mark>.

Terms are found with the BM25 analyzer (`analyzer.term_spans`), so a highlight means exactly what the keyword
score counted: "running" for the query "runs", ＤＮＡ for "dna", 北京 inside 北京大学. The window is the one
holding the query terms worth most (sum of idf of the distinct terms in it), so a rare, telling word wins over a
common one that happens to come first. Everything but the <mark> tags is HTML-escaped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from apps.retrieval.keyword.analyzer import _CJK, query_terms, term_spans

ELLIPSIS = "…"
# A sentence ends at one of these followed by a space (Latin) or right away (CJK full-width punctuation).
_SENTENCE_END = ".!?;:" + ELLIPSIS
_CJK_SENTENCE_END = "。！？；…"
# The analyzer's CJK ranges: there every character is a word of its own, so a cut between two is fine.
_CJK_CHAR = re.compile(f"[{_CJK}]")
# Before the first term, at most this much context, so the terms stay near the start of the snippet.
_MAX_LEAD = 60

Span = tuple[int, int, str]


def _wordish(char: str) -> bool:
    """A character that continues a space-delimited word (CJK characters are each a boundary of their own)."""
    return char.isalnum() and not _CJK_CHAR.match(char)


def _is_boundary(text: str, pos: int) -> bool:
    """Whether cutting `text` at `pos` splits no word."""
    return pos <= 0 or pos >= len(text) or not (_wordish(text[pos - 1]) and _wordish(text[pos]))


def _is_sentence_start(text: str, pos: int) -> bool:
    if pos == 0:
        return True
    if text[pos - 1] in _CJK_SENTENCE_END:
        return True
    return pos >= 2 and text[pos - 1] == " " and text[pos - 2] in _SENTENCE_END


def _is_sentence_end(text: str, pos: int) -> bool:
    if text[pos - 1] in _CJK_SENTENCE_END:
        return True
    return text[pos - 1] in _SENTENCE_END and (pos == len(text) or text[pos] == " ")


def _start_at_or_after(text: str, pos: int, limit: int) -> int:
    """The first word boundary in [pos, limit], past any space; `pos` itself if a word fills the range."""
    for q in range(pos, limit + 1):
        if _is_boundary(text, q):
            while q < limit and text[q] == " ":
                q += 1
            return q
    return pos


def _end_at_or_before(text: str, pos: int, limit: int) -> int:
    """The last word boundary in [limit, pos]; `pos` itself if a word fills the range."""
    for q in range(pos, limit - 1, -1):
        if _is_boundary(text, q):
            return q
    return pos


def _best_window(spans: list[Span], weights: dict[str, float], budget: int) -> tuple[int, int]:
    """(first, last) index into `spans` of a run fitting in `budget` characters with the most distinct-term weight.

    Ties go to more distinct terms, then to the tightest run holding them (terms close together say more than
    terms spread over the window), then to the earliest."""
    runs: list[tuple[tuple[float, int], int, int]] = []  # ((weight, distinct terms), first, last)
    counts: dict[str, int] = {}
    j = 0
    for i, (start, _end, _term) in enumerate(spans):
        while j < len(spans) and spans[j][1] - start <= budget:
            counts[spans[j][2]] = counts.get(spans[j][2], 0) + 1
            j += 1
        # fsum is exact, hence independent of order: equal term sets give equal keys for the tie-breaks below.
        runs.append(((math.fsum(weights[t] for t in counts), len(counts)), i, j - 1))
        term = spans[i][2]
        counts[term] -= 1
        if not counts[term]:
            del counts[term]
    best_key = max(key for key, _i, _j in runs)
    best, best_extent = (0, 0), None
    for key, i, last in runs:
        if key != best_key:
            continue
        wanted = {term for _s, _e, term in spans[i : last + 1]}
        seen: set[str] = set()
        k = i
        while True:  # the shortest prefix of the run that already holds every term of it
            seen.add(spans[k][2])
            if seen == wanted:
                break
            k += 1
        extent = spans[k][0] - spans[i][0]  # start to start, so a long word is no worse than a short one
        if best_extent is None or extent < best_extent:
            best, best_extent = (i, k), extent
    return best


def _place(text: str, first: int, last: int, max_chars: int) -> tuple[int, int]:
    """[a, b) of `text` (longer than max_chars) around [first, last), leaving room for the ellipses."""
    n = len(text)
    budget = max_chars - 2  # an ellipsis at each end
    slack = budget - (last - first)
    lowest = max(0, last - budget)  # starting earlier would push the last term out
    # The sentence holding the first term, if its start is close enough; else a few words before the term.
    a = None
    for q in range(first, max(lowest, first - slack // 2) - 1, -1):
        if _is_sentence_start(text, q):
            a = q
            break
    if a is None:
        a = _start_at_or_after(text, max(lowest, first - min(slack // 3, _MAX_LEAD)), first)
    room = max_chars - 1 if a == 0 else budget
    if a + room >= n:
        # The end of the text fits: no ellipsis there, so spend what is left on context before the terms.
        b = n
        earliest = max(1, n - (max_chars - 1))
        if earliest < a:
            sentence = next((q for q in range(earliest, a) if _is_sentence_start(text, q)), None)
            a = sentence if sentence is not None else _start_at_or_after(text, earliest, a)
    else:
        # End with a sentence if one ends in the last quarter of the room; else at a word boundary.
        floor = max(last, a + room - room // 4)
        sentence_end = next((q for q in range(a + room, floor - 1, -1) if _is_sentence_end(text, q)), None)
        b = sentence_end if sentence_end is not None else _end_at_or_before(text, a + room, last)
    return a, b


def _cut_start(text: str, max_chars: int) -> tuple[int, int]:
    if len(text) <= max_chars:
        return 0, len(text)
    return 0, _end_at_or_before(text, max_chars - 1, 1)


def _render(text: str, a: int, b: int, spans: list[Span]) -> str:
    # Trim spaces at the cut so an ellipsis sits against the text.
    while a < b and text[a] == " ":
        a += 1
    while b > a and text[b - 1] == " ":
        b -= 1
    marks: list[list[int]] = []
    for start, end, _term in spans:
        if start < a or end > b:
            continue  # a term the cut goes through is left unmarked rather than half-marked
        if marks and start <= marks[-1][1]:
            marks[-1][1] = max(marks[-1][1], end)  # overlapping CJK bigrams, adjacent terms: one mark
        else:
            marks.append([start, end])
    parts = [ELLIPSIS] if a > 0 else []
    pos = a
    for start, end in marks:
        parts += [escape(text[pos:start]), "<mark>", escape(text[start:end]), "</mark>"]
        pos = end
    parts.append(escape(text[pos:b]))
    if b < len(text):
        parts.append(ELLIPSIS)
    return "".join(parts)


def make_snippet(text: str, query: str, idf: Callable[[str], float] | None, max_chars: int) -> SafeString:
    """HTML: at most `max_chars` characters of `text` (counting the "…" at cut ends) around its best query terms.

    `idf` weighs an analysed term (as BM25Index.idf takes it); None weighs every term 1. Whitespace runs become one
    space. When no query term occurs, the start of the text. The result is safe to insert into a page as it is."""
    plain = " ".join(text.split())
    if max_chars < 3:  # no room for an ellipsis: a bare cut (the search service never asks for this)
        return mark_safe(escape(plain[: max(max_chars, 0)]))
    wanted = query_terms(query)
    weights = {term: max(float(idf(term)), 0.0) if idf else 1.0 for term in wanted}
    spans = [span for span in term_spans(plain) if span[2] in weights] if weights else []
    if not spans:
        a, b = _cut_start(plain, max_chars)
    elif len(plain) <= max_chars:
        a, b = 0, len(plain)
    else:
        # A term longer than the window could never be marked whole; it cannot anchor the window either.
        spans = [span for span in spans if span[1] - span[0] <= max_chars - 2]
        if not spans:
            a, b = _cut_start(plain, max_chars)
        else:
            first, last = _best_window(spans, weights, max_chars - 2)
            a, b = _place(plain, spans[first][0], max(end for _s, end, _t in spans[first : last + 1]), max_chars)
    return mark_safe(_render(plain, a, b, spans))  # every piece of text went through escape()
