"""What every reranker offers the search service, and the one exception it may raise."""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable


class RerankUnavailable(Exception):
    """Reranking failed or cannot run; `reason` is short and readable, for the search diagnostics."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Reranker(ABC):
    """Scores (query, text) pairs. `scores` raises nothing but RerankUnavailable, so the caller can fall back."""

    name: str = ""
    configured: bool = True

    @abstractmethod
    def available(self) -> tuple[bool, str]:
        """(usable right now, and when not, a short reason). Cheap: never loads a model or scores anything."""

    @abstractmethod
    def scores(self, query: str, texts: list[str]) -> list[float]:
        """One relevance score per text, in the order given (higher = more relevant)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class NoReranker(Reranker):
    """The reranker of a portal with none configured: never available."""

    name = "none"
    configured = False

    def available(self) -> tuple[bool, str]:
        return False, "no reranker configured"

    def scores(self, query: str, texts: list[str]) -> list[float]:
        raise RerankUnavailable("no reranker configured")


def checked_scores(values: Iterable[object], expected: int, source: str) -> list[float]:
    """`values` as floats, or RerankUnavailable if one is not a finite number or the count is not `expected`."""
    out: list[float] = []
    for value in values:
        # numbers.Real covers numpy's scalars; bool is an int subclass, and a JSON true is no score.
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise RerankUnavailable(f"{source} gave a score that is not a number: {value!r:.40}")
        number = float(value)
        if not math.isfinite(number):
            raise RerankUnavailable(f"{source} gave a non-finite score: {number}")
        out.append(number)
    if len(out) != expected:
        raise RerankUnavailable(f"{source} gave {len(out)} scores for {expected} texts")
    return out
