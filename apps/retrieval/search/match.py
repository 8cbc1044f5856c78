"""How well the best passages match the query's key terms: the weak-match signal of search.

The measure is the share of the query's key-term weight (each analysed query term weighted by its idf, so
"the"-like terms count little and rare ones much) that the best of the returned passages contains. A query none
of whose rare terms occurs in any returned passage ("xyzzyplugh", an English question over a Chinese library)
scores near 0; a question the library answers scores near 1. Below WEAK_MATCH_BELOW the page and the API say
that no passage matches the query's key terms well. The threshold was chosen on half of the SciFact and CMRC
queries against nonsense and out-of-domain queries and checked on the other half (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from apps.retrieval.keyword import analyzer

# Measured (docs/benchmarks.md, "Weak matches"): chosen on the calibration half, checked on the held-out half.
WEAK_MATCH_BELOW = 0.167


def key_term_coverage(query: str, idf: dict[str, float], texts: Iterable[str]) -> float | None:
    """The largest idf-weighted share of the query's terms found in one of `texts`, 0..1; None: no terms.

    A term no passage of the scope holds (idf 0 there) weighs as much as the rarest known term: it is at least as
    rare, and a query made only of such terms weighs each term alike."""
    terms = analyzer.query_terms(query)
    if not terms:
        return None
    known = [idf.get(term, 0.0) for term in terms]
    unseen = max(known) if any(known) else 1.0
    weights = {term: (weight or unseen) for term, weight in zip(terms, known, strict=True)}
    total = sum(weights.values())
    best = 0.0
    for text in texts:
        present = set(analyzer.terms(text))
        best = max(best, sum(weight for term, weight in weights.items() if term in present) / total)
    return round(best, 4)


def is_weak(coverage: float | None) -> bool:
    """True when no passage matches the query's key terms well (none returned is weak too; no terms: unknown)."""
    return coverage is not None and coverage < WEAK_MATCH_BELOW
