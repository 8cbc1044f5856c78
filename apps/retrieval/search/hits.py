"""From ranked chunk ids to what a person sees: search hits with locators and snippets (deep search's extras are
added by the apps that know them: apps/retrieval/search/extras.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apps.documents.locators import Locator, page_size_of, viewer_url
from apps.documents.models import Chunk
from apps.retrieval.search.types import SearchHit
from apps.retrieval.snippets import make_snippet

if TYPE_CHECKING:
    from apps.retrieval.search.service import Ranked

CONTENT_CHARS = 300


def make_hit(chunk: Chunk, item: Ranked, query: str, idf: dict[str, float], snippet_chars: int) -> SearchHit:
    """The hit for a hydrated chunk (its document and collection selected with it)."""
    document = chunk.document
    return SearchHit(
        **Locator.fields_of(chunk),
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
        content=chunk.text[:CONTENT_CHARS],
        text=chunk.text,
        snippet_html=make_snippet(chunk.text, query, (lambda t: idf.get(t, 0.0)) if idf else None, snippet_chars),
        page_size=page_size_of(chunk),
        para_ids=list((chunk.locator or {}).get("para_ids") or []),
        weight=chunk.weight,
        score=round(item.score, 6),
        score_source=item.source,
        scores=item.stage_scores,
        viewer_url=viewer_url(chunk.document_id, chunk.chunk_index),
    )
