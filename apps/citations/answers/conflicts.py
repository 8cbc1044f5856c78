"""Whether two evidence sentences disagree, so that one is listed apart as a conflicting source.

Used by the extractive composer on the sentences it chose and the ones it passed over. Two sentences disagree only
when they say opposite things about the same thing; a sentence that merely shares words, or carries a "not" about
some other clause, does not. Each sentence is read as clauses (split at "but", "whereas", "但", "而", ";" …), and
each clause as a statement:

- its subject: its content terms (the BM25 analyzer's stems; in Chinese, jieba's words of two characters or more),
  without the words below;
- the direction of change it asserts (increased / decreased, 增加 / 减少), and the one it denies ("did not reduce");
- whether it negates, and what: the negation's scope runs from the cue to the end of its phrase (a comma or the
  clause end), so the "not" of "not native to the Americas" is about being native, not about the rest;
- the quantities it reports (value and unit: "12%", "10人", "3.5 mg") and the years it is about.

Two statements from different documents conflict when their subjects are the same (enough shared terms both ways,
at the same time when both name years) and they are opposed: opposite directions; a direction asserted and the
same direction denied; a change asserted where the other finds none ("no significant difference in …"); the same
predicate asserted and negated; a word against its opposite by prefix ("dependent" / "independent"); or different
values of the same quantity in the same unit (not of two measures told apart by a number, "30-day" / "90-day").

Chinese text is segmented with jieba, so a negation is a word (不, 没有, 未), not a character: 不同, 不仅, 未来 and
无论 are not negations. "Not only … but also" is not one either.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from apps.retrieval.keyword.analyzer import terms

# Subjects are "the same" when the shared terms are at least this share of the smaller subject and of the larger
# one, and at least MIN_SHARED terms (one shared word is a topic, not a subject).
SUBJECT_OF_SMALLER, SUBJECT_OF_LARGER, MIN_SHARED = 0.5, 0.25, 2
# A quantity is only comparable when the two clauses measure nearly the same thing ("30-day mortality of patients
# with septic shock"), not merely the same topic: more of the larger subject must be shared.
QUANTITY_OF_LARGER = 0.6
# A negated predicate is denied only when this share of the negated phrase's terms is in the other statement.
PREDICATE_FOUND = 0.6
# Values closer than this (relative) are the same figure rounded differently ("about 600" and "604").
SAME_VALUE = 0.05


class Claim(Protocol):
    text: str
    terms: set[str]
    document_id: int


_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_EN_TOKEN = re.compile(
    r"\d+-[A-Za-z]+"  # "30-day", "5-year": part of what is measured, not a quantity
    r"|\d+(?:[.,]\d+)*\s*(?:%|％)?"  # a number, with its percent sign
    r"|[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?:n['’]t)?"  # a word; "p53", "COVID-19", "UCP1-dependent" are names
    r"|[,;:!?()，；：。！？、]|\.(?!\d)"
)
_NUMBER = re.compile(r"(\d+(?:[.,]\d+)*)\s*(%|％)?$")
_CJK_NUMERAL = re.compile(r"^[零〇一二两三四五六七八九十百千万亿]+$")

# Clause boundaries: what follows a contrast is a statement of its own ("no difference in A, but B increased").
_CLAUSE_END_PUNCTUATION = set(";；。!?！？:：")
_CLAUSE_WORDS = {"but", "whereas", "while", "although", "though", "however", "但", "但是", "而", "然而", "却"}
_CLAUSE_WORDS |= {"不过", "虽然", "尽管", "可是", "而是"}
# A negation's scope ends at its phrase's end.
_PHRASE_END = {",", "，", "(", ")"}

_NEGATIONS_EN = {"no", "not", "never", "neither", "nor", "none", "cannot", "nothing"}
_FOCUS_AFTER_NOT = {"only", "just", "merely"}  # "not only … but also" adds, it does not deny
_NEGATIONS_ZH = {"不", "没", "没有", "未", "无", "非", "并未", "并非", "并不", "并没有", "未能", "不能", "不会", "无法"}
_NEGATIONS_ZH |= {"未曾", "从未", "毫无", "未见", "不再", "不是", "尚未", "无明显"}
_NEGATION_CHARACTERS = "不没未无"

# Directions of change, as whole words: English forms (not prefixes: "droplet", "inhibitors" and "falls" are no
# change), Chinese words found within jieba's words ("明显增加").
_UP_EN = re.compile(
    r"increas(?:e|es|ed|ing)|rais(?:e|es|ed|ing)|ris(?:e|es|en|ing)|rose|higher|greater|elevat(?:e|es|ed|ing)"
    r"|improv(?:e|es|ed|ing|ement)|enhanc(?:e|es|ed|ing|ement)|promot(?:e|es|ed|ing)|boost(?:s|ed|ing)?"
    r"|gr[eo]w(?:s|n|ing)?|up-?regulat(?:e|es|ed|ing|ion)|accelerat(?:e|es|ed|ing)|positively"
)
_DOWN_EN = re.compile(
    r"decreas(?:e|es|ed|ing)|reduc(?:e|es|ed|ing|tions?)|lower(?:s|ed|ing)?|fell|declin(?:e|es|ed|ing)"
    r"|dropp(?:ed|ing)|diminish(?:es|ed|ing)?|inhibit(?:s|ed|ing|ion)?|suppress(?:es|ed|ing|ion)?"
    r"|attenuat(?:e|es|ed|ing)|impair(?:s|ed|ing)?|worsen(?:s|ed|ing)?|down-?regulat(?:e|es|ed|ing|ion)"
    r"|shr[aiu]nk(?:s|ing)?|negatively|inversely"
)
_UP_ZH = ("增加", "提高", "升高", "上升", "增长", "增多", "增强", "加快", "扩大", "上涨", "促进", "改善", "增高")
_DOWN_ZH = ("减少", "降低", "下降", "减轻", "减弱", "下跌", "缩小", "抑制", "减缓", "恶化", "减低", "下滑")

# A number after these is a label ("Fig. 2", "Table 3", "第3章"), not a quantity.
_LABEL_BEFORE = {"fig", "figure", "figs", "table", "tab", "ref", "eq", "section", "chapter", "step", "图", "表", "第"}
_LABEL_BEFORE |= {"group", "arm", "phase", "type", "grade", "stage", "day", "week", "no"}
_UNIT_ALIASES = {"%": "%", "％": "%", "percent": "%", "百分之": "%"}
# A negated phrase naming one of these is a null finding ("no significant difference in weight", "没有显著差异"):
# it denies any change in what else it names.
_NULL_FINDING = frozenset(
    {
        t
        for word in ("difference", "effect", "change", "impact", "influence", "association", "correlation")
        for t in terms(word)
    }
)
_NULL_FINDING_ZH = ("差异", "影响", "变化", "区别", "作用", "效果", "关联", "相关")
_FIRST_PERSON = {"we", "our", "us", "我们", "本研究", "本文", "我"}


@dataclass(frozen=True)
class Statement:
    subject: frozenset[str]
    asserted: int  # +1 increase, -1 decrease, 0 neither (outside any negation)
    denied: int  # the direction a negation denies ("did not reduce": -1)
    negated: bool
    scope: frozenset[str]  # the terms of what is negated
    head: str  # the first of them: what the negation is about ("not native to …": native)
    quantities: frozenset[tuple[str, float]]  # (unit, value)
    years: frozenset[int]
    first_person: bool
    words: frozenset[str]  # the clause's words and their hyphen parts, as written (for opposite prefixes)


def disagree(a: Claim, b: Claim) -> bool:
    """Whether sentence `a` says the opposite of sentence `b` about the same thing (see the module docstring)."""
    # One document rarely contradicts itself; two documents about the same thing with opposite findings do.
    if a.document_id == b.document_id:
        return False
    return any(_opposed(s, t) for s in statements(a.text) for t in statements(b.text))


@lru_cache(maxsize=8192)
def statements(text: str) -> tuple[Statement, ...]:
    """The statements (one per clause) that `text` makes; a clause with no content terms makes none."""
    out = []
    for clause in _clauses(_tokens(text)):
        statement = _statement(clause)
        if statement.subject:
            out.append(statement)
    return tuple(out)


def _tokens(text: str) -> list[str]:
    if _HAN.search(text):
        return [t.strip().lower() for t in _segment(text) if t.strip()]
    return [t.lower() for t in _EN_TOKEN.findall(text)]


def _segment(text: str) -> list[str]:
    import jieba

    jieba.setLogLevel(logging.WARNING)  # it announces its dictionary load at INFO
    return jieba.lcut(text)


def _clauses(tokens: list[str]) -> list[list[str]]:
    clauses: list[list[str]] = [[]]
    for token in tokens:
        if token in _CLAUSE_END_PUNCTUATION or token in _CLAUSE_WORDS:
            clauses.append([])
        else:
            clauses[-1].append(token)
    return [c for c in clauses if c]


def _is_negation(tokens: list[str], i: int) -> bool:
    token = tokens[i]
    following = tokens[i + 1] if i + 1 < len(tokens) else ""
    if token in _NEGATIONS_EN or token.endswith(("n't", "n’t")):
        return not (token == "not" and following in _FOCUS_AFTER_NOT)
    if token in ("fail", "fails", "failed") and following == "to":
        return True
    if token in _NEGATIONS_ZH:
        return True
    # jieba sometimes keeps a negation glued to the verb it denies ("不增加", "未减少").
    return len(token) > 1 and token[0] in _NEGATION_CHARACTERS and _direction(token[1:]) != 0


def _direction(token: str) -> int:
    if _HAN.search(token):
        up, down = any(c in token for c in _UP_ZH), any(c in token for c in _DOWN_ZH)
    else:
        up, down = bool(_UP_EN.fullmatch(token)), bool(_DOWN_EN.fullmatch(token))
    return int(up) - int(down)


def _number(token: str) -> tuple[float, str] | None:
    """(value, unit-from-the-token) for a numeral: "12%", "3.5", "1,000", "二十五", "百分之三十"."""
    if token.startswith("百分之") and _CJK_NUMERAL.match(token[3:] or "x"):
        return _cjk_value(token[3:]), "%"
    if match := _NUMBER.match(token):
        digits = match[1].replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", match[1]) else match[1]
        try:
            return float(digits.replace(",", ".")), "%" if match[2] else ""
        except ValueError:
            return None
    if len(token) > 1 and _CJK_NUMERAL.match(token):  # a lone 一 is more often "a" than "one"
        return _cjk_value(token), ""
    return None


_CJK_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}
_CJK_SCALES = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}


def _cjk_value(numeral: str) -> float:
    total, section, digit = 0, 0, 0
    for c in numeral:
        if c in _CJK_DIGITS:
            digit = _CJK_DIGITS[c]
        elif c in ("万", "亿"):
            total += (section + digit) * _CJK_SCALES[c]
            section, digit = 0, 0
        else:  # 十 百 千: "十五" is 15
            section += (digit or 1) * _CJK_SCALES[c]
            digit = 0
    return float(total + section + digit)


def _unit(tokens: list[str], i: int) -> str:
    """The unit after a number: "%", the next word's term ("mg", "人", "patient"), or ""."""
    if i + 1 >= len(tokens):
        return ""
    following = tokens[i + 1]
    if following in _UNIT_ALIASES:
        return _UNIT_ALIASES[following]
    found = terms(following)
    return found[0] if found and not _number(following) else ""


def _statement(tokens: list[str]) -> Statement:
    subject: set[str] = set()
    scope: set[str] = set()
    quantities: set[tuple[str, float]] = set()
    years: set[int] = set()
    asserted: set[int] = set()
    denied: set[int] = set()
    negated = in_scope = False
    first_person = False
    head = ""
    for i, token in enumerate(tokens):
        if token in _PHRASE_END:
            in_scope = False
            continue
        if token in _FIRST_PERSON:
            first_person = True
        if _is_negation(tokens, i):
            negated = in_scope = True
            if (glued := _direction(token[1:])) and _HAN.search(token):
                denied.add(glued)
            continue
        if direction := _direction(token):
            (denied if in_scope else asserted).add(direction)
            continue
        if (number := _number(token)) is not None:
            value, unit = number
            before = [t for t in tokens[:i] if t != "."]
            if before and before[-1] in _LABEL_BEFORE:
                continue
            unit = unit or _unit(tokens, i)
            if unit in ("年", "", "year") and value.is_integer() and 1800 <= value <= 2100:
                years.add(int(value))  # "in 2017", "2017年": when, not how much
            else:
                quantities.add((unit, value))
            continue
        found = _subject_terms(token)
        subject.update(found)
        if in_scope:
            head = head or (found[0] if found else "")
            scope.update(found)
    return Statement(
        frozenset(subject),
        _one(asserted),
        _one(denied),
        negated,
        frozenset(scope),
        head,
        frozenset(quantities),
        frozenset(years),
        first_person,
        frozenset(part for token in tokens for part in (token, *token.split("-"))),
    )


def _one(directions: set[int]) -> int:
    """The clause's direction; none when it names both ("inhibiting HDAC6 increases survival": which change is
    the finding is not a matter of words alone)."""
    return directions.pop() if len(directions) == 1 else 0


def _subject_terms(token: str) -> list[str]:
    """A Chinese word is a term as jieba cut it (bigrams would count a long place name five times over, and a
    lone character is a function word: 的, 了, 在); other words are the analyzer's stems."""
    if _HAN.search(token):
        return [token] if len(token) > 1 else []
    return terms(token)


def _shared(s: Statement, t: Statement) -> tuple[float, float]:
    """The shared subject terms as a share of the smaller and of the larger subject."""
    shared = len(s.subject & t.subject)
    if shared < MIN_SHARED:
        return 0.0, 0.0
    return shared / min(len(s.subject), len(t.subject)), shared / max(len(s.subject), len(t.subject))


def _opposed(s: Statement, t: Statement) -> bool:
    if s.years and t.years and not s.years & t.years:
        return False  # the same measure at different times is a change, not a disagreement
    of_smaller, of_larger = _shared(s, t)
    if of_smaller < SUBJECT_OF_SMALLER or of_larger < SUBJECT_OF_LARGER:
        return False
    if s.asserted * t.asserted < 0:
        return True  # "increased" against "decreased"
    if s.negated == t.negated and (_opposite_words(s, t) or _opposite_words(t, s)):
        return True  # "UCP1-dependent" against "UCP1-independent", "accurate" against "inaccurate"
    for a, b in ((s, t), (t, s)):
        if a.denied and a.denied == b.asserted and not b.denied:
            return True  # "did not reduce" against "reduced"
        if a.negated and not a.denied and not b.negated and a.scope and _denies(a, b):
            return True
    return _different_values(s, t) and of_larger >= QUANTITY_OF_LARGER


# A prefix that makes a word its opposite ("independent", "ineffective", "unstable", "non-invasive"); the rest must
# be a word of its own in the other statement and long enough not to be a chance ending ("in" + "crease").
_OPPOSITE_PREFIXES = ("un", "in", "im", "ir", "il", "non", "non-")
_OPPOSITE_MIN_REST = 5


def _opposite_words(s: Statement, t: Statement) -> bool:
    """`s` says "independent" where `t` says "dependent", and neither says both ("from unstable to stable")."""
    for word in s.words - t.words:
        for prefix in _OPPOSITE_PREFIXES:
            rest = word[len(prefix) :]
            if word.startswith(prefix) and len(rest) >= _OPPOSITE_MIN_REST and rest in t.words - s.words:
                return True
    return False


def _null_finding(scope: frozenset[str]) -> bool:
    return bool(scope & _NULL_FINDING) or any(w in t for t in scope for w in _NULL_FINDING_ZH)


def _denies(a: Statement, b: Statement) -> bool:
    """Whether negated statement `a` (no direction of its own) denies what `b` says.

    A null finding denies a change in what else its clause names ("no significant difference in body weight" against
    "increased body weight"). Any other negation denies a predicate: what it is about must be in `b`, with most
    of the negated phrase ("is not associated with Y" against "is associated with Y"; "not native to the
    Americas" does not deny "native to Africa", nor "the Asiatic lion survives in Gir")."""
    if _null_finding(a.scope):
        # What it is about may stand before the negation too (血压没有显著差异): the whole clause names it.
        named = {t for t in a.subject if t not in _NULL_FINDING and not any(w in t for w in _NULL_FINDING_ZH)}
        return bool(b.asserted) and bool(named & b.subject)
    return a.head in b.subject and len(a.scope & b.subject) / len(a.scope) >= PREDICATE_FOUND


def _different_values(s: Statement, t: Statement) -> bool:
    """The same unit, and no value of one is a value of the other."""
    if s.first_person and t.first_person:
        return False  # each paper's "we enrolled 120" is about its own study
    labels_s, labels_t = {x for x in s.subject if x.isdigit()}, {x for x in t.subject if x.isdigit()}
    if labels_s and labels_t and not labels_s & labels_t:
        return False  # numbers that name the measure differ: "30-day" and "90-day" mortality are two measures
    units = {u for u, _ in s.quantities} & {u for u, _ in t.quantities}
    for unit in units:
        ours = [v for u, v in s.quantities if u == unit]
        theirs = [v for u, v in t.quantities if u == unit]
        if not any(_same_value(a, b) for a in ours for b in theirs):
            return True
    return False


def _same_value(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_VALUE * max(abs(a), abs(b), 1e-9)
