"""What a search is asked (SearchParams) and what it answers (SearchResponse of SearchHits).

Every surface — page, API, `manage.py search`, the answer composer, MCP — builds a SearchParams and serialises the
SearchResponse with `as_dict()`, so they all show the same fields (the locator fields of design.md).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _

from apps.documents.locators import Locator

MODES = ("keyword", "vector", "hybrid")
DEPTHS = ("quick", "deep")


@dataclass(frozen=True)
class DepthPreset:
    top_k: int
    snippet_chars: int
    rerank: bool
    chain: bool  # the cited-references chain of each hit
    related: bool  # related documents of each hit's document


# Quick is for a glance (and for chat follow-ups); deep spends the rerank, chain and related-documents time.
DEPTH_PRESETS = {
    "quick": DepthPreset(top_k=3, snippet_chars=300, rerank=False, chain=False, related=False),
    "deep": DepthPreset(top_k=5, snippet_chars=500, rerank=True, chain=True, related=True),
}
MAX_TOP_K = 50
MAX_OFFSET = 200  # "more results" pages through the fused candidates, which hold a few dozen passages
SNIPPET_LIMITS = (80, 2000)


class InvalidSearch(ValueError):
    """A parameter a person can fix; the message says how."""


@dataclass(frozen=True)
class Filters:
    authors: str = ""  # substring of any author, case-insensitive
    title: str = ""  # substring of the title, case-insensitive
    journal: str = ""  # substring of the journal, case-insensitive
    kind: str = ""  # document type: pdf, docx, md, txt, html, xlsx
    year_from: int | None = None
    year_to: int | None = None
    # substring of the chunk's section as printed ("V. EXPERIMENTS", "前言") or of its canonical key ("Methods",
    # "Introduction"), case-insensitive: "methods" finds a paper's "2. Materials and methods" and a 方法 section alike
    section: str = ""
    document: int | None = None  # one document id

    def active(self) -> bool:
        return any(value not in ("", None) for value in asdict(self).values())

    def as_dict(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value not in ("", None)}


@dataclass(frozen=True)
class SearchParams:
    query: str
    collections: tuple[str, ...] = ()  # slugs; empty means every collection the user may read
    filters: Filters = field(default_factory=Filters)
    mode: str = "hybrid"
    depth: str = "quick"
    top_k: int | None = None  # None: the depth's preset
    snippet_chars: int | None = None  # None: the depth's preset
    rerank: bool | None = None  # None: the depth's preset
    offset: int = 0  # hits to skip: the next page of "more results"
    use_cache: bool = True

    def resolved(self) -> SearchParams:
        """Check every field and fill the depth's presets in; raises InvalidSearch with a readable reason."""
        query = " ".join(self.query.split())
        if not query:
            raise InvalidSearch(_("Type something to search for."))
        if len(query) > 1000:
            raise InvalidSearch(_("The query is too long (at most 1000 characters)."))
        if self.mode not in MODES:
            raise InvalidSearch(f"mode must be one of {', '.join(MODES)}.")
        if self.depth not in DEPTHS:
            raise InvalidSearch(f"depth must be one of {', '.join(DEPTHS)}.")
        preset = DEPTH_PRESETS[self.depth]
        top_k = preset.top_k if self.top_k is None else self.top_k
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidSearch(f"top_k must be between 1 and {MAX_TOP_K}.")
        snippet = preset.snippet_chars if self.snippet_chars is None else self.snippet_chars
        if not SNIPPET_LIMITS[0] <= snippet <= SNIPPET_LIMITS[1]:
            raise InvalidSearch(f"snippet must be between {SNIPPET_LIMITS[0]} and {SNIPPET_LIMITS[1]} characters.")
        f = self.filters
        if f.year_from is not None and f.year_to is not None and f.year_from > f.year_to:
            raise InvalidSearch(_("year_from is after year_to."))
        if not 0 <= self.offset <= MAX_OFFSET:
            raise InvalidSearch(f"offset must be between 0 and {MAX_OFFSET}.")
        rerank = preset.rerank if self.rerank is None else self.rerank
        return replace(self, query=query, top_k=top_k, snippet_chars=snippet, rerank=rerank)


@dataclass
class ChunkSource(Locator):
    """Where a passage comes from and how to open it: what a search hit and a citation share (design.md); the
    place itself is the Locator's fields (apps/documents/locators.py)."""

    chunk_id: int
    chunk_index: int
    document_id: int
    collection: str  # slug
    title: str
    authors: list[str]
    year: int | None
    journal: str
    doi: str
    source: str  # the original file name
    doc_type: str
    content: str  # the chunk text, cut to 300 characters
    page_size: dict  # the sizes of the pages it spans: {"4": [w, h]}
    score: float
    score_source: str  # rerank | fusion | keyword | vector
    viewer_url: str


@dataclass
class SearchHit(ChunkSource):
    """One chunk found, with everything a result line, a source card or a viewer link needs."""

    text: str  # the whole chunk text (for the answer composer)
    snippet_html: str  # HTML-escaped window around the best query terms, terms wrapped in <mark>
    para_ids: list[str]
    weight: float
    scores: dict[str, float]  # every stage's own score for this chunk, for the "where from" line
    citations_out: list[dict] = field(default_factory=list)  # deep: the evidence's own references
    related: list[dict] = field(default_factory=list)  # deep: documents related to this hit's document

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchResponse:
    query: str
    params: dict[str, Any]
    hits: list[SearchHit]
    diagnostics: dict[str, Any]
    hint: str = ""  # e.g. quick results say that deep is available
    cached: bool = False
    # The weak-match signal (search/match.py): the best first-page passage's share of the query's key terms, and
    # whether that is below the measured threshold. None/False when the query has no terms to weigh.
    key_term_coverage: float | None = None
    weak_match: bool = False
    offset: int = 0
    next_offset: int | None = None  # the offset of the next page when there are more candidates, else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "params": self.params,
            "results": [hit.as_dict() for hit in self.hits],
            "diagnostics": self.diagnostics,
            "hint": self.hint,
            "cached": self.cached,
            "key_term_coverage": self.key_term_coverage,
            "weak_match": self.weak_match,
            "offset": self.offset,
            "next_offset": self.next_offset,
        }


class CollectionNotFound(LookupError):
    """A collection slug that does not exist or that the user may not read (the two are never told apart)."""
