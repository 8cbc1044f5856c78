"""The references step of ingestion: find the reference list and in-text citations, store them with the chunks."""

from __future__ import annotations

from dataclasses import asdict

from apps.citations.models import ChunkCitation, Reference
from apps.citations.refparse.pipeline import references_and_mentions
from apps.citations.refparse.types import CitationMention, ReferenceEntry
from apps.documents.models import Chunk, Document


def extract_references(parsed, drafts, data: bytes) -> tuple[list[ReferenceEntry], list[CitationMention]]:
    return references_and_mentions(parsed, drafts, data)


def references_state(found: tuple[list[ReferenceEntry], list[CitationMention]]) -> dict:
    """What extract_references found, as the JSON an ingest job keeps until the document is indexed."""
    entries, mentions = found
    return {"entries": [asdict(entry) for entry in entries], "mentions": [asdict(mention) for mention in mentions]}


def store_references_state(document: Document, chunks: list[Chunk], state: dict) -> None:
    entries = [ReferenceEntry(**entry) for entry in state["entries"]]
    store_references(document, chunks, entries, [CitationMention(**mention) for mention in state["mentions"]])


def store_references(
    document: Document, chunks: list[Chunk], entries: list[ReferenceEntry], mentions: list[CitationMention]
) -> None:
    """Replace the document's references; call inside the transaction that replaces its chunks."""
    Reference.objects.filter(document=document).delete()
    references = Reference.objects.bulk_create(
        Reference(
            document=document,
            index=entry.index,
            number=entry.number,
            text=entry.text,
            doi=entry.doi[:200],
            year=entry.year if entry.year and 0 < entry.year < 32768 else None,
            first_author=entry.first_author[:200],
            authors=entry.authors,
            title=entry.title,
            venue=entry.venue[:500],
            chunk_indices=entry.chunk_indices,
            page=entry.page,
        )
        for entry in entries
    )
    by_index = {reference.index: reference for reference in references}
    chunk_by_index = {chunk.chunk_index: chunk for chunk in chunks}
    ChunkCitation.objects.bulk_create(
        ChunkCitation(chunk=chunk_by_index[m.chunk_index], reference=by_index[i], start=m.start, end=m.end)
        for m in mentions
        if m.chunk_index in chunk_by_index
        for i in m.entry_indices
        if i in by_index
    )
