"""Lists in the evidence: the items after a lead-in ("… the following assumptions:", "包括以下14个安全要素：") or a
numbered, lettered or bulleted run, each item kept with the evidence number of the chunk it is in (issue 15).

Every parser hands list items over as lines of their own: DOCX rebuilds the visible label from numbering.xml
("a) …", "• …"), Markdown keeps "1." / "-", PDF keeps each item's paragraph. So a chunk is read as a stream of
lines, and a line is an item when it opens with an enumerator: a counter (1. 1) 1). (1) a) (a) iv. 一、 （一） ① ⑴ ⒈)
or a bullet (any one non-ASCII symbol or dash, or ASCII * - +, followed by a space). Items written inside one
line ("以下要素：a) 物理安全；b) 网络安全；…", "we filter out PDFs that (i) …, (ii) …") are split where counters of
one style count up from the first; the text before them is their lead-in.

A list is a lead-in followed by at least one item, or a run of at least two items without one. Counters must count
up (a sub-list may open under an item); an item that announces a body (it ends with ":" or "?") may be followed by
that body before the next item. Items often continue into the next chunk of the same document: `find_lists` reads
consecutive chunks of one document as one stream, and `continuations` fetches the chunks retrieval did not return
where a list runs to a chunk's end.

Item text is verbatim from the chunk, enumerator kept ("a) 物理安全；", "1. Water flows downhill."), so the support
check and the viewer find it in the chunk; the one exception is an item a PDF cut into two paragraphs (its second
line starts in lower case), joined again with one space where the chunk has a paragraph break.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import pysbd

from apps.citations.answers.types import Evidence
from apps.retrieval.search.types import SearchHit


@dataclass
class ListBlock:
    number: int  # evidence number of the chunk holding the lead-in (or the first item when there is no lead-in)
    lead: str  # the lead-in sentence verbatim from the chunk ("… the following assumptions:"); "" when none
    # (evidence number, item text) in order; the text is verbatim from that chunk, enumerator ("1.", "a)", "•") kept.
    items: list[tuple[int, str]] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------------------
# Enumerators

_CJK_NUMERALS = "零〇一二三四五六七八九十百"
_ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
# A counter token: its body (digits, one letter, a roman numeral, Chinese numerals) in one of the usual wrappings.
_COUNTER = re.compile(
    r"(?P<open>[(（])?\s?"
    r"(?P<body>\d{1,3}|[A-Za-z]|[ivxlcdmIVXLCDM]{2,6}|[零〇一二三四五六七八九十百]{1,3})"
    r"(?(open)\s?(?P<close>[)）])|(?P<delim>[)）]\.|[.．)）、]))"
)
# Circled and parenthesised counters that are one character each: ① ❶ ➀ ➊ ⑴ ⒈.
_COUNTER_CHARS = {
    0x2460: (20, "circled"),
    0x2776: (10, "circled-negative"),
    0x2780: (10, "circled-sans"),
    0x278A: (10, "circled-sans-negative"),
    0x2474: (20, "parenthesised"),
    0x2488: (20, "full-stop"),
}
_MAX_ROMAN = 40
_SENTENCE_END = "。！？；.!?;"
_CLAUSE_END = "：:；;。，,.、"
_DOT_LEADER = re.compile(r"\.{4,}|…{2,}|(?:\. ){3,}|·{4,}")  # table-of-contents lines are not list items
_PAGE_NUMBER = re.compile(r"^\s*(?:\d{1,4}|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})\s*$")


@dataclass(frozen=True)
class Enumerator:
    styles: tuple[tuple[str, int], ...]  # (style, value) readings: "i." may be the letter i or the roman numeral 1
    end: int  # where the enumerator (and the space after it) ends in the line

    def continues(self, previous: Enumerator) -> bool:
        """This counter is the next one of `previous`'s list (same style, value + 1)."""
        return any(s == p and v == pv + 1 for s, v in self.styles for p, pv in previous.styles)

    @property
    def first(self) -> bool:
        """Numbers a list's first item (1, a, i, 一, ①)."""
        return any(v == 1 for _, v in self.styles)


def _cjk_value(text: str) -> int | None:
    digits = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0}
    if all(c in digits for c in text):
        return int("".join(str(digits[c]) for c in text))
    if "百" in text:
        return None
    tens, _, units = text.partition("十")
    if "十" not in text or len(tens) > 1 or len(units) > 1:
        return None
    return (digits.get(tens, 1) if tens else 1) * 10 + (digits.get(units, 0) if units else 0)


def _roman_value(text: str) -> int | None:
    text = text.lower()
    if not _ROMAN.match(text):
        return None  # "civil", "mild"
    total = 0
    for a, b in zip(text, [*text[1:], ""], strict=True):
        value = _ROMAN_VALUES[a]
        total += -value if b and _ROMAN_VALUES[b] > value else value
    return total if total <= _MAX_ROMAN else None  # "mix." (1009) opens a sentence, not a list


def _readings(body: str, shape: str) -> tuple[tuple[str, int], ...]:
    readings: list[tuple[str, int]] = []
    if body.isdigit():
        readings.append((f"digit{shape}", int(body)))
    elif all(c in _CJK_NUMERALS for c in body):
        if (value := _cjk_value(body)) is not None:
            readings.append((f"cjk{shape}", value))
    else:
        case = "upper" if body.isupper() else "lower"
        if len(body) == 1:
            readings.append((f"alpha-{case}{shape}", ord(body.lower()) - ord("a") + 1))
        if (value := _roman_value(body)) is not None:
            readings.append((f"roman-{case}{shape}", value))
    return tuple(readings)


def _is_bullet(char: str) -> bool:
    if char in "*-+":
        return True
    if char.isascii() or "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffff":
        return False  # ASCII, CJK/fullwidth punctuation (、。「…) and the replacement character are not bullets
    return unicodedata.category(char) in ("Po", "Pd", "So", "Sm", "Co")


def _cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def enumerator_at(line: str, at: int = 0) -> Enumerator | None:
    """The enumerator that opens `line[at:]`, if any."""
    if at >= len(line):
        return None
    char = line[at]
    for base, (count, style) in _COUNTER_CHARS.items():
        if base <= ord(char) < base + count:
            end = at + 1
            while end < len(line) and line[end] == " ":
                end += 1
            return Enumerator(((style, ord(char) - base + 1),), end) if end < len(line) else None
    if _is_bullet(char):
        # A bullet needs the space after it: "-5 °C" and "—and" are not items.
        if at + 1 < len(line) and line[at + 1] in " \t\u3000" and line[at + 1 :].strip():
            return Enumerator(((f"bullet{char}", 0),), len(line) - len(line[at + 1 :].lstrip()))
        return None
    match = _COUNTER.match(line, at)
    if not match:
        return None
    body, delim = match["body"], match["delim"]
    shape = f"({match['close']})" if match["open"] else (delim or "")
    if delim in (".", "．"):
        shape = "."
    elif delim in (").", "）."):
        shape, delim = ").", ")"  # "1). 如何删除日期？": read like "1)"
    rest = line[match.end() :]
    if not rest.strip():
        return None
    if delim in (".", "．", ")") and not (rest[0].isspace() or _cjk(rest[0])):
        return None  # "1.5 million", "e.g.", "a)b" are not counters
    if delim in (".", "．") and not body.isdigit() and not rest[0].isspace():
        return None
    readings = _readings(body, shape)
    if not readings:
        return None
    end = match.end() + (len(rest) - len(rest.lstrip()))
    return Enumerator(readings, end)


def _has_content(text: str) -> bool:
    return any(c.isalnum() for c in text)  # "+ + + +" (a diagram's row) and "\uf8f1 \uf8f2" are not items


def is_list_item(line: str) -> bool:
    """`line` opens with an enumerator and is not a table-of-contents line (for callers that judge fragments)."""
    line = line.strip()
    enumerator = enumerator_at(line)
    return enumerator is not None and _has_content(line[enumerator.end :]) and not _DOT_LEADER.search(line)


# ---------------------------------------------------------------------------------------------------------------
# Reading a chunk as lines


@dataclass
class Line:
    number: int  # evidence number of the chunk the line is in
    text: str  # verbatim slice of the chunk
    enumerator: Enumerator | None  # None: not an item
    introduces: bool = False  # the text before items written inside one line: it introduces them


def _inline_items(text: str) -> list[int]:
    """Where items written inside one line start: a run of >= 2 counters of one style counting up, the first
    numbering a list's first item, after a lead-in ("以下要素：a) …；b) …") or opening the line; each later counter
    after a clause end ("；b)", "; 2)") or, for the unambiguous wrappings ("b)", "(2)", "二、"), after a space."""
    starts: list[tuple[int, Enumerator, bool]] = []  # (position, enumerator, after a clause end)
    for i, char in enumerate(text):
        if i and not (text[i - 1].isspace() or text[i - 1] in _CLAUSE_END):
            continue
        if char.isspace() or (enum := enumerator_at(text, i)) is None:
            continue
        if any(s.startswith("bullet") for s, _ in enum.styles):
            continue
        before = text[:i].rstrip()
        starts.append((i, enum, not before or before[-1] in _CLAUSE_END))
    best: list[int] = []
    for k, (pos, enum, _) in enumerate(starts):
        if not (pos == 0 or (enum.first and (is_lead_in(text[:pos]) or _wrapped(enum)))):
            continue
        chain, last = [pos], enum
        for later_pos, later, after_clause in starts[k + 1 :]:
            loose = any(s.endswith(".") for s, _ in later.styles)  # "A. " and "2. " end sentences too
            if later.continues(last) and (after_clause or not loose):
                chain.append(later_pos)
                last = later
        if len(chain) >= 2 and len(chain) > len(best):
            best = chain
    return best or _inline_bullets(text)


def _wrapped(enumerator: Enumerator) -> bool:
    """A counter in brackets or with a closing one ("(ii)", "b)"): in running prose it still enumerates, as in
    "we filter out PDFs that (i) produce an error …, (ii) have greater than 50 pages …"."""
    return all(")" in s or "）" in s or s.startswith(("circled", "parenthesised")) for s, _ in enumerator.styles)


def _inline_bullets(text: str) -> list[int]:
    """Bulleted items inside one line ("– a surface language; – a kernel language"): the line opens with the
    bullet, or a lead-in comes before its first use, and every later use follows a clause end and a space."""
    for i, char in enumerate(text):
        if (i == 0 or text[i - 1] == " ") and _is_bullet(char) and text[i + 1 : i + 2] == " ":
            if i and not is_lead_in(text[:i]):
                return []
            cuts = [i]
            for match in re.finditer(rf"(?<=[{re.escape(_CLAUSE_END)}] ){re.escape(char)} ", text[i + 1 :]):
                cuts.append(i + 1 + match.start())
            return cuts if len(cuts) >= 2 else []
    return []


def _lines(number: int, text: str) -> list[Line]:
    lines: list[Line] = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or _PAGE_NUMBER.match(line):
            continue  # blank lines and page numbers between items do not end a list
        cuts = _inline_items(line)
        if cuts and cuts[0] > 0:
            lines.append(Line(number, line[: cuts[0]].rstrip(), None, introduces=True))
        if not cuts:
            cuts = [0]
        for a, b in zip(cuts, [*cuts[1:], len(line)], strict=True):
            piece = line[a:b].rstrip()
            lines.append(Line(number, piece, enumerator_at(piece) if is_list_item(piece) else None))
    return lines


# ---------------------------------------------------------------------------------------------------------------
# Lead-ins

# A lead-in ends with a colon, or its last sentence announces what follows ("… the following assumptions.",
# "如下所示。"): the cue and then a few words at most, so "The following year, sales grew." is not one.
_CUE_EN = re.compile(
    r"\b(?:the following|as follows|listed below|shown below|given below)(?:\s+[\w-]+){0,4}\s*[.:]$", re.I
)
_CUE_ZH = re.compile(r"(?:以下|如下|下列|下述)[^，,。；;]{0,16}[。：:]$")
_MARKER_TAIL = re.compile(r"(?:\s*(?:\[\d+(?:[,–-]\s*\d+)*\]|\(ref \d+\)))+(?=\s*[.:：。]?$)")


def is_lead_in(text: str) -> bool:
    """`text` (a line) ends in a sentence that announces a list."""
    tail = _MARKER_TAIL.sub("", text.rstrip())
    # Both cues are anchored at the end and span no sentence end, so the line's tail is its last sentence's tail.
    return tail.endswith((":", "：")) or bool(_CUE_EN.search(tail) or _CUE_ZH.search(tail))


@lru_cache(maxsize=2)
def _segmenter(language: str) -> pysbd.Segmenter:
    return pysbd.Segmenter(language=language, clean=False, char_span=True)


def last_sentence(text: str) -> str:
    """The last sentence of `text`, verbatim (pysbd knows abbreviations such as "e.g." and CJK punctuation)."""
    text = text.rstrip()
    if not text:
        return ""
    language = "zh" if sum(map(_cjk, text)) * 4 > len(text) else "en"
    spans = _segmenter(language).segment(text)
    return text[spans[-1].start :].strip() if spans else text


# ---------------------------------------------------------------------------------------------------------------
# Lists in a stream of lines


@dataclass
class _Found:
    block: ListBlock
    open_at_end: bool  # the list (or its lead-in) is the stream's last line: it may go on in the next chunk


def _continuation(previous: Line, line: Line) -> bool:
    """A line that carries on the item before it (a PDF starts a new paragraph after an item's first line, or at a
    page break): no enumerator, the item had no sentence end, and the line starts in lower case."""
    return (
        previous.enumerator is not None
        and line.enumerator is None
        and not previous.text.endswith(tuple(_SENTENCE_END))
        and line.text[:1].islower()
    )


def _joins(items: list[Line], line: Line, crosses: bool) -> bool:
    """The item goes on with the list: the same bullet, or the next counter of one of its styles ("3." after "2.",
    "c)" after "b)"), or, inside one chunk, a sub-list opening under the item before ("a." after "2.", "•" after
    "1."). So figure panels "(c) (b) (a)", the numbered heading that opens the next chunk, or "B. Methods" after
    "(iii)" end a list."""
    enumerator = line.enumerator
    assert enumerator is not None
    if not items:
        return True
    styles = {s for s, _ in enumerator.styles}
    for item in reversed(items):
        shared = styles & {s for s, _ in item.enumerator.styles}
        if shared:
            if any(s.startswith("bullet") for s in shared) or enumerator.continues(item.enumerator):
                return True
            break
    if crosses or styles & {s for s, _ in items[-1].enumerator.styles}:
        return False
    return enumerator.first or any(s.startswith("bullet") for s in styles)


BODY_LINES = 6  # at most this many body lines under one item


def _after_body(lines: list[Line], j: int, items: list[Line]) -> int | None:
    """Items with bodies ("1). 如何删除日期？" then its answer, "• Preprocessing:" then a paragraph): where the next
    item of the list is, when the last item announces a body (it ends with a colon or a question mark) and the
    next item (the next counter of its style, or the same bullet) follows within BODY_LINES lines; None otherwise.
    Numbered headings with their sections ("I. INTRODUCTION" … "II. RELATED WORK") announce nothing: no list."""
    last = items[-1]
    if not last.text.endswith((":", "：", "?", "？")):
        return None
    for k in range(j, min(j + BODY_LINES, len(lines))):
        following = lines[k].enumerator
        if following is None:
            continue
        same_bullet = {s for s, _ in following.styles if s.startswith("bullet")} & {
            s for s, _ in last.enumerator.styles
        }
        return k if following.continues(last.enumerator) or same_bullet else None
    return None


def _scan(lines: list[Line]) -> list[_Found]:
    found: list[_Found] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        lead = line if line.enumerator is None and (line.introduces or is_lead_in(line.text)) else None
        j, items = (i + 1 if lead else i), []
        while j < len(lines):
            current = lines[j]
            previous = items[-1] if items else lead
            crosses = previous is not None and previous.number != current.number
            if current.enumerator is not None and _joins(items, current, crosses):
                items.append(current)
            elif items and _continuation(items[-1], current):
                if not crosses:  # within one chunk the item is whole again (one space for the break)
                    items[-1] = replace(items[-1], text=f"{items[-1].text} {current.text}")
            elif items and (after := _after_body(lines, j, items)) is not None:
                j = after  # the item's own body paragraphs; the list goes on with its next item
                continue
            else:
                break
            j += 1
        open_at_end = j == len(lines) and (lead is not None or bool(items))
        pairs = [(item.number, item.text) for item in items]
        if lead is not None and (items or open_at_end):
            found.append(_Found(ListBlock(lead.number, last_sentence(lead.text), pairs), open_at_end))
            i = max(j, i + 1)
        elif lead is None and (len(items) >= 2 or (items and open_at_end)):
            found.append(_Found(ListBlock(items[0].number, "", pairs), open_at_end))
            i = j
        else:
            i += 1
    return found


def _runs(evidence: Sequence[Evidence]) -> list[list[Evidence]]:
    """The evidence grouped into runs of consecutive chunks of one document, in chunk order."""
    by_document: dict[int, list[Evidence]] = {}
    for e in evidence:
        by_document.setdefault(e.hit.document_id, []).append(e)
    runs: list[list[Evidence]] = []
    for items in by_document.values():
        seen: set[int] = set()
        for e in sorted(items, key=lambda e: e.hit.chunk_index):
            if e.hit.chunk_index in seen:
                continue  # the same chunk twice: read it once
            seen.add(e.hit.chunk_index)
            if (
                runs
                and runs[-1][-1].hit.document_id == e.hit.document_id
                and (runs[-1][-1].hit.chunk_index + 1 == e.hit.chunk_index)
            ):
                runs[-1].append(e)
            else:
                runs.append([e])
    return runs


def _stream(run: Iterable[Evidence]) -> list[Line]:
    return [line for e in run for line in _lines(e.number, e.hit.text)]


def find_lists(evidence: Sequence[Evidence]) -> list[ListBlock]:
    """Every list in the evidence with at least one item, items joined across consecutive chunks of one document;
    ordered by the evidence number of the chunk each list starts in, then by place."""
    blocks = [
        f.block
        for run in _runs(evidence)
        for f in _scan(_stream(run))
        if f.block.items and (f.block.lead or len(f.block.items) >= 2)
    ]
    return sorted(blocks, key=lambda b: b.number)  # stable: lists of one chunk keep their order


# ---------------------------------------------------------------------------------------------------------------
# Fetching the chunks a list runs into


def _open_runs(evidence: Sequence[Evidence]) -> list[list[Evidence]]:
    """Runs whose stream ends inside a list or right after a lead-in, in the order of their best evidence number."""
    runs = [run for run in _runs(evidence) if (found := _scan(_stream(run))) and found[-1].open_at_end]
    return sorted(runs, key=lambda run: min(e.number for e in run))


def _extends(block: ListBlock, before: ListBlock, number: int) -> bool:
    """`block` is the list `before` was, with items taken from the chunk given the stand-in `number`."""
    return (
        block.number == before.number
        and block.lead == before.lead
        and block.items[: len(before.items)] == before.items
        and any(n == number for n, _ in block.items)
    )


def continuations(evidence: Sequence[Evidence], user, limit: int = 3, query: str = "") -> list[SearchHit]:
    """The chunks that follow (same document, next chunk_index) where a list starts or runs to a chunk's end and
    retrieval did not return the next chunk: at most `limit`, each starting with an item of that list, as SearchHits
    built the way search builds them (`query` marks the snippet). Only chunks of ready documents the user may read;
    the continuation chunks' text is read the way find_lists reads it, so a fetched chunk always adds items."""
    from apps.documents.access import readable_collections
    from apps.documents.models import Chunk, DocumentStatus
    from apps.retrieval.search.hits import make_hit
    from apps.retrieval.search.service import Ranked
    from apps.retrieval.search.types import DEPTH_PRESETS

    if limit <= 0:
        return []
    present = {(e.hit.document_id, e.hit.chunk_index) for e in evidence}
    snippet_chars = DEPTH_PRESETS["deep"].snippet_chars
    hits: list[SearchHit] = []
    for run in _open_runs(evidence):
        if len(hits) >= limit:
            break
        last = run[-1].hit
        wanted = range(last.chunk_index + 1, last.chunk_index + 1 + limit - len(hits))
        chunks = (
            Chunk.objects.filter(
                document_id=last.document_id,
                chunk_index__in=[i for i in wanted if (last.document_id, i) not in present],
                weight__gt=0,
                document__status=DocumentStatus.READY,
                document__collection__in=readable_collections(user),
            )
            .select_related("document__collection")
            .defer("embedding")
            .order_by("chunk_index")
        )
        stream = _stream(run)
        expected = last.chunk_index + 1
        for chunk in chunks:
            if chunk.chunk_index != expected:
                break  # a gap (a chunk already in the evidence, or missing): the stream is not consecutive
            open_list = _scan(stream)[-1].block
            number = -1 - len(hits)  # a stand-in evidence number, to see whether the list took items from it
            stream += _lines(number, chunk.text)
            found = _scan(stream)
            if not any(_extends(f.block, open_list, number) for f in found):
                break  # the next chunk does not go on with the list
            hits.append(make_hit(chunk, Ranked(chunk.pk, 0.0, "list"), query, {}, snippet_chars))
            if not found[-1].open_at_end or len(hits) >= limit:
                break
            expected += 1
    return hits
