"""Section numbers of printed headings: what a heading's label says, and which labels form the document's
top-level sequence.

The numbering is the strongest evidence a paper gives about its structure, stronger than type style (IEEE
sets "I. INTRODUCTION" in small capitals smaller than the body, and "A. Agent" in the body size): the top
level counts up one by one (I, II, III ...; 1, 2, 3 ...; 第一章, 第二章 ...; 一、二、...), in one style, and the
sub-levels restart under each top-level heading (A, B ... under a roman numeral; 2.1, 2.2 under 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..sections import REFERENCE_SIGNAL, is_caption, is_han
from .pdf_layout import RawBlock

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN = "零〇一二三四五六七八九十百"
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

_LABELS: list[tuple[str, re.Pattern]] = [
    ("zh_unit", re.compile(rf"^第\s*([{_CN}\d]+)\s*([章节篇部])\s*(.*)$")),
    # A report's or thesis's "Chapter 1" over its title (joined into one heading by pdf_heading_fragments).
    ("en_chapter", re.compile(r"^(?:Chapter|CHAPTER)\s+(\d{1,2}|[IVXLC]{1,6})\.?\s+(\S.*)$")),
    ("zh_item", re.compile(rf"^([{_CN}]+)\s*[、．]\s*(.+)$")),
    ("zh_paren", re.compile(rf"^[（(]\s*([{_CN}]+)\s*[）)]\s*(.+)$")),
    ("roman", re.compile(r"^([IVXLC]+)\.\s*(\S.*)$")),
    ("paren", re.compile(r"^(\d{1,2})\)\s+(\S.*)$")),
    # "2.1 Methods", "3方法", and with a section sign "§1. Introduction" (Progress of Theoretical Physics)
    ("arabic", re.compile(r"^(?:§\s*)?(\d{1,2}(?:\.\d{1,2}){0,4})\.?(?:\s+|(?=[\u3400-\u9fff]))(\S.*)$")),
    ("letter", re.compile(r"^([A-Z])((?:\.\d{1,2})*)\.?\s+(\S.*)$")),
]
_MAX_CHARS = 160
_MAX_LINES = 3
# A line of a printed table of contents ("1 Introduction .......... 3", "1.2 Method 7").
_TOC_LINE_RE = re.compile(r"(?:\.{3,}|…|(?:\s\.){3,}|\s)\s*\d{1,3}\s*$")
_SENTENCE_BREAK_RE = re.compile(r"[a-z]{2}\.\s+[A-Z]")
_CAPTION_CAPS_RE = re.compile(r"^(?:TABLE|FIG\.?|FIGURE|ALGORITHM)\s+[IVXLC\d]+\b", re.IGNORECASE)


@dataclass(frozen=True)
class Label:
    scheme: str  # roman | arabic | letter | paren | chapter (第1章, Chapter 1) | zh_section | zh_item | zh_paren | ...
    numbers: tuple[int, ...]
    title: str  # the heading's words after the label


def parse_label(text: str) -> Label | None:
    text = text.strip()
    for scheme, pattern in _LABELS:
        m = pattern.match(text)
        if not m:
            continue
        if scheme == "zh_unit":
            unit = {"章": "chapter", "节": "zh_section"}.get(m.group(2), "zh_part")
            n = _cn_number(m.group(1))
            return Label(unit, (n,), m.group(3)) if n else None
        if scheme == "en_chapter":
            n = int(m.group(1)) if m.group(1).isdigit() else _roman(m.group(1))
            return Label("chapter", (n,), m.group(2)) if n else None
        if scheme in ("zh_item", "zh_paren"):
            n = _cn_number(m.group(1))
            return Label(scheme, (n,), m.group(2)) if n else None
        if scheme == "roman":
            n = _roman(m.group(1))
            return Label(scheme, (n,), m.group(2)) if n else None
        if scheme == "letter":
            rest = tuple(int(x) for x in m.group(2).split(".") if x)
            return Label(scheme, (ord(m.group(1)) - 64, *rest), m.group(3))
        return Label(scheme, tuple(int(x) for x in m.group(1).split(".")), m.group(2))
    return None


MATH_ENDS = ("=", "+", "\u2212", "\u00d7", "<", ">", "\u2264", "\u2265")  # "Ei =": a display equation's left side


def heading_like(block: RawBlock, label: Label | None) -> bool:
    """Short, a title after the label (capital or CJK first, not a sentence), not a caption, a table-of-contents
    line or a reference entry."""
    text = block.text.strip()
    if len(block.lines) > _MAX_LINES or len(text) > _MAX_CHARS or is_caption(text) or _CAPTION_CAPS_RE.match(text):
        return False
    title = label.title.strip() if label else text
    if not title or not (title[0].isupper() or is_han(title[0]) or title[0] in "“\"'(") or _TOC_LINE_RE.search(text):
        return False
    if title.endswith((".", ",", ";", "。", "，", "；")) and not title.endswith(("et al.", "Etc.")):
        return False
    if title.endswith(MATH_ENDS):
        return False
    letters = sum(ch.isalpha() for ch in title)
    if letters < 2 and not any(is_han(ch) for ch in title):
        return False
    if sum(ch.isdigit() for ch in title) > 0.3 * len(title) or " et al" in title or "\ufffd" in title:
        return False
    if _SENTENCE_BREAK_RE.search(title):
        return False  # "Wages, salaries, tips, etc. Attach Form(s) W-2": a form line or a sentence, not a title
    return len(REFERENCE_SIGNAL.findall(title)) < 2


# Schemes that may number the top level, highest first: a document with chapters (第一章) and items (一、) has
# the chapters on top, one with roman numerals and arabic ones ("1." run-in sub-sub-headings) the numerals.
# Letters number appendices and sub-headings, never a document's top level (form questions "A", "B" ...).
_TOP_RANK = ("zh_part", "chapter", "zh_section", "zh_item", "roman", "arabic")
_MIN_CHAIN = 3
_WORDED_TOP = ("zh_part", "chapter", "zh_section", "zh_item")  # ordinals in words: no list is numbered "一、二、"
CLEARLY_LARGER = 2.0  # points above the body text's size from which type is clearly set apart (pdf_headings.py too)
_MIN_SHARE_OF_LONGEST = 0.3  # a higher-ranked chain wins over a longer one unless it is this much shorter


def top_chain(entries: list[tuple[int, Label, tuple]], body_size: float = 0.0) -> list[int]:
    """The run of single-number labels of one scheme and one style counting up (one number may be skipped: a
    heading lost to a figure or a page break) that numbers the document's top level. `entries` are (index,
    label, style) in reading order; returns the indexes of the chain's members, or [] when no run of three
    is found. A run of two is enough for Chinese ordinals and chapters set clearly larger than the text
    (`body_size`): a regulation in two parts, "一、学位论文的一般格式和顺序" and "二、有关学位论文的印刷格式"."""
    groups: dict[tuple, list[tuple[int, int]]] = {}
    for index, label, style in entries:
        if len(label.numbers) == 1 and label.scheme in _TOP_RANK:
            groups.setdefault((label.scheme, style), []).append((index, label.numbers[0]))
    best: dict[str, list[tuple[int, int]]] = {}
    size_of: dict[str, float] = {}
    for (scheme, style), members in groups.items():
        for start in range(len(members)):
            if members[start][1] > 10:
                continue
            chain = [members[start]]
            for k, item in enumerate(members[start + 1 :], start=start + 1):
                step = item[1] - chain[-1][1]
                # A skipped number is forgiven only when it never comes: "4 Visiting Programmer" (a footnote of
                # the left column) is not section 4 when "3. HELICITY AMPLITUDES" follows in the right one.
                if step == 1 or (step == 2 and all(m[1] != item[1] - 1 for m in members[k + 1 :])):
                    chain.append(item)
            if len(chain) > len(best.get(scheme, [])):
                best[scheme], size_of[scheme] = chain, style[0]
    longest = max((len(c) for c in best.values()), default=0)
    for scheme in _TOP_RANK:
        chain = best.get(scheme, [])
        worded = scheme in _WORDED_TOP and body_size and size_of.get(scheme, 0.0) >= body_size + CLEARLY_LARGER
        if len(chain) >= (2 if worded else _MIN_CHAIN) and len(chain) >= _MIN_SHARE_OF_LONGEST * longest:
            return [i for i, _ in chain]
    return []


def _cn_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_CN_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CN_DIGITS.get(ones, 0) if ones else 0)
    if len(text) == 1 and text in _CN_DIGITS:
        return _CN_DIGITS[text] or None
    return None


def _roman(text: str) -> int | None:
    total = 0
    for i, ch in enumerate(text):
        value = _ROMAN[ch]
        total += -value if i + 1 < len(text) and _ROMAN[text[i + 1]] > value else value
    return total if 0 < total <= 30 else None
