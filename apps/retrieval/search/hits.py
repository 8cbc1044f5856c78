"""From ranked chunk ids to what a person sees: search hits with locators and snippets (deep search's extras are
added by the apps that know them: apps/retrieval/search/extras.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk
from apps.retrieval.search.types import SearchHit
from apps.retrieval.snippets import make_snippet

if TYPE_CHECKING:
    from apps.retrieval.search.service import Ranked

CONTENT_CHARS = 300


def make_hit(chunk: Chunk, item: Ranked, query: str, idf: dict[str, float], snippet_chars: int) -> SearchHit:
    """The hit for a hydrated chunk (its document and collection selected with it)."""
    document = chunk.document
    locator = chunk.locator or {}
    pages = {str(p) for p in range(chunk.page or 0, (chunk.page_end or chunk.page or 0) + 1)} if chunk.page else set()
    page_sizes = locator.get("page_sizes") or {}
    return SearchHit(
        chunk_id=chunk.pk,
        chunk_index=chunk.chunk_index,
        document_id=document.pk,
        collection=document.collection.slug,
        title=document.display_title,
        authors=list(document.authors or []),
        year=document.year,
        journal=document.journal,
        doi=document.doi,
        source=document.original_name,
        doc_type=document.doc_type,
        section=chunk.section,
        section_key=chunk.section_key,
        heading_path=list(chunk.heading_path or []),
        chunk_type=chunk.chunk_type,
        content=chunk.text[:CONTENT_CHARS],
        text=chunk.text,
        snippet_html=make_snippet(chunk.text, query, (lambda t: idf.get(t, 0.0)) if idf else None, snippet_chars),
        locator_precision=chunk.locator_precision,
        locator_degraded=chunk.locator_degraded,
        ocr=bool(locator.get("ocr")),
        page=chunk.page,
        page_end=chunk.page_end,
        rects=list(locator.get("rects") or []),
        page_size={p: size for p, size in page_sizes.items() if str(p) in pages},
        para_start=chunk.para_start,
        para_end=chunk.para_end,
        para_ids=list(locator.get("para_ids") or []),
        line_start=chunk.line_start,
        line_end=chunk.line_end,
        weight=chunk.weight,
        score=round(item.score, 6),
        score_source=item.source,
        scores=item.stage_scores,
        viewer_url=viewer_url(chunk.document_id, chunk.chunk_index),
    )
