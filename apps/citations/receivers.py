"""Citations' part in a document's life, plugged into documents' seams (apps/documents/extensions.py, signals.py)
from CitationsConfig.ready(): the reference list read with the file and stored with its passages, shown on the
document page with the related documents, and the collection's reference links recomputed after every change (a
paper added today may be what yesterday's references cite, and the other way round; links to a deleted document
were SET NULL)."""

from __future__ import annotations

from apps.citations.services import linking, references, related
from apps.citations.viewer_steps import ANSWER_STEPS
from apps.documents import signals
from apps.documents.extensions import (
    DocumentPanel,
    ReadingExtra,
    UnsentSender,
    register_document_panel,
    register_reading_extra,
    register_unsent_sender,
    register_viewer_panel,
)

REFERENCES = ReadingExtra(
    name="references",
    read=references.extract_references,
    to_state=references.references_state,
    store=references.store_references_state,
)


def _related_panel(document) -> dict | None:
    found = related.related_documents(document)
    return {"related": found} if found else None


def _references_panel(document) -> dict | None:
    listed = list(document.references.select_related("matched_document").order_by("index"))
    if not listed:
        return None
    return {"references": listed, "linked_count": sum(1 for r in listed if r.matched_document_id)}


def _indexed(sender, *, document, **kwargs) -> None:
    linking.relink_enqueue(document.collection_id)


def _deleted(sender, *, collection_id, **kwargs) -> None:
    linking.relink_enqueue(collection_id)


def _requeue_stale_relinks() -> int:
    return linking.relink_requeue_stale()


def connect() -> None:
    register_reading_extra(REFERENCES)
    # On the document page, above its passages: what resembles it, then its reference list with library links.
    register_document_panel(DocumentPanel("related", "citations/_document_related.html", _related_panel))
    register_document_panel(DocumentPanel("references", "citations/_document_references.html", _references_panel))
    register_viewer_panel(ANSWER_STEPS)  # the viewer opened from an answer steps through its citations
    register_unsent_sender(UnsentSender("relink(s) of reference links", _requeue_stale_relinks))
    signals.document_indexed.connect(_indexed, dispatch_uid="citations.indexed")
    signals.document_deleted.connect(_deleted, dispatch_uid="citations.deleted")
