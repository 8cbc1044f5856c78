"""Features of a statement's best evidence sentences, answerable against unanswerable (calibrate_gate --features).

For each SciFact claim the composer's own candidate sentences are read twice: from evidence that holds a relevant
abstract among its BM25 neighbours, and from the same neighbours without it (everything on the topic, nothing
that states the claim). Per case, the best value over its sentences of each feature:

- cov_cand: key-term coverage weighted by 1 + idf over the candidates (what the composer's gate uses);
- cov_coll: the same weighted by 1 + idf over the whole collection (BM25 statistics);
- distinct: the share of the claim's most distinctive key terms (highest collection idf, a third of them, at least
  two) that the sentence, the one before it or its title holds;
- cos: e5 cosine of the claim (query:) to the sentence (passage:), for the composer's EMBED_CANDIDATES lexical best
  (as the composer embeds them; the others 0). A chunk-level cosine was dropped: embedding whole abstracts cost
  ~50 s a claim on this loaded machine;
- anchors: the claim's names are found in the passage; rank: the evidence rank of the best sentence;
- stmt: apps.citations.answers.statements' own support score (what the gate thresholds).

The table gives each feature's AUC (answerable above unanswerable) and, for the answerable side, how often the
sentence that maximises it is in a relevant abstract. Sentences are embedded once (a dict by text).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable

FEATURES = ("cov_cand", "cov_coll", "distinct", "cos", "anchors", "stmt", "cov_coll_cos", "three")


class Cosines:
    """e5 cosines of one query to many texts, each text embedded once over the whole run."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder
        self.vectors: dict[str, object] = {}

    def __call__(self, query: str, texts: list[str]) -> list[float]:
        from apps.retrieval.search.service import query_vector

        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if missing:
            for text, vector in zip(missing, self.embedder.embed_passages(missing, batch_size=32), strict=True):
                self.vectors[text] = vector
        q = query_vector(self.embedder, query)
        return [float(self.vectors[t] @ q) for t in texts]


def case_features(composer, claim: str, docs, relevant: set[int], idf: Callable[[str], float], cosines) -> dict:
    """The best value of each feature over the composer's candidate sentences of `docs`, and whether the sentence
    that gives it is in a relevant document."""
    import gate_cases  # this folder is on sys.path (calibrate_gate.py puts it there)

    from apps.citations.answers import statements
    from apps.citations.answers.question import anchors_found, classify, key_coverage
    from apps.citations.answers.types import ComposeRequest

    q = classify(claim)
    evidence = gate_cases._evidence(docs)
    candidates = composer.candidates(ComposeRequest(claim, evidence, language=q.language))
    if not candidates:
        return {f: 0.0 for f in FEATURES} | {f"{f}_relevant": False for f in FEATURES} | {"rank": None, "sentences": []}
    from apps.citations.answers import similarity

    local = similarity.term_weights([c.text for c in candidates])
    collection = {t: 1.0 + idf(t) for t in q.key_terms}
    distinctive = statements.distinctive_terms(q, idf)
    from apps.citations.answers.extractive import EMBED_CANDIDATES

    # As the composer does: the lexical best are embedded, the others have no cosine.
    candidates.sort(key=lambda c: (-key_coverage(q, c.text, local, c.terms | c.title), c.rank, c.position))
    top = cosines(q.text, [c.text for c in candidates[:EMBED_CANDIDATES]])
    sentence_cos = top + [0.0] * (len(candidates) - len(top))
    support = statements.support_scores(q, candidates, idf, sentence_cos)
    rows = []
    for c, cos, stmt in zip(candidates, sentence_cos, support, strict=True):
        held = c.terms | c.title | c.context
        rows.append(
            {
                "cov_cand": key_coverage(q, c.text, local, c.terms | c.title),
                "cov_coll": key_coverage(q, c.text, collection, c.terms | c.title),
                "distinct": sum(t in held for t in distinctive) / max(1, len(distinctive)),
                "cos": cos,
                "anchors": float(anchors_found(q, c.passage)),
                "stmt": stmt,
                "relevant": c.document_id in relevant,
                "rank": c.rank,
            }
        )
    for r in rows:  # the support score's alternatives: collection-idf coverage in place of (or beside) distinct
        cos_r = similarity.rescale_cosine(r["cos"])
        r["cov_coll_cos"] = 0.5 * r["cov_coll"] + 0.5 * cos_r
        r["three"] = (r["cov_coll"] + r["distinct"] + cos_r) / 3
    out: dict = {"sentences": rows}
    for f in FEATURES:
        best = max(rows, key=lambda r: (r[f], -r["rank"]))
        out[f] = best[f]
        out[f"{f}_relevant"] = best["relevant"]
    out["rank"] = max(rows, key=lambda r: r["stmt"])["rank"]
    return out


def auc(positives: list[float], negatives: list[float]) -> float:
    """P(answerable value > unanswerable value), ties half."""
    if not positives or not negatives:
        return math.nan
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def table(answerable: list[dict], unanswerable: list[dict]) -> list[dict]:
    out = []
    for f in FEATURES:
        pos = [r[f] for r in answerable]
        neg = [r[f] for r in unanswerable]
        out.append(
            {
                "feature": f,
                "auc": round(auc(pos, neg), 3),
                "median_answerable": round(statistics.median(pos), 3),
                "median_unanswerable": round(statistics.median(neg), 3),
                "argmax_relevant": round(sum(r[f"{f}_relevant"] for r in answerable) / len(answerable), 3),
            }
        )
    return out


def sweep(answerable: list[dict], unanswerable: list[dict], feature: str, grid: list[float]) -> list[dict]:
    """For each threshold: answered (answerable), answered with a relevant best sentence, abstained (unanswerable)."""
    out = []
    for t in grid:
        answered = [r for r in answerable if r[feature] >= t]
        out.append(
            {
                "threshold": t,
                "answered": round(len(answered) / len(answerable), 3),
                "answered_relevant": round(sum(r[f"{feature}_relevant"] for r in answered) / len(answerable), 3),
                "abstained": round(sum(r[feature] < t for r in unanswerable) / len(unanswerable), 3),
            }
        )
    return out
