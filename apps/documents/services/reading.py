"""The reading step of ingest (parse, chunk, what other apps read: references), run within memory and time bounds.

This is the part where library code meets the uploaded bytes, so a damaged or hostile file can make it allocate
gigabytes or spin: it runs in a forked child (apps/documents/parsing/sandbox.py) limited by PORTAL_PARSE_MEMORY_MB
and PORTAL_PARSE_TIMEOUT_S, after the cheap checks of apps/documents/parsing/guards.py. Embedding and indexing
stay in the worker process, where the model is loaded once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from apps.documents.extensions import reading_extras
from apps.documents.models import Document
from apps.documents.parsing import ChunkDraft, ParsedDocument, ParseError, ReadLimits, chunk_document, parse_document
from apps.documents.parsing.progress import Sink, reporting_to
from apps.documents.parsing.sandbox import run_bounded
from apps.documents.rendering import render_reading
from apps.documents.rendering.pages import RenderedPages
from apps.documents.rendering.store import save_pages
from portal.laps import Laps

log = logging.getLogger(__name__)


@dataclass
class Reading:
    """Everything ingest needs from the file before embedding; pickled from the child to the worker."""

    parsed: ParsedDocument
    drafts: list[ChunkDraft]
    laps: dict[str, float]
    pages: RenderedPages | None = None  # the viewer's pages (not for PDFs, which PDF.js draws in the browser)
    extras: dict[str, Any] = field(default_factory=dict)  # what registered reading extras read (extensions.py)


def no_text_reason(doc_type: str) -> str:
    if doc_type == "pdf":
        return "No text could be read from this PDF. If it is a scan, it needs OCR before it can be searched."
    return "No readable text was found in this file (text inside shapes or text boxes is not read yet)."


def read_file(data: bytes, name: str, doc_type: str, limits: ReadLimits) -> Reading:
    """Parse, chunk and read the registered extras (citations': the references). Touches no database: it runs in a
    forked child."""
    clock = Laps()
    parsed = parse_document(data, name, limits=limits)
    clock.lap("parse")
    drafts = chunk_document(parsed)
    if not drafts:
        raise ParseError(no_text_reason(parsed.doc_type or doc_type))
    clock.lap("chunk")
    extras = {}
    for extra in reading_extras():
        extras[extra.name] = extra.read(parsed, drafts, data)
        clock.lap(extra.name)
    # Drawn here, inside the same bounds, so the web process never parses the file to show it (issue 14).
    pages = _viewer_pages(parsed, data, drafts) if parsed.doc_type != "pdf" else None
    clock.lap("render")
    return Reading(parsed, drafts, clock.laps, pages, extras)


def _viewer_pages(parsed: ParsedDocument, data: bytes, drafts: list[ChunkDraft]) -> RenderedPages | None:
    try:
        return render_reading(parsed, data, drafts)
    except Exception:  # a bug of the viewer's must not fail the ingest: the viewer then draws it on first view
        log.exception("drawing the viewer pages failed")
        return None


def read_limits() -> ReadLimits:
    return ReadLimits(
        max_pdf_pages=settings.PORTAL_MAX_PDF_PAGES, max_unzipped_mb=settings.PORTAL_PARSE_MAX_UNZIPPED_MB
    )


def document_read(*, document: Document, data: bytes, on_progress: Sink | None = None) -> Reading:
    """Read `data` (the document's file) within the configured bounds; what the reading reports as it goes (OCR's
    pages) reaches `on_progress` (stage, done, total).

    Raises ParseError with a sentence for the uploader, including when a bound was hit (LimitExceeded), and
    ChildFailed when the reading process failed unexpectedly (its traceback inside)."""
    args = (data, document.original_name, document.doc_type, read_limits())
    if not settings.PORTAL_PARSE_SANDBOX:  # unit tests that call the service in-process
        with reporting_to(on_progress):
            return _keep_pages(document, read_file(*args))
    try:
        bounded = run_bounded(
            read_file,
            *args,
            memory_mb=settings.PORTAL_PARSE_MEMORY_MB,
            timeout_s=settings.PORTAL_PARSE_TIMEOUT_S,
            on_progress=on_progress,
        )
    except ParseError as exc:
        log.info("reading document %s failed (%s); it used %s", document.pk, exc, exc.usage)
        raise
    log.info("read document %s; it used %s", document.pk, bounded.usage)
    return _keep_pages(document, bounded.value)


def _keep_pages(document: Document, reading: Reading) -> Reading:
    """Store the viewer's pages and let go of them; a failure to store them costs the viewer a bounded redraw on
    its first view, never the ingest."""
    if reading.pages is not None:
        try:
            save_pages(document, reading.pages)
        except Exception:
            log.warning("the viewer pages of document %s could not be stored", document.pk, exc_info=True)
        reading.pages = None
    return reading
