"""How close two short texts are: shared terms (the BM25 analyzer's, so stems and Chinese bigrams count) and the
embedding model's cosine. Used to pick evidence sentences and to check that an answer sentence is supported."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from apps.retrieval.keyword.analyzer import query_terms
from apps.retrieval.search.service import query_vector

# multilingual-e5-small puts unrelated texts at cosine ~0.75 and paraphrases above ~0.9 (its scores are
# compressed into the top of the range), so 0.75–0.95 is spread over 0–1.
_COS_FLOOR, _COS_SPAN = 0.75, 0.20


def content_terms(text: str) -> set[str]:
    return set(query_terms(text))


# Chinese question words carry no content, and bigrams built across them ("吃什" of "吃什么") match nothing.
_CJK_QUESTION_CHARACTERS = set("什么哪吗呢怎")


def question_terms(question: str) -> set[str]:
    return {t for t in content_terms(question) if not (_CJK_QUESTION_CHARACTERS & set(t))}


def term_weights(texts: Sequence[str]) -> dict[str, float]:
    """1 + idf over `texts`: a term every candidate shares tells them apart less than a rare one."""
    df: dict[str, int] = {}
    for text in texts:
        for term in content_terms(text):
            df[term] = df.get(term, 0) + 1
    n = max(len(texts), 1)
    return {term: 1.0 + math.log(1.0 + (n - count + 0.5) / (count + 0.5)) for term, count in df.items()}


def absent_weight(n: int) -> float:
    """The weight term_weights() would give a term that none of `n` texts holds (the largest it gives)."""
    return 1.0 + math.log(1.0 + (max(n, 1) + 0.5) / 0.5)


def coverage(wanted: set[str], found: set[str], weights: dict[str, float] | None = None) -> float:
    """The weighted share of `wanted` terms present in `found` (0 when nothing is wanted)."""
    if not wanted:
        return 0.0
    weight = (lambda t: weights.get(t, 1.0)) if weights else (lambda t: 1.0)
    total = sum(weight(t) for t in wanted)
    return sum(weight(t) for t in wanted & found) / total


def rescale_cosine(cosine: float) -> float:
    return min(1.0, max(0.0, (cosine - _COS_FLOOR) / _COS_SPAN))


def question_cosines(embedder, question: str, passages: Sequence[str]) -> list[float] | None:
    """Cosine of the question (as a query) to each passage; None without a model."""
    if embedder is None or not passages:
        return None
    query = query_vector(embedder, question)
    vectors = embedder.embed_passages(list(passages), batch_size=32)
    return [float(v) for v in vectors @ query]


def pair_cosines(embedder, pairs: Sequence[tuple[str, str]]) -> list[float] | None:
    """Cosine of each (a, b) pair, both embedded the same way (a symmetric comparison); None without a model."""
    if embedder is None or not pairs:
        return None
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    vectors = embedder.embed_passages(texts, batch_size=32)
    index = {text: i for i, text in enumerate(texts)}
    return [float(np.dot(vectors[index[a]], vectors[index[b]])) for a, b in pairs]
