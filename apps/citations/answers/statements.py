"""Whether the evidence states a statement: the answer gate for claims to check (issue 15).

A statement ("0-dimensional biomaterials lack inductive properties.", "吸烟会增加患肺癌的风险。") asks for no item
of a kind, so the factoid gate (a number for "how many" …) says nothing about it, and key-term coverage alone
cannot tell the abstract that states the claim from its on-topic neighbours: they share the topic's words
("biomaterials", "properties") and differ in the few that make the claim this claim. So a sentence supports a
statement when it holds the claim's most *distinctive* terms — its key terms rarest in the whole collection (BM25
statistics, not only these candidates: among five abstracts on one topic a topic word looks rare) — and the
embedding model puts it close to the claim. The best such sentence must reach SUPPORT_FLOOR, or the composer
abstains; the sentences that reach it are ranked by that support, so the first claim is the one stating it.

Calibrated on SciFact TUNE claims (bench/answers/calibrate_gate.py --features; the numbers are beside the
constants). Factoid, list, how/why and definition questions, and questions in question form, never come here.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections.abc import Callable, Sequence

from apps.citations.answers import similarity
from apps.citations.answers.question import Question, key_coverage
from apps.documents.models import Collection
from apps.retrieval.keyword import store

log = logging.getLogger(__name__)

# The claim's distinctive terms: its key terms of highest collection idf, a third of them and at least two.
DISTINCTIVE_SHARE = 1 / 3
DISTINCTIVE_MIN = 2
# support = 0.4 · key-term coverage weighted by 1 + collection idf + 0.2 · share of the distinctive terms held
#         + 0.4 · rescaled e5 cosine (similarity.rescale_cosine) of the claim to the sentence.
# SciFact TUNE, 60 train claims (calibrate_gate.py --features --limit 60), AUC of the best sentence's value,
# answerable against unanswerable: coverage with candidate idf 0.63, with collection idf 0.79, distinctive share
# 0.76, cosine 0.73, anchors 0.50, this combination 0.80 (0.5 coverage + 0.5 cosine: 0.78).
SUPPORT_WEIGHTS = (0.4, 0.2, 0.4)
# Floor on the best sentence's support, calibrated on whole asks through the portal (evaluate.py
# --scifact-per-split 60 --scifact-docs 1500, bench/answers/calibrate_floor.py; deep; answered / first claim cites
# a relevant abstract / unanswerable abstained, TUNE's 60 train claims): 0.62 → 55% / 33% / 68%; 0.64 → 52% / 32% /
# 72%; 0.66 → 48% / 30% / 77%; 0.68 → 43% / 27% / 80%; 0.70 → 37% / 27% / 87%. 0.68, the lowest reaching the goal's
# 80% on TUNE (HELD-OUT's 60 test claims: 35% / 28% / 92%, against 47% / 35% / 82% at 0.62). The composer-only loop
# (calibrate_gate.py) had put it at 0.62: its candidates are not the portal's chunked evidence.
SUPPORT_FLOOR = 0.68

# A request or a question, not a statement: a question mark, a question word (CMRC's questions often end without
# "？": "…的作者是谁"), or an opening that asks ("tell me", "请介绍").
_ASKS = re.compile(
    # English question words only where a question puts them ("…, which …" is a declarative's relative clause).
    r"[?？]|^\s*(?:what|which|who|whom|whose|when|where|why|how)\b|什么|哪|谁|多少|几(?!乎)|怎么|怎样|如何|为什么|为何|是否|吗|呢"
    r"|^\s*(?:please\s+)?(?:tell|explain|describe|summari[sz]e|show|give|list|name|find|compare)\b"
    r"|^\s*(?:请|告诉我|介绍|说明|解释|列出|比较)",
    re.I,
)
STATEMENT_KINDS = frozenset({"other", "yesno"})

IdfLookup = Callable[[str], float]


def is_statement(question: Question) -> bool:
    """A declarative claim: no kind of item is asked for, and it is not put as a question or a request."""
    text = unicodedata.normalize("NFKC", question.text)
    return question.kind in STATEMENT_KINDS and bool(question.key_terms) and not _ASKS.search(text)


def distinctive_terms(question: Question, idf: IdfLookup) -> list[str]:
    """The claim's key terms rarest in the collection (ties by the term, so the choice is stable)."""
    ranked = sorted(question.key_terms, key=lambda t: (-idf(t), t))
    n = max(DISTINCTIVE_MIN, round(len(ranked) * DISTINCTIVE_SHARE))
    return ranked[:n]


def _held(term: str, terms: set[str], text: str) -> bool:
    # A one-character Chinese key term is looked for in the text: the analyzer gives Chinese only as bigrams.
    return term in terms or (len(term) == 1 and not term.isascii() and term in text)


def support_parts(
    question: Question, distinctive: Sequence[str], candidate, rescaled_cosine: float, idf: IdfLookup
) -> tuple[float, float, float]:
    """The three measures support() weighs: the candidate's coverage of the claim's key terms weighted by their
    collection idf, its share of the distinctive ones (found in the sentence, the one before it or its document's
    title: a claim's subject is often named only there), and its rescaled cosine."""
    weights = {t: 1.0 + idf(t) for t in question.key_terms}
    coverage = key_coverage(question, candidate.text, weights, candidate.terms | candidate.title)
    held = candidate.terms | candidate.context | candidate.title
    text = unicodedata.normalize("NFKC", candidate.text).casefold()
    share = sum(_held(t, held, text) for t in distinctive) / max(1, len(distinctive))
    return coverage, share, rescaled_cosine


def support(question: Question, distinctive: Sequence[str], candidate, rescaled_cosine: float, idf: IdfLookup) -> float:
    """How well one candidate sentence states the claim (0–1): support_parts() weighed by SUPPORT_WEIGHTS."""
    return _weighed(support_parts(question, distinctive, candidate, rescaled_cosine, idf))


def _weighed(parts: tuple[float, float, float]) -> float:
    return sum(w * v for w, v in zip(SUPPORT_WEIGHTS, parts, strict=True))


def support_scores(question: Question, candidates: Sequence, idf: IdfLookup, cosines: Sequence[float]) -> list[float]:
    """support() of each candidate, given raw cosines (calibration)."""
    distinctive = distinctive_terms(question, idf)
    return [
        support(question, distinctive, c, similarity.rescale_cosine(cos), idf)
        for c, cos in zip(candidates, cosines, strict=True)
    ]


def gate(question: Question, ranked: list, idf: IdfLookup | None) -> list:
    """Mark which candidates state the claim (`answers`) and rank those first by their support, which becomes
    their score; the others keep theirs. `ranked` must have been scored (extractive.score: `similarity` is the
    rescaled cosine, 0 for a sentence not embedded). Without collection statistics the candidates' own idf is
    used; without the embedding model nothing changes."""
    if not any(c.similarity for c in ranked):
        return ranked  # no embedding model: the cosine is half of the support, so the composer's own gate stays
    if idf is None:
        local = similarity.term_weights([c.text for c in ranked])
        idf = lambda term: local.get(term, similarity.absent_weight(len(ranked))) - 1.0  # noqa: E731
    distinctive = distinctive_terms(question, idf)
    best_of_document: dict[int, tuple[float, tuple[float, float, float]]] = {}
    for c in ranked:
        parts = support_parts(question, distinctive, c, c.similarity, idf)
        value = _weighed(parts)
        c.answers = value >= SUPPORT_FLOOR
        if c.answers:
            c.score = value
        if value > best_of_document.get(c.document_id, (-1.0,))[0]:
            best_of_document[c.document_id] = (value, parts)
    # For calibration on whole asks (bench/answers/evaluate.py records it): each document's best sentence.
    log.debug(
        "statement gate: best support %.3f",
        max((v for v, _ in best_of_document.values()), default=0.0),
        extra={"statement_support": {d: parts for d, (_, parts) in best_of_document.items()}},
    )
    ranked.sort(key=lambda c: (not c.answers, -c.score, c.rank, c.position))
    return ranked


def collection_idf(evidence: Sequence) -> IdfLookup | None:
    """idf over the evidence's collections (their BM25 indexes, the largest value when several), or None when they
    cannot be read (no database: a calibration script, a unit test)."""
    slugs = sorted({e.hit.collection for e in evidence})
    try:
        entries = [store.current_index(c.id, c.index_version) for c in Collection.objects.filter(slug__in=slugs)]
    except Exception:  # no database here, or the index cannot be loaded: the candidates' own idf instead
        log.debug("collection statistics unavailable for the statement gate", exc_info=True)
        return None
    if not entries:
        return None
    cache: dict[str, float] = {}

    def idf(term: str) -> float:
        if term not in cache:
            values = []
            for entry in entries:
                with entry.lock:  # another thread may be applying changes to the index
                    # A term no document holds is the rarest there is (BM25's idf at df 0).
                    values.append(entry.index.idf(term) or math.log(1.0 + (len(entry.index) + 0.5) / 0.5))
            cache[term] = max(values)
        return cache[term]

    return idf
