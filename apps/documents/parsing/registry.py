"""Which parser reads a file, and the one entry point that turns bytes into a ParsedDocument.

Detection policy: the content decides, the name only breaks ties. Each parser scores a file from
its name and first bytes; the highest score wins. A PDF renamed "report.docx" starts with "%PDF-",
scores 1.0 with the PDF parser and 0 with the Word parser (no ZIP signature), so it is parsed as
the PDF it is (doc_type "pdf"). A file that is named for a format but does not carry its signature
still goes to that format's parser (low score) so the person is told "not a valid PDF" rather than
"unsupported". Unknown names with no recognisable content are refused with the supported list.
"""

from __future__ import annotations

import logging
import os
from typing import Protocol, runtime_checkable

from .blocks import ParsedDocument
from .errors import ParseError, UnsupportedFormat
from .formats import docx as docx_format
from .formats import html as html_format
from .formats import pdf as pdf_format
from .formats import text as text_format
from .formats import xlsx as xlsx_format
from .guards import ReadLimits, check_before_parse

log = logging.getLogger(__name__)

HEAD_BYTES = 65536  # enough to see "word/" among the first ZIP entries of a .docx


@runtime_checkable
class Parser(Protocol):
    # Read-only (properties): a parser's class attributes satisfy them, `extensions = (".pdf",)` included.
    @property
    def name(self) -> str: ...

    @property
    def doc_type(self) -> str: ...

    @property
    def extensions(self) -> tuple[str, ...]: ...

    def score(self, filename: str, head: bytes) -> float: ...

    def parse(self, data: bytes, filename: str) -> ParsedDocument: ...


_PARSERS: list[Parser] = []


def register(parser: Parser) -> Parser:
    if any(p.name == parser.name for p in _PARSERS):
        raise ValueError(f"a parser named {parser.name!r} is already registered")
    _PARSERS.append(parser)
    return parser


def registered() -> tuple[Parser, ...]:
    return tuple(_PARSERS)


# Built-ins, registered explicitly (no import-time magic to trace).
register(pdf_format.PARSER)
register(docx_format.PARSER)
register(text_format.PARSER)
register(html_format.PARSER)
register(xlsx_format.PARSER)

SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(ext for p in _PARSERS for ext in p.extensions)


def _supported_list() -> str:
    return ", ".join(SUPPORTED_EXTENSIONS)


def parser_for(filename: str, head: bytes) -> Parser:
    """The best parser for this file, or UnsupportedFormat with a readable reason."""
    scored = [(p.score(filename, head), i, p) for i, p in enumerate(_PARSERS)]
    best = max(scored, key=lambda t: (t[0], -t[1]))  # ties: registration order
    if best[0] > 0:
        return best[2]
    ext = os.path.splitext(filename)[1].lower()
    if ext in (".doc", ".ppt", ".xls") or head.startswith(docx_format.OLE_MAGIC):
        raise UnsupportedFormat(
            "Old Microsoft Office files (.doc, .xls, .ppt) are not supported; save the file as .docx "
            f"or PDF and upload it again. Supported types are: {_supported_list()}."
        )
    kind = f"Files of type {ext}" if ext else "Files without a type (extension)"
    raise UnsupportedFormat(f"{kind} are not supported; supported types are: {_supported_list()}.")


def parse_document(data: bytes, filename: str, *, limits: ReadLimits | None = None) -> ParsedDocument:
    """Parse uploaded bytes. Raises ParseError (its str() is fit to show to the uploader) for every
    failure, including unexpected library errors, which are logged with their detail. `limits` bound what
    the cheap checks before parsing accept (zip bombs, page counts); the defaults when not given."""
    if not data or not data.strip():
        raise ParseError("The file is empty.")
    head = data[:HEAD_BYTES]
    parser = parser_for(filename, head)
    check_before_parse(parser.name, data, limits or ReadLimits())
    try:
        return parser.parse(data, filename)
    except ParseError:
        raise
    except MemoryError as exc:
        raise ParseError("The file is too large or complex to read.", detail=repr(exc)) from exc
    except Exception as exc:  # a library choking on a damaged or unusual file
        log.warning("parser %s failed on %r", parser.name, filename, exc_info=True)
        label = getattr(parser, "label", parser.name)
        raise ParseError(
            f"The file could not be read as a {label} document; it may be damaged or use a feature we cannot read.",
            detail=repr(exc),
        ) from exc
