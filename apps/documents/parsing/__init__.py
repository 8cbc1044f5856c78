"""Parsing uploaded documents into located blocks, and packing them into chunks.

Pure Python (PyMuPDF, python-docx, lxml, openpyxl); no Django, no database.
"""

from .blocks import Block, ParsedDocument, Rect
from .chunking import ChunkDraft, chunk_document
from .errors import ParseError, UnsupportedFormat
from .guards import ReadLimits
from .registry import SUPPORTED_EXTENSIONS, Parser, parse_document, parser_for

__all__ = [
    "SUPPORTED_EXTENSIONS",
    "Block",
    "ChunkDraft",
    "ParseError",
    "ParsedDocument",
    "Parser",
    "ReadLimits",
    "Rect",
    "UnsupportedFormat",
    "chunk_document",
    "parse_document",
    "parser_for",
]
