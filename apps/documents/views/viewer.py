"""The viewer: a document opened at one passage (`?chunk=N`), the passage highlighted.

PDFs are drawn by PDF.js in the browser from the file endpoint (range requests); every other format is shown as
the HTML the worker drew from the same parse that produced its chunks (apps/documents/rendering), with the
paragraph ids as anchors, one page at a time: the page that holds the chunk (`?chunk=N`), or page P of it
(`&page=P`, 1-based: previous and next). The web process never parses the original file here. Opened from an
answer (`&message=M&n=K`), the viewer steps through that answer's citations without leaving it and emphasises
the quote of the citation it was opened at (quote_places), or, opened from one claim's badge (`&claim=C`), that
claim's own quote of the passage: citations adds that as a viewer panel (apps/citations/viewer_steps.py, through
apps/documents/extensions.py). Everything comes through the access helpers: a document
someone may not read is a 404 here as everywhere, and one that is not READY has no viewer (a 404 page that says
so, with a link to the document's page and its status).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from apps.documents.access import DocumentNotReady, get_ready_document_for_user
from apps.documents.api.serializers import ChunkPreviewSerializer
from apps.documents.extensions import viewer_panels
from apps.documents.models import Chunk, Document
from apps.documents.quote_places import add_quote


def locator(chunk: Chunk) -> dict:
    """What a viewer needs to find and highlight one chunk: the preview API's metadata with the chunk's index and
    text, the same shape the side panel sends with "viewer:select"."""
    return {"chunk_index": chunk.chunk_index, "text": chunk.text, **ChunkPreviewSerializer().get_metadata(chunk)}


def int_param(value: str | None) -> int | None:
    """A query parameter as an int; None when absent or not a number (a hand-edited link opens the viewer anyway)."""
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


@login_required
def document_viewer(request: HttpRequest, document_id: int) -> HttpResponse:
    try:
        document, rights = get_ready_document_for_user(request.user, document_id)
    except DocumentNotReady as exc:
        context = {"document": exc.document, "collection": exc.document.collection}
        return render(request, "documents/viewer_not_ready.html", context, status=404)
    total = document.chunks.count()
    index = int_param(request.GET.get("chunk")) or 0
    chunk = document.chunks.filter(chunk_index=min(max(index, 0), max(total - 1, 0))).first()
    target = locator(chunk) if chunk else None
    panels = viewer_panels(request, document)  # citations': the answer it was opened from, its steps
    add_quote(target, next((panel["quote"] for _template, panel in panels if panel.get("quote")), None), document)
    context = {
        "document": document,
        "collection": document.collection,
        "rights": rights,
        "target": target,
        "total_chunks": total,
        "file_url": reverse("api-document-file", args=[document.pk]),
        "preview_url": reverse("api-document-preview", args=[document.pk]),
        "panels": panels,
    }
    if document.doc_type == "pdf":
        return render(request, "documents/viewer_pdf.html", context)
    try:
        context.update(_page_context(request, document, target))
    except FileNotFoundError:
        raise Http404("The file of this document is missing.") from None
    return render(request, "documents/viewer_doc.html", context)


def _page_context(request: HttpRequest, document: Document, target: dict | None) -> dict:
    """The stored page to show, and the links to its neighbours (which keep the cited chunk and the answer)."""
    from apps.documents.rendering import document_page

    asked = int_param(request.GET.get("page"))
    chunk_index = target["chunk_index"] if target else 0
    page = document_page(document, chunk_index=chunk_index, page=asked - 1 if asked else None)

    def link(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number + 1)
        return f"?{query.urlencode()}"

    info = {
        "number": page.number + 1,
        "count": page.count,
        "first_chunk": page.first_chunk,
        "last_chunk": page.last_chunk,
        "previous": link(page.number - 1) if page.number > 0 else None,
        "next": link(page.number + 1) if page.number + 1 < page.count else None,
    }
    return {"document_html": page.html, "doc_page": info}
