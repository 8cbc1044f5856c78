"""Stored answers: what is kept with each citation, and what an old citation points at today.

Each stored citation keeps the hash of the chunk text it quoted. Chunks are replaced when a document is
re-ingested, so on reading an old answer every citation is checked:

- current: the chunk is still there with the same text;
- moved: the document was re-ingested and the same passage exists under a new chunk: the citation follows it
  (new chunk id, index, page, rectangles, viewer link) and says so;
- changed: the document was re-ingested and the passage is gone: the card says so and links the document only;
- deleted: the document is gone: the card says so and links nothing.
"""

from __future__ import annotations

from dataclasses import replace

from django.urls import reverse
from django.utils.translation import gettext_noop

from apps.citations.answers.citation import Citation, Status, text_hash
from apps.documents.locators import Locator, page_size_of, viewer_url
from apps.documents.models import Chunk, Document

# Stored and served in English (the API's status_note); a card shows them in its answer's language (display.card).
NOTES: dict[Status, str] = {
    "current": "",
    "moved": gettext_noop(
        "The document was re-ingested after this answer; the same passage was found again and is linked."
    ),
    "changed": gettext_noop("The document was re-ingested after this answer and this passage is no longer in it."),
    "deleted": gettext_noop("The document was deleted after this answer."),
}


def _place(chunk: Chunk) -> dict:
    """What a stored citation keeps of its passage's place, refreshed from the chunk found again after a re-read."""
    return {
        "chunk_id": chunk.pk,
        "chunk_index": chunk.chunk_index,
        **Locator.fields_of(chunk),
        "page_size": page_size_of(chunk),
        "viewer_url": viewer_url(chunk.document_id, chunk.chunk_index),
    }


def with_status(citations: list[Citation]) -> list[Citation]:
    """Copies of stored citations with `status` and `status_note` as of now (see the module docstring)."""
    if not citations:
        return []
    hashes = {
        pk: text_hash(text)
        for pk, text in Chunk.objects.filter(pk__in=[c.chunk_id for c in citations]).values_list("pk", "text")
    }
    present = set(Document.objects.filter(pk__in=[c.document_id for c in citations]).values_list("pk", flat=True))
    stale = [c for c in citations if hashes.get(c.chunk_id) != c.chunk_hash or c.document_id not in present]
    replacements: dict[tuple[int, str], Chunk] = {}
    if stale:
        wanted = {(c.document_id, c.chunk_hash) for c in stale if c.document_id in present}
        documents = {document_id for document_id, _ in wanted}
        for chunk in Chunk.objects.filter(document_id__in=documents).select_related("document__collection"):
            key = (chunk.document_id, text_hash(chunk.text))
            if key in wanted:
                replacements.setdefault(key, chunk)
    out = []
    for citation in citations:
        changes: dict = {}
        status: Status
        if citation.document_id not in present:
            status, changes["viewer_url"] = "deleted", ""
        elif hashes.get(citation.chunk_id) == citation.chunk_hash:
            status = "current"
        elif chunk := replacements.get((citation.document_id, citation.chunk_hash)):
            status = "moved"
            changes.update(_place(chunk))
        else:
            status = "changed"
            changes["viewer_url"] = reverse("document-detail", args=[citation.document_id])
        out.append(replace(citation, **changes, status=status, status_note=NOTES[status]))
    return out
