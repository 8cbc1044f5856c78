"""The citation object (design.md, "A citation, as every surface sees it"): built in one place, from a search hit,
and serialised the same way for the page, the API, the SSE stream, the CLI and MCP."""

from __future__ import annotations

import hashlib
from copy import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from apps.documents.parsing.passage_text import sentences, without_heading, without_label
from apps.retrieval.keyword.analyzer import query_terms, terms
from apps.retrieval.search.hits import CONTENT_CHARS
from apps.retrieval.search.types import ChunkSource, SearchHit

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass
class Citation(ChunkSource):
    n: int  # display number in its answer, 1.. in order of first use
    citation_id: str
    quote: str  # the sentence(s) of the chunk that support the claim
    citations_out: list[dict] = field(default_factory=list)  # deep answers: the evidence's own references

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


# A quote holds the whole sentence it backs: as long as the longest sentence an extractive answer takes (600),
# twice the card's `content` excerpt (CONTENT_CHARS), so a card never cuts the very words the answer repeats.
QUOTE_CHARS = 2 * CONTENT_CHARS


def best_quote(chunk_text: str, target: str, max_chars: int = QUOTE_CHARS) -> str:
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
    """The citation numbered `n` for a search hit, quoting `quote` (one of the chunk's sentences).

    Ingest sets a page only where the source has pages (PDF), so a card shows one only when it is real."""
    shared = {f.name: copy(getattr(hit, f.name)) for f in fields(ChunkSource)}
    # The chunk's own heading, glued to its first sentence, is not quoted.
    quote = without_label(without_heading(quote, hit.section, hit.heading_path))
    return Citation(
        **shared,
        n=n,
        citation_id=citation_id(hit.document_id, hit.chunk_id, occurrence),
        quote=quote,
        citations_out=list(hit.citations_out),
    )
