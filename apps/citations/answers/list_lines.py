"""A chunk read as a stream of lines for the list reader (issue 15), and the lead-ins that announce a list.

Every parser hands list items over as lines of their own: DOCX rebuilds the visible label from numbering.xml
("a) …", "• …"), Markdown keeps "1." / "-", PDF keeps each item's paragraph. So a chunk is read line by line, and
a line is an item when it opens with an enumerator (answers.list_enumerators). Items written inside one line
("以下要素：a) 物理安全；b) 网络安全；…", "we filter out PDFs that (i) …, (ii) …") are split where counters of one
style count up from the first; the text before them is their lead-in. A chunk's first line that is its section's
heading is marked: a heading ends any list before it and is never an item ("4. Results" after items "1."–"3.").
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import pysbd

from apps.citations.answers.claims import is_keyword_line
from apps.citations.answers.list_enumerators import (
    CLAUSE_END,
    PAGE_NUMBER,
    Enumerator,
    enumerator_at,
    is_bullet,
    is_cjk_char,
    is_list_item,
)
from apps.documents.parsing.sections import is_caption


@dataclass
class Line:
    number: int  # evidence number of the chunk the line is in
    text: str  # verbatim slice of the chunk
    enumerator: Enumerator | None  # None: not an item
    introduces: bool = False  # the text before items written inside one line: it introduces them
    heading: bool = False  # the chunk's first line and its section's heading: it ends a list
    # An item that is a name ("- **Fast**"): the first sentence of the paragraph under it, which says what it is.
    gloss: str = ""
    has_body: bool = False  # paragraphs stood under the item before the next one


def _inline_items(text: str) -> list[int]:
    """Where items written inside one line start: a run of >= 2 counters of one style counting up, the first
    numbering a list's first item, after a lead-in ("以下要素：a) …；b) …") or opening the line; each later counter
    after a clause end ("；b)", "; 2)") or, for the unambiguous wrappings ("b)", "(2)", "二、"), after a space."""
    starts: list[tuple[int, Enumerator, bool]] = []  # (position, enumerator, after a clause end)
    for i, char in enumerate(text):
        if i and not (text[i - 1].isspace() or text[i - 1] in CLAUSE_END):
            continue
        if char.isspace() or (enum := enumerator_at(text, i)) is None:
            continue
        if enum.bullet:
            continue
        if _closes_a_bracket(text, i, enum):
            continue  # "(Grade A)", "(category of evidence, 2a; grade of recommendation, B)": not counters
        before = text[:i].rstrip()
        starts.append((i, enum, not before or before[-1] in CLAUSE_END))
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


def _closes_a_bracket(text: str, at: int, enumerator: Enumerator) -> bool:
    """A counter with only a closing bracket ("A)", "b）") that closes a bracket opened before it on the line is
    the end of a parenthesis ("… recommendation (Grade A) …"), not an item's counter."""
    if not all(s.endswith((")", "）")) and "(" not in s for s, _ in enumerator.styles):
        return False
    before = text[:at]
    return before.count("(") + before.count("（") > before.count(")") + before.count("）")


def _wrapped(enumerator: Enumerator) -> bool:
    """A counter in brackets or with a closing one ("(ii)", "b)"): in running prose it still enumerates, as in
    "we filter out PDFs that (i) produce an error …, (ii) have greater than 50 pages …"."""
    return all(
        ")" in s or "）" in s or s.startswith(("circled", "parenthesised", "line-number")) for s, _ in enumerator.styles
    )


def _inline_bullets(text: str) -> list[int]:
    """Bulleted items inside one line ("– a surface language; – a kernel language"): the line opens with the
    bullet, or a lead-in comes before its first use, and every later use follows a clause end and a space."""
    for i, char in enumerate(text):
        if (i == 0 or text[i - 1] == " ") and is_bullet(char) and text[i + 1 : i + 2] == " ":
            if i and not is_lead_in(text[:i]):
                return []
            cuts = [i]
            for match in re.finditer(rf"(?<=[{re.escape(CLAUSE_END)}] ){re.escape(char)} ", text[i + 1 :]):
                cuts.append(i + 1 + match.start())
            return cuts if len(cuts) >= 2 else []
    return []


# Items written inside one line without counters: after a colon, clauses separated by semicolons.
_CLAUSE_ITEMS = 3  # at least this many clauses: two are a sentence with a semicolon
_COLON = re.compile(r"[:：]\s*")
_SEMICOLON = re.compile(r"[;；]\s*")
_ITEM_END = ".;。；!?！？"


def _inline_clauses(text: str) -> list[int]:
    """Where the items of a list written as clauses start ("… were made using digital calipers: snout-vent length
    (SVL) – from cloaca to tip of snout; head width (HW) – …; head length (HL) – …", "包括：物理安全；网络安全；…"):
    after the line's first colon, at least _CLAUSE_ITEMS clauses separated by semicolons."""
    colon = _COLON.search(text)
    if colon is None or colon.end() >= len(text):
        return []
    cuts = [colon.end()] + [m.end() for m in _SEMICOLON.finditer(text, colon.end()) if m.end() < len(text)]
    return cuts if len(cuts) >= _CLAUSE_ITEMS else []


def _clause_lines(number: int, line: str, cuts: list[int]) -> list[Line]:
    """The lead-in and the clause items of `line`, each item counted in order (style "clause", 1, 2, …) so the
    list reader treats them as one list; a last clause the chunk cut off ("hand length (HA) – from") is no item."""
    out = [Line(number, line[: cuts[0]].rstrip(), None, introduces=True)]
    for k, (a, b) in enumerate(zip(cuts, [*cuts[1:], len(line)], strict=True), start=1):
        piece = line[a:b].rstrip()
        whole = piece.endswith(tuple(_ITEM_END)) or b < len(line)
        out.append(Line(number, piece, Enumerator((("clause", k),), 0) if whole else None))
    return out


def lines_of(number: int, text: str, heading: str = "") -> list[Line]:
    """The lines of one chunk (evidence number `number`); `heading` is the chunk's section heading, marked when
    the chunk opens with it."""
    lines: list[Line] = []
    wanted = " ".join(heading.split())
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or PAGE_NUMBER.match(line):
            continue  # blank lines and page numbers between items do not end a list
        if not lines and wanted and " ".join(line.split()) == wanted:
            lines.append(Line(number, line, None, heading=True))
            continue
        if is_keyword_line(line) or is_caption(line):
            # "Keywords: Afforestation; Flow duration curves; …" lists no items, nor does "Figure 2: … (a) … (b) …"
            # (a figure's panels).
            lines.append(Line(number, line, None))
            continue
        cuts = _inline_items(line)
        if not cuts and (clauses := _inline_clauses(line)):
            lines += _clause_lines(number, line, clauses)
            continue
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


# A label, not a lead-in: one word, or up to four CJK characters, and a colon ("Note:", "注：", "Keywords:"). It
# announces no list a claim could be made of (a list under it is read without a lead-in, the label naming it).
_LABEL = re.compile(r"^\s*(?:[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f’'-]*|[\u3400-\u9fff]{1,4})\s*[:：]\s*$")


def is_label(text: str) -> bool:
    return bool(_LABEL.match(_MARKER_TAIL.sub("", text.rstrip())))


def is_lead_in(text: str) -> bool:
    """`text` (a line) ends in a sentence that announces a list."""
    tail = _MARKER_TAIL.sub("", text.rstrip())
    # Both cues are anchored at the end and span no sentence end, so the line's tail is its last sentence's tail.
    return tail.endswith((":", "：")) or bool(_CUE_EN.search(tail) or _CUE_ZH.search(tail))


# One pysbd Segmenter per thread and language: segment() keeps the text it splits on the instance (see
# documents' sentences.py), so threads answering at once must not share one.
_SEGMENTERS = threading.local()


def _segmenter(language: str) -> pysbd.Segmenter:
    segmenters: dict[str, pysbd.Segmenter] = _SEGMENTERS.__dict__
    if language not in segmenters:
        segmenters[language] = pysbd.Segmenter(language=language, clean=False, char_span=True)
    return segmenters[language]


def first_sentence(text: str) -> str:
    """The first sentence of `text`, verbatim."""
    text = text.strip()
    if not text:
        return ""
    spans = _segmenter(_language_of(text)).segment(text)
    return text[: spans[0].end].strip() if spans else text


def _language_of(text: str) -> str:
    return "zh" if sum(map(is_cjk_char, text)) * 4 > len(text) else "en"


def last_sentence(text: str) -> str:
    """The last sentence of `text`, verbatim (pysbd knows abbreviations such as "e.g." and CJK punctuation)."""
    text = text.rstrip()
    if not text:
        return ""
    spans = _segmenter(_language_of(text)).segment(text)
    return text[spans[-1].start :].strip() if spans else text
