"""The viewer: a document opened at one passage (`?chunk=N`), the passage highlighted.

PDFs are drawn by PDF.js in the browser from the file endpoint (range requests); every other format is rendered
here as HTML from the same parse that produced its chunks, with the paragraph ids as anchors. Opened from an
answer (`&message=M&n=K`), the viewer steps through that answer's citations without leaving it and emphasises
the quote of the citation it was opened at (quote_places). Everything comes through the access helpers: a document
someone may not read is a 404 here as everywhere.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from apps.documents.access import get_document_for_user
from apps.documents.api.serializers import ChunkPreviewSerializer
from apps.documents.models import Chunk, Document
from apps.documents.quote_places import add_quote


def locator(chunk: Chunk) -> dict:
    """What a viewer needs to find and highlight one chunk: the preview API's metadata with the chunk's index and
    text, the same shape the side panel sends with "viewer:select"."""
    return {"chunk_index": chunk.chunk_index, "text": chunk.text, **ChunkPreviewSerializer().get_metadata(chunk)}


def viewer_url(document_id: int, chunk_index: int, message_id: int | None = None, n: int | None = None) -> str:
    url = reverse("document-viewer", args=[document_id]) + f"?chunk={chunk_index}"
    return url + (f"&message={message_id}&n={n}" if message_id and n else "")


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _answer_steps(request: HttpRequest, document: Document) -> dict | None:
    """The citations of the answer the viewer was opened from, for previous/next, and the one it was opened at
    (`citation`, with its status); None outside an answer."""
    message_id, n = _int(request.GET.get("message")), _int(request.GET.get("n"))
    if message_id is None or n is None:
        return None
    from apps.citations.access import conversations_for_user
    from apps.citations.answers.store import with_status
    from apps.citations.models import Message

    message = Message.objects.filter(pk=message_id, conversation__in=conversations_for_user(request.user)).first()
    if message is None:
        return None  # not theirs (or gone): the viewer still opens, without the answer's steps
    steps, cited = [], None
    for citation in with_status(message.result.get("citations", [])):
        if citation["status"] in ("deleted", "changed"):
            continue
        if citation["n"] == n and citation["document_id"] == document.pk:
            cited = citation
        steps.append(
            {
                "n": citation["n"],
                "title": citation["title"] or citation["source"],
                "url": viewer_url(citation["document_id"], citation["chunk_index"], message.pk, citation["n"]),
                "current": citation is cited,
            }
        )
    position = next((i for i, step in enumerate(steps) if step["current"]), None)
    return {
        "message": message,
        "citation": cited,
        "steps": steps,
        "previous": steps[position - 1] if position else None,
        "next": steps[position + 1] if position is not None and position + 1 < len(steps) else None,
        "answer_url": reverse("conversation-detail", args=[message.conversation_id]) + f"#message-{message.pk}",
    }


@login_required
def document_viewer(request: HttpRequest, document_id: int) -> HttpResponse:
    document, rights = get_document_for_user(request.user, document_id)
    total = document.chunks.count()
    index = _int(request.GET.get("chunk")) or 0
    chunk = document.chunks.filter(chunk_index=min(max(index, 0), max(total - 1, 0))).first()
    target = locator(chunk) if chunk else None
    answer = _answer_steps(request, document)
    add_quote(target, answer and answer["citation"], document)
    context = {
        "document": document,
        "collection": document.collection,
        "rights": rights,
        "target": target,
        "total_chunks": total,
        "file_url": reverse("api-document-file", args=[document.pk]),
        "preview_url": reverse("api-document-preview", args=[document.pk]),
        "answer": answer,
    }
    if document.doc_type == "pdf":
        return render(request, "documents/viewer_pdf.html", context)
    from apps.documents.rendering import document_html

    try:
        context["document_html"] = document_html(document)
    except FileNotFoundError:
        raise Http404("The file of this document is missing.") from None
    return render(request, "documents/viewer_doc.html", context)
