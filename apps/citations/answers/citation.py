"""The citation object (design.md, "A citation, as every surface sees it"): built in one place, from a search hit,
and serialised the same way for the page, the API, the SSE stream, the CLI and MCP."""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from apps.retrieval.keyword.analyzer import query_terms, terms
from apps.retrieval.search.types import SearchHit

CONTENT_CHARS = 300
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
# Sentence ends in English and Chinese; a full stop must be followed by space or the end (not "e.g.5" or "3.5").
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^\s])|(?<=[。！？；])")


@dataclass
class Citation:
    n: int
    citation_id: str
    chunk_id: int
    chunk_index: int
    document_id: int
    collection: str
    title: str
    authors: list[str]
    year: int | None
    journal: str
    doi: str
    source: str
    doc_type: str
    section: str
    heading_path: list[str]
    quote: str
    content: str
    chunk_type: str
    locator_precision: str
    locator_degraded: bool
    page: int | None
    page_end: int | None
    rects: list[dict]
    page_size: dict
    para_start: int | None
    para_end: int | None
    score: float
    score_source: str
    viewer_url: str
    citations_out: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def citation_id(document_id: int, chunk_id: int, occurrence: int = 0) -> str:
    """Six base-36 characters from a hash of document, chunk and occurrence: short, stable within an answer."""
    value = int.from_bytes(hashlib.sha256(f"{document_id}:{chunk_id}:{occurrence}".encode()).digest()[:8], "big")
    chars = []
    for _ in range(6):
        value, digit = divmod(value, 36)
        chars.append(_BASE36[digit])
    return "".join(chars)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


def best_quote(chunk_text: str, target: str, max_chars: int = CONTENT_CHARS) -> str:
    """The sentence of the chunk that shares the most terms with `target` (a claim or the question), extended by
    its best neighbour while it fits; the start of the chunk when nothing is shared."""
    parts = sentences(chunk_text)
    if not parts:
        return ""
    wanted = set(query_terms(target))
    overlap = [len(wanted & set(terms(part))) for part in parts]
    best = max(range(len(parts)), key=lambda i: (overlap[i], -i))
    if overlap[best] == 0:
        best = 0
    quote = parts[best]
    neighbours = sorted((i for i in (best - 1, best + 1) if 0 <= i < len(parts)), key=lambda i: -overlap[i])
    for i in neighbours:
        if overlap[i] and len(quote) + 1 + len(parts[i]) <= max_chars:
            quote = f"{parts[i]} {quote}" if i < best else f"{quote} {parts[i]}"
            break
    return quote if len(quote) <= max_chars else quote[: max_chars - 1].rstrip() + "…"


def from_hit(hit: SearchHit, n: int, quote: str, occurrence: int = 0) -> Citation:
    """The citation numbered `n` for a search hit, quoting `quote` (one of the chunk's sentences)."""
    return Citation(
        n=n,
        citation_id=citation_id(hit.document_id, hit.chunk_id, occurrence),
        chunk_id=hit.chunk_id,
        chunk_index=hit.chunk_index,
        document_id=hit.document_id,
        collection=hit.collection,
        title=hit.title,
        authors=list(hit.authors),
        year=hit.year,
        journal=hit.journal,
        doi=hit.doi,
        source=hit.source,
        doc_type=hit.doc_type,
        section=hit.section,
        heading_path=list(hit.heading_path),
        quote=quote,
        content=hit.text[:CONTENT_CHARS],
        chunk_type=hit.chunk_type,
        locator_precision=hit.locator_precision,
        locator_degraded=hit.locator_degraded,
        # Ingest sets a page only where the source has pages (PDF), so a card shows one only when it is real.
        page=hit.page,
        page_end=hit.page_end,
        rects=list(hit.rects),
        page_size=dict(hit.page_size),
        para_start=hit.para_start,
        para_end=hit.para_end,
        score=hit.score,
        score_source=hit.score_source,
        viewer_url=hit.viewer_url,
        citations_out=list(hit.citations_out),
    )
