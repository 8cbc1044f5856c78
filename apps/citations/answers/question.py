"""What a question asks for: `classify()` reads its language, kind and key terms.

The kind (a number, a date, a person, a place, an organisation; a list; a definition; how or why; yes or no;
anything else) comes from its question words, in Chinese and English (answers.question_cues); its key terms are the
content terms an answering sentence must share, its anchors what it names. The rest of the question work lives
beside it and is imported from here as before:

- answers.question_cues: the kinds and the question words that tell them;
- answers.question_items: the items of a kind a sentence holds (jieba's tags for Chinese, shapes for English);
- answers.question_gate: `can_answer()`, the composer's per-sentence gate, with the key-term coverage, the
  anchors and the question's own items;
- answers.zh_tags: jieba, loaded once and shared by every thread.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from apps.citations.answers.language import detect
from apps.citations.answers.question_cues import (
    COMPOUND,
    EN_ANAPHORA,
    EN_QUESTION_WORDS,
    EXPLAIN_KINDS,
    FACTOID_KINDS,
    KIND_NOUNS,
    KINDS,
    ZH_ANAPHORA,
    ZH_COPULAS,
    ZH_QUESTION_WORDS,
    counted_unit,
    is_function_flag,
    kind_and_rest,
)
from apps.citations.answers.question_gate import (
    KEY_COVERAGE,
    STATEMENT_KINDS,
    anchors_found,
    can_answer,
    key_coverage,
    new_items,
)
from apps.citations.answers.question_items import en_name_runs, holds_kind, items
from apps.citations.answers.question_measures import measure_of
from apps.citations.answers.zh_tags import tagged
from apps.retrieval.keyword.analyzer import query_terms

# Every name other modules import from here (service, extractive, attach, statements, the bench scripts, tests).
__all__ = [
    "EXPLAIN_KINDS",
    "FACTOID_KINDS",
    "KEY_COVERAGE",
    "KINDS",
    "Question",
    "anchors_found",
    "anchors_of",
    "can_answer",
    "classify",
    "holds_kind",
    "items",
    "key_coverage",
    "key_terms_of",
    "new_items",
]


@dataclass(frozen=True)
class Question:
    text: str
    language: str  # "zh" | "en" (answers.language.detect)
    kind: str  # one of KINDS
    key_terms: frozenset[str]  # content terms an answering sentence must share (analyzer terms, question words out)
    # The names, numbers and titles the question is about ("九龙巴士86线", "Aceh", "2004"): an answering sentence,
    # the sentence before it or its document's title must name every one (casefolded).
    anchors: frozenset[str] = frozenset()
    # What a "how many" question counts ("种" of "多少种", "等级" of "几个等级"): the number that answers it is
    # written with that unit ("约有30,000种"), a number of another thing in the same passage is not ("11个目").
    unit: str = ""
    # The dimension a "how long / how heavy" question measures (question_measures): then an answering sentence
    # writes a quantity of it, not any number.
    measure: str = ""
    # Chinese key terms that are bigrams across two of jieba's words ("文模" of 论文|模板): a name jieba split needs
    # them ("梦野久作" → 梦 / 野久 / 作), but most are noise, which evidence that holds none of them can ignore.
    joins: frozenset[str] = frozenset()

    @property
    def factoid(self) -> bool:
        return self.kind in FACTOID_KINDS


def _zh_key_terms(text: str) -> tuple[set[str], set[str]]:
    """Bigrams of the question's content runs, and those of them that no single one of jieba's words holds whole
    (Question.joins), from one tagging: jieba marks the function words (particles, prepositions, pronouns …),
    which are cut out; what is left is bigrammed as the analyzer does, across jieba's own word boundaries, so a
    name jieba splits ("梦野久作" → 梦 / 野久 / 作) still yields its bigrams. (Measured on the CMRC TUNE split:
    one-character words as terms of their own matched too much by chance, and sharing a word's weight among its
    bigrams made a long name count too little: it is what tells the passage on the topic apart.)"""
    words = tagged(ZH_QUESTION_WORDS.sub("，", text))
    kept = ["，" if is_function_flag(flag) or word in ZH_COPULAS else word for word, flag in words]
    terms = set(query_terms("".join(kept)))
    joins = {term for term in terms if not any(term in word.casefold() for word, _ in words)}
    return terms, joins


def _en_key_terms(text: str) -> set[str]:
    return set(query_terms(EN_QUESTION_WORDS.sub(" ", text)))


def key_terms_of(text: str, language: str) -> set[str]:
    """The content terms of `text` once its question words are out."""
    return _zh_key_terms(text)[0] if language == "zh" else _en_key_terms(text)


# jieba's tags for names: person, place, organisation, other proper noun, transliteration, Latin-letter word.
_ZH_NAME_FLAGS = ("nr", "ns", "nt", "nz", "eng")
_TITLE = re.compile(r"《([^》]{1,40})》|“([^”]{1,40})”|\"([^\"]{1,40})\"")


def anchors_of(text: str, language: str, kind: str = "other") -> set[str]:
    """What the question names (see Question.anchors): quoted titles, numbers and codes (not for a statement's
    kinds), and names (jieba's name tags in Chinese; runs of capitalised words in English)."""
    found = {next(g for g in m.groups() if g) for m in _TITLE.finditer(text)}
    bare = _TITLE.sub("，", text)
    if kind not in STATEMENT_KINDS:
        # "86", "E23P", "11-87", "2004", "p53": numbers and codes, ASCII only (a Chinese word may follow unspaced)
        found |= {m.strip(".-") for m in re.findall(r"[A-Za-z]*\d[A-Za-z0-9.\-]*", bare)}
    if language == "zh":
        for word, flag in tagged(ZH_QUESTION_WORDS.sub("，", bare)):
            if flag.startswith(_ZH_NAME_FLAGS) and len(word) >= 2 and not re.search(r"\d", word):
                found.add(word)
    else:
        found |= set(en_name_runs(bare))
    return {a.casefold() for a in found if a.strip()}


def classify(question: str, history: Sequence[str] = ()) -> Question:
    """The question's language, kind and key terms. `history`: the earlier questions, oldest first; a follow-up that
    only points back ("what are they?") takes the previous question's subject, and its kind when it names none."""
    text = " ".join(unicodedata.normalize("NFKC", question).split())
    language = detect(text)
    kind, rest = kind_and_rest(text, language)
    if COMPOUND.search(text):
        # Two questions in one ("Where does X live, and what does Y release?"): no one kind fits both parts,
        # so it is answered as a general question from the sentences on either part.
        kind, rest = "other", ZH_QUESTION_WORDS.sub("，", EN_QUESTION_WORDS.sub(" ", text))
    if kind in KIND_NOUNS:
        rest = KIND_NOUNS[kind].sub(" ， ", rest)
    terms, joins = _zh_key_terms(rest) if language == "zh" else (_en_key_terms(rest), set())
    # A compound question's names belong to one part each: a passage on the other part need not name them.
    anchors = set() if COMPOUND.search(text) else anchors_of(rest, language, kind)
    anaphora = ZH_ANAPHORA if language == "zh" else EN_ANAPHORA
    if history and (len(terms) <= 1 or anaphora.search(text)) and (len(terms) <= 2):
        earlier = classify(history[-1], history[:-1])
        terms |= set(earlier.key_terms)
        anchors |= set(earlier.anchors)
        if kind in ("other", "definition") or (earlier.kind == "list" and kind == "yesno"):
            kind = earlier.kind
    unit = counted_unit(text) if kind == "number" and language == "zh" else ""
    measure = measure_of(text) if kind == "number" else ""
    return Question(
        text=text,
        language=language,
        kind=kind,
        key_terms=frozenset(terms),
        anchors=frozenset(anchors),
        unit=unit,
        measure=measure,
        joins=frozenset(joins),
    )
