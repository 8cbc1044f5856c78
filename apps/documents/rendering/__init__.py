"""Every non-PDF document drawn as HTML from the same parse that produced its chunks (issue 7), in pages (issue 14).

Each block becomes one element anchored by its locator (see `common`), so the viewer highlights a chunk by
the paragraph ids, paragraph ordinals or line numbers it carries, never by searching for its words. Only the
parsed text is shown, always escaped: an uploaded web page's own markup and scripts never reach the portal.

The web process never parses an original file on a request path. The worker draws the document while it reads
it, in the same bounded child process (services/reading.py calls `render_reading`), cut into pages of whole
chunks (pages.py), and stores the pages (store.py); the viewer reads the one page that holds the chunk it opens.
A document read before pages existed (or by an older RENDERER_VERSION) is drawn once on its first view, inside
the same sandbox with PORTAL_RENDER_TIMEOUT_S and PORTAL_RENDER_MEMORY_MB as bounds, one request at a time.
"""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from apps.documents.models import Document
from apps.documents.parsing.blocks import ParsedDocument
from apps.documents.parsing.chunking import ChunkDraft, chunk_document
from apps.documents.parsing.errors import ParseError
from apps.documents.parsing.formats.text import decode_text
from apps.documents.parsing.guards import ReadLimits
from apps.documents.parsing.registry import parse_document
from apps.documents.parsing.sandbox import LimitExceeded, run_bounded
from portal.soft_cache import cache_get

from .common import BlockHtml
from .pages import RenderedPages, assemble, build_pages
from .store import RENDERER_VERSION, StoredIndex, load_index, load_page, save_pages
from .structured import structured_blocks
from .text import text_blocks

__all__ = ["RENDERER_VERSION", "ViewerPage", "document_html", "document_page", "render_parsed", "render_reading"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ViewerPage:
    """One page of a document as the viewer shows it; `first_chunk`..`last_chunk` are the chunks drawn on it
    (-1, -1 for a page that is only a message)."""

    html: SafeString
    number: int  # 0-based
    count: int
    first_chunk: int
    last_chunk: int


def drawn_blocks(parsed: ParsedDocument, data: bytes) -> list[BlockHtml]:
    """Every block of a parsed document as HTML; `data` is the file it was parsed from (text formats show its
    lines)."""
    if parsed.doc_type in ("md", "txt"):
        return text_blocks(parsed, decode_text(data))
    return structured_blocks(parsed)


def render_parsed(parsed: ParsedDocument, data: bytes) -> SafeString:
    """The whole document as one piece of HTML (what the pages are cut from)."""
    blocks = drawn_blocks(parsed, data)
    if not blocks:
        return _message("This document has no text to show.")
    return assemble(blocks, (0, 0), (len(blocks), 0))


def render_reading(parsed: ParsedDocument, data: bytes, drafts: list[ChunkDraft]) -> RenderedPages:
    """The viewer's pages of a document just read; touches no database (it runs in the reading child)."""
    blocks = drawn_blocks(parsed, data)
    if not blocks:
        return _message_pages("This document has no text to show.")
    return build_pages(blocks, drafts)


def render_file(data: bytes, name: str, limits: ReadLimits) -> RenderedPages:
    """Parse, chunk and draw a file (a document stored before its pages were): the sandboxed fallback."""
    parsed = parse_document(data, name, limits=limits)
    return render_reading(parsed, data, chunk_document(parsed))


def document_page(document: Document, *, chunk_index: int = 0, page: int | None = None) -> ViewerPage:
    """The page holding `chunk_index` (or page number `page`, 0-based) of a document's stored render. A missing
    file raises FileNotFoundError (the view answers 404)."""
    index = load_index(document)
    if index is None:
        built = _render_now(document)
        if isinstance(built, ViewerPage):
            return built
        index = built
    number = min(max(page if page is not None else index.page_of(chunk_index), 0), index.count - 1)
    html = load_page(document, number)
    if html is None:
        return _message_page("This document cannot be shown here: its stored pages are incomplete.")
    first, last = index.ranges[number]
    # Written by the renderer only, from HTML built with every text escaped.
    return ViewerPage(mark_safe(html), number, index.count, first, last)


def document_html(document: Document) -> SafeString:
    """The first page of the document (a small document is one page)."""
    return document_page(document).html


def _render_now(document: Document) -> StoredIndex | ViewerPage:
    """Draw and store a document that has no stored pages, bounded; one request per document at a time, the
    others are told to come back instead of waiting (they would each hold a web thread)."""
    lock = f"document-render:{document.pk}"
    if not _lock(lock):
        return _message_page("The view of this document is being prepared; reload the page in a moment.")
    try:
        with document.file.open("rb") as handle:  # FileNotFoundError: the view's 404
            data = handle.read()
        try:
            rendered = _bounded_render(data, document.original_name)
        except LimitExceeded:
            rendered = _message_pages(
                "This document is too large to draw here on request. Reading it again (re-ingest) stores its pages "
                "for the viewer."
            )
        except ParseError as exc:
            rendered = _message_pages(f"This document cannot be shown here: {exc}")
        except Exception:
            log.exception("rendering document %s failed", document.pk)
            return _message_page("This document cannot be shown here because of an error in the viewer.")
        save_pages(document, rendered)
        return StoredIndex(ranges=rendered.ranges)
    finally:
        _unlock(lock)


def _bounded_render(data: bytes, name: str) -> RenderedPages:
    from apps.documents.services.reading import read_limits

    if not settings.PORTAL_PARSE_SANDBOX:  # unit tests that read in-process
        return render_file(data, name, read_limits())
    bounded = run_bounded(
        render_file,
        data,
        name,
        read_limits(),
        memory_mb=settings.PORTAL_RENDER_MEMORY_MB,
        timeout_s=settings.PORTAL_RENDER_TIMEOUT_S,
    )
    log.info("rendered %s for the viewer; it used %s", name, bounded.usage)
    return bounded.value


def _lock(key: str) -> bool:
    if cache_get(key) is not None:  # the cheap look first; `add` settles a race between two requests
        return False
    try:
        return bool(cache.add(key, 1, timeout=settings.PORTAL_RENDER_TIMEOUT_S + 30))
    except Exception:  # Redis away: draw without the lock rather than not at all
        log.warning("cache unavailable: lock of %s skipped", key.split(":", 1)[0], exc_info=True)
        return True


def _unlock(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:
        log.warning("cache unavailable: unlock of %s skipped", key.split(":", 1)[0], exc_info=True)


def _message(text: str) -> SafeString:
    return format_html(
        '<div class="doc-message" role="alert"><p>{}</p><p>The original file can still be downloaded.</p></div>', text
    )


def _message_pages(text: str) -> RenderedPages:
    return RenderedPages(pages=[zlib.compress(str(_message(text)).encode())], ranges=[(-1, -1)])


def _message_page(text: str) -> ViewerPage:
    return ViewerPage(_message(text), 0, 1, -1, -1)
