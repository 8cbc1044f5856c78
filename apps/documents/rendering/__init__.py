"""Every non-PDF document drawn as HTML from the same parse that produced its chunks (issue 7).

Each block becomes one element anchored by its locator (see `common`), so the viewer highlights a chunk by
the paragraph ids, paragraph ordinals or line numbers it carries, never by searching for its words. Only the
parsed text is shown, always escaped: an uploaded web page's own markup and scripts never reach the portal.

Parsing a large Word file takes seconds, so the result is cached by document, content hash and
RENDERER_VERSION (raise it whenever the HTML or the parse behind it changes).
"""

from __future__ import annotations

import logging
import zlib

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from apps.documents.models import Document
from apps.documents.parsing.blocks import ParsedDocument
from apps.documents.parsing.errors import ParseError
from apps.documents.parsing.formats.text import decode_text
from apps.documents.parsing.registry import parse_document
from portal.soft_cache import cache_get, cache_set

from .structured import render_structured
from .text import render_text

__all__ = ["RENDERER_VERSION", "document_html", "render_parsed"]

log = logging.getLogger(__name__)

RENDERER_VERSION = 1
CACHE_SECONDS = 7 * 24 * 3600


def document_html(document: Document) -> SafeString:
    """The document as HTML for the viewer; a file that cannot be read gives a readable message instead.
    A missing file raises FileNotFoundError (the view answers 404)."""
    key = f"document-html:v{RENDERER_VERSION}:{document.pk}:{document.sha256}"
    cached = cache_get(key)  # Redis being away must not close the viewer
    if cached is not None:
        # Stored by this function only, from HTML built with every text escaped.
        return mark_safe(zlib.decompress(cached).decode())
    with document.file.open("rb") as handle:
        data = handle.read()
    try:
        html = render_parsed(parse_document(data, document.original_name), data)
    except ParseError as exc:
        html = _message(f"This document cannot be shown here: {exc}")
    except Exception:
        log.exception("rendering document %s failed", document.pk)
        return _message("This document cannot be shown here because of an error in the viewer.")
    cache_set(key, zlib.compress(str(html).encode(), 6), CACHE_SECONDS)
    return html


def render_parsed(parsed: ParsedDocument, data: bytes) -> SafeString:
    """HTML for a parsed document; `data` is the file it was parsed from (text formats show its lines)."""
    if not parsed.blocks:
        return _message("This document has no text to show.")
    if parsed.doc_type in ("md", "txt"):
        return render_text(parsed, decode_text(data))
    return render_structured(parsed)


def _message(text: str) -> SafeString:
    return format_html(
        '<div class="doc-message" role="alert"><p>{}</p><p>The original file can still be downloaded.</p></div>', text
    )
