"""Serving a document's original file: streamed, with HTTP range requests (PDF.js loads a large PDF piece by
piece), the right content type, `nosniff`, and a Content-Disposition built from the stored name, never a path.

The file is opened through the storage API by the document's own stored name; nothing from the request reaches the
filesystem except the byte range, which is parsed strictly.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterator
from typing import IO

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.http import content_disposition_header

from apps.documents.models import Document

CHUNK_BYTES = 64 * 1024
_RANGE = re.compile(r"^bytes=([0-9]*)-([0-9]*)$", re.ASCII)
# More digits than any file size has: such a position is read as "past the end" without converting it, since
# Python refuses to convert a string of over 4,300 digits (ValueError, a 500) and would be slow near that.
_MAX_DIGITS = 18
_UNSAFE_NAME = re.compile(r'[\\/"\x00-\x1f\x7f]')
CONTENT_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "md": "text/markdown; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    # Served as text, never as a page of this site: an uploaded HTML file must not run in the portal's origin.
    "html": "text/plain; charset=utf-8",
}


def safe_filename(name: str) -> str:
    """The stored name with path separators, quotes and control characters replaced: a browser saving the file
    must not be steered into another folder, and the header must stay one well-formed value."""
    return _UNSAFE_NAME.sub("_", name).strip(" .") or "document"


# The encoding ingest read a text file in (Document.text_encoding, a Python codec name) by the label browsers know,
# so that "Open the file" shows a GBK or Shift-JIS file as its text; anything else is announced as UTF-8.
_BROWSER_CHARSETS = {
    "gb18030": "gb18030",
    "gbk": "gbk",
    "big5": "big5",
    "cp932": "shift_jis",
    "shift_jis": "shift_jis",
    "euc_jp": "euc-jp",
    "cp949": "euc-kr",
    "euc_kr": "euc-kr",
    "utf-16-be": "utf-16be",
    "utf-16-le": "utf-16le",
    "utf-16": "utf-16",
    "cp1251": "windows-1251",
    "cp1252": "windows-1252",
}


def content_type(document: Document) -> str:
    if document.doc_type in CONTENT_TYPES:
        charset = _BROWSER_CHARSETS.get(document.text_encoding, "utf-8")
        return CONTENT_TYPES[document.doc_type].replace("charset=utf-8", f"charset={charset}")
    guessed, _ = mimetypes.guess_type(document.original_name)
    return guessed if guessed and not guessed.startswith("text/html") else "application/octet-stream"


def byte_range(header: str, size: int) -> tuple[int, int] | bool | None:
    """(start, end inclusive) of a single `bytes=` range; None when there is none or it is ignorable (several
    ranges, another unit: the whole file is sent); False when it cannot be satisfied (416)."""
    match = _RANGE.match(header.strip())
    if not match:
        return None
    first, last = (_position(digits) for digits in match.groups())
    if first is None and last is None:
        return None
    if first is None:  # the last N bytes
        if last == 0:
            return False
        return max(size - last, 0), size - 1
    if first >= size or (last is not None and last < first):
        return False
    return first, min(last, size - 1) if last is not None else size - 1


def _position(digits: str) -> int | None:
    """A byte position of a range (None when absent); any number too long to be a real one is 10**18."""
    if not digits:
        return None
    significant = digits.lstrip("0") or "0"  # leading zeros count towards Python's digit limit too
    return int(significant) if len(significant) <= _MAX_DIGITS else 10**_MAX_DIGITS


def _stream(document: Document, start: int, length: int) -> Iterator[bytes]:
    # Opened here, not before: a response nobody reads (HEAD, a client gone) never opens the file at all.
    handle: IO[bytes] = document.file.open("rb")
    try:
        handle.seek(start)
        while length > 0:
            piece = handle.read(min(CHUNK_BYTES, length))
            if not piece:
                break
            length -= len(piece)
            yield piece
    finally:
        handle.close()


def entity_tag(document: Document) -> str:
    """A strong validator: the content hash names the exact bytes (a document's file never changes in place)."""
    return f'"{document.sha256}"'


def _matches(header: str, tag: str) -> bool:
    return any(part.strip() in (tag, f"W/{tag}", "*") for part in header.split(","))


def file_response(request: HttpRequest, document: Document, *, download: bool = False) -> HttpResponse:
    """The document's file, whole or the requested range; `download` makes browsers save it instead of showing it.

    Conditional requests: If-None-Match with the file's tag answers 304; a Range with an If-Range that is not the
    tag sends the whole file (RFC 9110: a client resuming a download of other bytes must not get a piece of these).
    """
    tag = entity_tag(document)
    if document.sha256 and _matches(request.headers.get("If-None-Match", ""), tag):
        response = HttpResponse(status=304)
        response["ETag"] = tag
        return response
    size = document.file.size
    range_header = request.headers.get("Range", "") if request.method == "GET" else ""
    if_range = request.headers.get("If-Range", "")
    if if_range and if_range.strip() != tag:
        range_header = ""  # a date or another tag: the client's copy is not these bytes
    wanted = byte_range(range_header, size)
    if wanted is False:
        response = HttpResponse(status=416)
        response["Content-Range"] = f"bytes */{size}"
    else:
        start, end = wanted or (0, size - 1)
        length = max(end - start + 1, 0)
        response = StreamingHttpResponse(_stream(document, start, length), status=206 if wanted else 200)
        response["Content-Length"] = str(length)
        if wanted:
            response["Content-Range"] = f"bytes {start}-{end}/{size}"
    response["Accept-Ranges"] = "bytes"
    if document.sha256:
        response["ETag"] = tag
    response["Content-Type"] = content_type(document)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = content_disposition_header(download, safe_filename(document.original_name))
    # The document may change on re-ingest (same URL): private, and checked again each time.
    response["Cache-Control"] = "private, no-cache"
    return response
