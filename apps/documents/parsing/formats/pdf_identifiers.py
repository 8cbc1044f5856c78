"""Publication year and arXiv id as printed on a paper's first page (offline metadata, no lookups)."""

from __future__ import annotations

import re

_YEAR = r"((?:19|20)\d{2})"
# Most reliable first: the publication date, then the copyright line, then acceptance and receipt.
_YEAR_PATTERNS = [
    re.compile(r"Published(?:\s+online)?\s*:?\s*(?:\d{1,2}\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2},?\s+)?" + _YEAR),
    re.compile(r"(?:©|\(c\)|Copyright\s*(?:©)?)\s*" + _YEAR, re.IGNORECASE),
    re.compile(r"Accepted\s*:?\s*(?:\d{1,2}\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2},?\s+)?" + _YEAR),
    re.compile(r"Received\s*:?\s*(?:\d{1,2}\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2},?\s+)?" + _YEAR),
]
_ARXIV = re.compile(r"\barXiv:\s*(\d{4}\.\d{4,5})(v\d+)?", re.IGNORECASE)


def first_page_year(text: str) -> int | None:
    for pattern in _YEAR_PATTERNS:
        if match := pattern.search(text):
            return int(match.group(1))
    return None


def first_page_arxiv_id(text: str) -> str | None:
    match = _ARXIV.search(text)
    return match.group(1) if match else None
