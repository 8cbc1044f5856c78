"""The composer's per-sentence gate: can one evidence sentence answer the question?

It can when it holds an item of the asked kind that the question does not itself name (a number for "how many",
a name for "who"), covers enough of the question's key terms (KEY_COVERAGE), and names what the question names
(its anchors: in the sentence, the sentence before it or its document's title). When no evidence sentence passes,
the documents do not answer the question.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from apps.citations.answers.language import detect
from apps.citations.answers.question_cues import FACTOID_KINDS
from apps.citations.answers.question_items import items
from apps.citations.answers.question_measures import measures
from apps.retrieval.keyword.analyzer import query_terms

if TYPE_CHECKING:
    from apps.citations.answers.question import Question

# The share of the question's key terms (weighted when weights are given) an answering sentence must hold.
# Calibrated on the TUNE splits (bench/answers/calibrate_gate.py); see docs/benchmarks.md.
KEY_COVERAGE = {"zh": 0.3, "en": 0.3}


# Statements (a claim to check) and yes/no questions assert their numbers ("10% of SIDS deaths …"): the evidence
# may well give another value, so only the names they mention are anchors. (SciFact TUNE: 28% of claims missed.)
STATEMENT_KINDS = frozenset({"other", "yesno"})


def anchors_found(question: Question, text: str) -> bool:
    """Every anchor of the question is named in `text` (a passage); for a statement one of them is enough: a claim
    names its matter several ways ("Bone Marrow (BM) transplantation", "acute myeloid leukemia (AML)")."""
    if not question.anchors:
        return True
    folded = unicodedata.normalize("NFKC", text).casefold()
    named = [anchor in folded for anchor in question.anchors]
    return any(named) if question.kind in STATEMENT_KINDS else all(named)


def _holds_term(term: str, sentence_terms: set[str], sentence_text: str) -> bool:
    # A Chinese key term of one character (a one-character word of the question) is found in the text itself:
    # the analyzer gives a sentence's Chinese only as bigrams.
    return term in sentence_terms or (len(term) == 1 and not term.isascii() and term in sentence_text)


def key_coverage(
    question: Question, sentence: str, weights: Mapping[str, float] | None = None, terms: Iterable[str] | None = None
) -> float:
    """The (weighted) share of the question's key terms the sentence holds; 0 when the question has none."""
    if not question.key_terms:
        return 0.0
    text = unicodedata.normalize("NFKC", sentence).casefold()
    found = set(terms) if terms is not None else set(query_terms(sentence))
    evidence = weights or {}

    def weight(term: str) -> float:
        return evidence.get(term, 1.0)

    total = sum(weight(t) for t in question.key_terms)
    return sum(weight(t) for t in question.key_terms if _holds_term(t, found, text)) / total


def new_items(question: Question, sentence: str) -> set[str]:
    """The sentence's items of the asked kind that the question does not itself name (a question about the 2019
    crash is not answered by a sentence whose only number is 2019). A question that names several items of its
    kind offers the answer's candidates ("in Africa or Asia?"): then those count too."""
    if question.measure:
        # "How long does it live?" is answered by a time ("11 years"), not by the weight beside it.
        asked, found = measures(question.text, question.measure), measures(sentence, question.measure)
    else:
        asked, found = (
            items(question.text, question.kind, question.language),
            items(sentence, question.kind, detect(sentence)),
        )
    if len(asked) >= 2:
        return found
    # Chinese is tagged per sentence, so compare by containment: "湖南省" in the question covers "湖南".
    return {i for i in found if not any(i in a or a in i for a in asked)}


def can_answer(
    question: Question,
    sentence: str,
    weights: Mapping[str, float] | None = None,
    min_coverage: float | None = None,
    context: str = "",
) -> bool:
    """The gate's per-sentence test: holds an item of the asked kind (not one the question names) AND covers
    enough key terms (KEY_COVERAGE of the language, or `min_coverage`) AND names what the question names (in the
    sentence or its `context`: the sentence before it, the document's title)."""
    threshold = KEY_COVERAGE.get(question.language, 0.5) if min_coverage is None else min_coverage
    if key_coverage(question, sentence, weights) < threshold:
        return False
    if not anchors_found(question, f"{context} {sentence}"):
        return False
    return question.kind not in FACTOID_KINDS or bool(new_items(question, sentence))
