"""The citation object (design.md, "A citation, as every surface sees it"): built in one place, from a search hit,
serialised the same way for the page, the API, the SSE stream, the CLI and MCP, stored with its answer in
`Message.result` and read back as the same type (`stored_citations`).

The stored shape is versioned: `result["version"]` is CITATION_VERSION for every answer written by this code, and
a data migration brings older answers to it (citations/migrations/0004_typed_citations.py), so reading needs no
compatibility defaults. A change to the fields is a new version and a migration.
"""

from __future__ import annotations

import hashlib
from copy import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, get_args

from apps.documents.parsing.passage_text import sentences, without_heading, without_label
from apps.retrieval.keyword.analyzer import query_terms, terms
from apps.retrieval.search.hits import CONTENT_CHARS
from apps.retrieval.search.types import ChunkSource, SearchHit

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

CITATION_VERSION = 2  # the stored shape of Citation; 1: answers stored before the field list was fixed
Status = Literal["current", "moved", "changed", "deleted"]  # answers.store.with_status
STATUSES: tuple[str, ...] = get_args(Status)  # the same, as choices (serializers, the API schema's enum)


@dataclass
class Citation(ChunkSource):
    n: int  # display number in its answer, 1.. in order of first use
    citation_id: str
    quote: str  # the sentence(s) of the chunk that support the claim
    evidence_number: int  # the passage's rank among the evidence retrieved (what the composer wrote as [n])
    chunk_hash: str  # of the chunk text quoted: answers.store finds the passage again after a re-read
    citations_out: list[dict] = field(default_factory=list)  # deep answers: the evidence's own references
    status: Status = "current"  # where the cited passage is now (answers.store.with_status)
    status_note: str = ""  # that, in a sentence for the card

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> Citation:
        """A citation as `as_dict` stored it. Raises StoredCitationError for one that lacks a field: an answer
        stored before CITATION_VERSION that the migration has not brought up to date."""
        names = [f.name for f in fields(cls)]
        if missing := [name for name in names if name not in stored]:
            raise StoredCitationError(f"stored citation lacks {', '.join(missing)}: run manage.py migrate")
        return cls(**{name: stored[name] for name in names})


class StoredCitationError(ValueError):
    """A stored citation that is not of CITATION_VERSION's shape."""


def stored_citations(result: dict[str, Any] | None, key: str = "citations") -> list[Citation]:
    """The citations (or, `key="topic_passages"`, the passages on the topic) of a stored answer, typed."""
    return [Citation.from_stored(item) for item in (result or {}).get(key) or []]


def text_hash(text: str) -> str:
    """A chunk text's fingerprint, blind to how its whitespace was laid out."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:20]


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


def from_hit(
    hit: SearchHit, n: int, quote: str, occurrence: int = 0, *, evidence_number: int | None = None
) -> Citation:
    """The citation numbered `n` for a search hit, quoting `quote` (one of the chunk's sentences); the hit was
    evidence passage `evidence_number` (n when not told).

    Ingest sets a page only where the source has pages (PDF), so a card shows one only when it is real."""
    shared = {f.name: copy(getattr(hit, f.name)) for f in fields(ChunkSource)}
    # The chunk's own heading, glued to its first sentence, is not quoted.
    quote = without_label(without_heading(quote, hit.section, hit.heading_path))
    return Citation(
        **shared,
        n=n,
        citation_id=citation_id(hit.document_id, hit.chunk_id, occurrence),
        quote=quote,
        evidence_number=n if evidence_number is None else evidence_number,
        chunk_hash=text_hash(hit.text),
        citations_out=list(hit.citations_out),
    )
