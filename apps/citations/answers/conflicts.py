"""Whether two evidence sentences disagree, so that one is listed apart as a conflicting source.

Used by the extractive composer on the sentences it chose and the ones it passed over.
"""

from __future__ import annotations

import re
from typing import Protocol

CONFLICT_OVERLAP = 0.35


class Claim(Protocol):
    text: str
    terms: set[str]
    document_id: int


# Only plain negations: "absence of", "lack of", "without" describe conditions far more often than they deny.
_NEGATION = re.compile(r"\b(?:no|not|neither|nor|never|cannot|fail(?:ed|s)? to)\b|n't\b|不|没有|未", re.I)
_UP = re.compile(
    r"\b(?:increas\w*|higher|rais\w*|improv\w*|enhanc\w*|promot\w*|greater|elevat\w*)\b|增加|提高|升高", re.I
)
_DOWN = re.compile(
    r"\b(?:decreas\w*|lower|reduc\w*|worsen\w*|impair\w*|inhibit\w*|fewer|declin\w*)\b|减少|降低|下降", re.I
)


def _polarity(text: str) -> tuple[bool, int]:
    direction = (1 if _UP.search(text) else 0) - (1 if _DOWN.search(text) else 0)
    return len(_NEGATION.findall(text)) % 2 == 1, direction


def disagree(a: Claim, b: Claim) -> bool:
    # One document rarely contradicts itself; two documents about the same thing with opposite findings do.
    if a.document_id == b.document_id:
        return False
    shared = len(a.terms & b.terms) / max(1, min(len(a.terms), len(b.terms)))
    if shared < CONFLICT_OVERLAP:
        return False
    (neg_a, dir_a), (neg_b, dir_b) = _polarity(a.text), _polarity(b.text)
    return neg_a != neg_b or (dir_a * dir_b < 0)
