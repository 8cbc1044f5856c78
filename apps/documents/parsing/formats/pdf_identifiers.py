"""Publication year, journal and arXiv id as printed on a paper's first page (offline metadata, no lookups)."""

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


# A running citation line ("Trials 2014, 15:511", "Metabolites 2014, 4, 932-…", "F1000Research 2014, 3:190") or a
# journal line followed by its volume ("Gastroenterology Research and Practice / Volume 2016").
_JOURNAL_PATTERNS = [
    re.compile(r"^\s*([A-Z][A-Za-z0-9&.,'\- ]{2,80}?)\s+(?:19|20)\d{2}\s*[,;:]\s*\d+", re.MULTILINE),
    re.compile(r"^\s*([A-Z][A-Za-z&'\- ]{2,80}?)\s*\n?\s*Volume\s+\d+", re.MULTILINE),
]
_AUTHOR_PREFIX = re.compile(r"^.*?\bet al\.\s+")  # BMC's running header: "Chiarotto et al. Trials 2014, 15:511"


def first_page_journal(text: str) -> str | None:
    for pattern in _JOURNAL_PATTERNS:
        if match := pattern.search(text):
            name = _AUTHOR_PREFIX.sub("", match.group(1)).strip(" ,.")
            if re.search(r"[A-Za-z]{3}", name) and not re.search(r"\b(?:19|20)\d{2}\b", name):
                return name
    return None
