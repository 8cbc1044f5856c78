"""Pages for one document: its passages, its file, its ingest progress, and the editor's actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseStopPolling

from apps.documents.access import get_document_for_user
from apps.documents.extensions import document_panels
from apps.documents.files import file_response
from apps.documents.locators import locator_label
from apps.documents.selectors import attach_queue_positions
from apps.documents.services.documents import document_delete
from apps.documents.services.ingest import NOT_QUEUED, ingest_enqueue, ingest_queued


@login_required
def document_detail(request: HttpRequest, document_id: int) -> HttpResponse:
    document, rights = get_document_for_user(request.user, document_id)
    chunks = list(document.chunks.order_by("chunk_index")[:500])
    for chunk in chunks:
        chunk.doc_type = document.doc_type  # spreadsheets count rows, text files lines
        chunk.place = locator_label(chunk)  # as cards and search say it: paragraphs counted from 1
    return render(
        request,
        "documents/document_detail.html",
        {
            "document": document,
            "collection": document.collection,
            "rights": rights,
            "chunks": chunks,
            "panels": document_panels(document),  # citations': related documents, the reference list
            "job": document.latest_job(),
        },
    )


@login_required
def document_status(request: HttpRequest, document_id: int) -> HttpResponse:
    """The ingest-job row of the collection page; htmx polls it until the job has finished."""
    document, rights = get_document_for_user(request.user, document_id)
    job = document.latest_job()
    attach_queue_positions([job])
    context = {"document": document, "job": job, "rights": rights}
    response = render(request, "documents/_document_row.html", context)
    if context["job"] is None or context["job"].finished:
        # 286 tells htmx to stop polling; the body still replaces the row with its final state.
        stop = HttpResponseStopPolling()
        stop.content = response.content
        return stop
    return response


@login_required
def document_file(request: HttpRequest, document_id: int) -> HttpResponse:
    document, _rights = get_document_for_user(request.user, document_id)
    return file_response(request, document, download=request.GET.get("download") in ("1", "true"))


@login_required
@require_POST
def document_reingest(request: HttpRequest, document_id: int) -> HttpResponse:
    document, rights = get_document_for_user(request.user, document_id)
    rights.require_edit()
    job = ingest_enqueue(document)
    if ingest_queued(job):
        messages.success(request, _("“%(title)s” is being read again.") % {"title": document.display_title})
    else:  # the broker is away: the job waits and is sent once a worker reconnects (apps/documents/worker_steps.py)
        messages.warning(request, f"“{document.display_title}”: {_(NOT_QUEUED)}")
    return redirect(document.collection)


@login_required
@require_POST
def document_remove(request: HttpRequest, document_id: int) -> HttpResponse:
    document, rights = get_document_for_user(request.user, document_id)
    rights.require_edit()
    collection = document.collection
    document_delete(document=document)
    messages.success(request, _("“%(title)s” was deleted.") % {"title": document.display_title})
    return redirect(collection)
