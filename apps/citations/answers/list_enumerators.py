"""List enumerators: the counter or bullet that opens a list item, read with its style and value (issue 15).

A counter is 1. 1) 1). (1) a) (a) iv. 一、 （一） ① ⑴ ⒈ (its style is the body's kind and the wrapping, its value the
number it counts); a bullet is any one non-ASCII symbol or dash, or ASCII * - +, followed by a space. "i." may be
the letter i or the roman numeral 1: an Enumerator keeps every reading, and a list decides by what counts up. A
labelled counter names its kind ("示例1：", "Step 2:", "Example 3."); its text may stand on the next line.

Documents' `sentences.is_list_item` is the definition of a line that starts like an item, which the chunker, the
PDF line joiner and the answer's support check share. `is_list_item` here builds on it: a line is an item of a
list in the evidence when documents call it one, or when this reader reads a counter or bullet it does not list
(circled and parenthesised digits such as ⑴ ❶, symbol bullets such as ● ■ ◆); either way the enumerator must be
readable, so the list can tell which items count up together.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from apps.documents.parsing.sentences import is_list_item as starts_like_item

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
# A labelled counter: a word that names the kind of item, its number and a colon ("示例1：", "Step 2:", "Example
# 3."), as standards, manuals and textbooks number examples and steps; the item's text may be the next line.
_LABELLED = re.compile(
    r"(?P<label>示例|例|步骤|案例|阶段|(?i:example|step|case|stage|phase))\s?(?P<n>\d{1,3})\s?(?:[:：]|\.(?=\s)|、)\s*"
)
# A line number of pseudo-code ("1: Semantically partition edges … 2: Find factor components …"), as algorithm
# environments (algorithmic, algorithm2e) print their steps: a number, a colon and a space.
_LINE_NUMBER = re.compile(r"(?P<n>\d{1,3}):[ \t]+(?=\S)")
_MAX_ROMAN = 40
_NOT_BULLETS = "©®™℗℠°§¶"
SENTENCE_END = "。！？；.!?;"
CLAUSE_END = "：:；;。，,.、"
_DOT_LEADER = re.compile(r"\.{4,}|…{2,}|(?:\. ){3,}|·{4,}")  # table-of-contents lines are not list items
PAGE_NUMBER = re.compile(r"^\s*(?:\d{1,4}|[ivxlcdm]{1,6}|[IVXLCDM]{1,6})\s*$")


@dataclass(frozen=True)
class Enumerator:
    styles: tuple[tuple[str, int], ...]  # (style, value) readings: "i." may be the letter i or the roman numeral 1
    end: int  # where the enumerator (and the space after it) ends in the line

    def continues(self, previous: Enumerator) -> bool:
        """This counter is the next one of `previous`'s list (same style, value + 1)."""
        return any(s == p and v == pv + 1 for s, v in self.styles for p, pv in previous.styles)

    @property
    def bullet(self) -> bool:
        """A bullet ("•", "-"): it counts nothing."""
        return any(s.startswith("bullet") for s, _ in self.styles)

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


def is_bullet(char: str) -> bool:
    if char in "*-+":
        return True
    if char.isascii() or "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffff":
        return False  # ASCII, CJK/fullwidth punctuation (、。「…) and the replacement character are not bullets
    if char in _NOT_BULLETS:
        return False  # "© 2014 the authors", "® registered", "° C": symbols that open no item
    return unicodedata.category(char) in ("Po", "Pd", "So", "Sm", "Co")


def is_cjk_char(char: str) -> bool:
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
    if labelled := _LABELLED.match(line, at):
        return Enumerator(((f"label-{labelled['label'].lower()}", int(labelled["n"])),), labelled.end())
    if numbered := _LINE_NUMBER.match(line, at):
        return Enumerator((("line-number", int(numbered["n"])),), numbered.end())
    if is_bullet(char):
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
    if delim in (".", "．", ")") and not (rest[0].isspace() or is_cjk_char(rest[0])):
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
    """`line` opens with an enumerator this module can read, is not a table-of-contents line, and has content;
    documents' definition (`sentences.is_list_item`) or this reader's own counters and bullets."""
    line = line.strip()
    enumerator = enumerator_at(line)
    if enumerator is None or _DOT_LEADER.search(line):
        return False
    if _labelled(enumerator):
        return True  # "示例1：" alone: its text is the next line
    if not _has_content(line[enumerator.end :]):
        return False
    return starts_like_item(line) or _only_here(enumerator)


def _labelled(enumerator: Enumerator) -> bool:
    return any(s.startswith("label-") for s, _ in enumerator.styles)


def label_only(line: str) -> bool:
    """`line` is a labelled counter and nothing else ("示例2:"): the item's text is on the next line."""
    enumerator = enumerator_at(line.strip())
    return enumerator is not None and _labelled(enumerator) and not line.strip()[enumerator.end :]


def _only_here(enumerator: Enumerator) -> bool:
    """Enumerators documents' pattern does not list but that only ever open an item: one-character counters
    (⑴ ❶ ⒈), symbol bullets followed by a space (● ■ ◆ ▶), labelled counters ("示例1：", "Step 2:") and
    pseudo-code line numbers ("3: Represent each …")."""
    only = ("circled", "parenthesised", "full-stop", "bullet", "label-", "line-number")
    return any(s.startswith(only) for s, _ in enumerator.styles)
