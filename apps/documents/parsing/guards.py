"""Cheap checks made before a library opens a file, where the library would otherwise do the dangerous work.

- Word and Excel files are ZIP archives: their declared sizes are read from the central directory (no
  unpacking) and an archive that would unpack to more than the allowed total, or a part compressed far beyond
  what real documents reach, is refused as a zip bomb. Python's zipfile stops at a member's declared size,
  so a member cannot lie its way past this check.
- Their XML parts must not carry a DOCTYPE: Word and Excel never write one, and entity definitions in it are how
  entity-expansion ("billion laughs") attacks are built. libxml2 and expat also stop such expansion; this makes
  the refusal explicit, with a reason a person can read, instead of a parser error.
- PDFs above a page-count limit are refused before any page is read.

The memory and time bounds of the reading process (sandbox.py) catch what these checks cannot see, such as a
PDF content stream that inflates to gigabytes.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from .errors import ParseError

MB = 1024 * 1024
# A part must be at least this large before its compression ratio is held against it: small XML parts of
# real documents compress very well and are harmless.
_RATIO_FLOOR = 16 * MB
# How much of each XML part is searched for a DOCTYPE: it may only stand in the prolog, before the root element.
_PROLOG_BYTES = 64 * 1024
_XML_SUFFIXES = (".xml", ".rels", ".vml")
_SHOWN_NAME_CHARS = 80


@dataclass(frozen=True)
class ReadLimits:
    """The bounds one reading of a file must stay within; ingest fills them from the settings."""

    max_pdf_pages: int = 5000
    max_unzipped_mb: int = 512
    max_zip_ratio: int = 100


def check_before_parse(parser_name: str, data: bytes, limits: ReadLimits) -> None:
    """Raise ParseError (with a reason for the uploader) when the file must not be handed to its parser."""
    if parser_name in ("docx", "xlsx"):
        _check_office_zip(data, limits)
    elif parser_name == "pdf":
        _check_pdf(data, limits)


def _check_office_zip(data: bytes, limits: ReadLimits) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        return  # not an archive at all: the parser says "not a valid Word document" in its own words
    with archive:
        members = archive.infolist()
        total = sum(info.file_size for info in members)
        if total > limits.max_unzipped_mb * MB:
            raise ParseError(
                f"The file would unpack to {total / MB:,.0f} MB, more than the {limits.max_unzipped_mb} MB allowed; "
                "it looks like a zip bomb, so it was not unpacked."
            )
        for info in members:
            if info.file_size >= _RATIO_FLOOR and info.file_size > limits.max_zip_ratio * max(info.compress_size, 1):
                raise ParseError(
                    f"A part of the file ({_part_name(info)}) is compressed more than {limits.max_zip_ratio} to 1, "
                    "as zip bombs are; it was not unpacked."
                )
        for info in members:
            if info.filename.lower().endswith(_XML_SUFFIXES) and _declares_doctype(archive, info):
                raise ParseError(
                    f"A part of the file ({_part_name(info)}) carries an XML DOCTYPE declaration, which Word and Excel "
                    "never write and which entity-expansion attacks rely on; the file was not read."
                )


def _part_name(info: zipfile.ZipInfo) -> str:
    """A member's name as it may appear in a reason shown to people: it comes from the file, so it is cut short
    and loses control characters."""
    name = "".join(ch for ch in info.filename if ch.isprintable())
    return name if len(name) <= _SHOWN_NAME_CHARS else name[: _SHOWN_NAME_CHARS - 1] + "…"


def _declares_doctype(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    try:
        with archive.open(info) as member:
            prolog = member.read(_PROLOG_BYTES)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError):
        return False  # an unreadable part is the parser's to report
    return b"<!doctype" in prolog.lower() or b"<\x00!\x00d\x00o\x00c\x00t\x00y\x00p\x00e" in prolog.lower()


def _check_pdf(data: bytes, limits: ReadLimits) -> None:
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception:  # damaged files are the parser's to report, in its own words
        return
    try:
        pages = doc.page_count if not doc.needs_pass else 0
    except Exception:  # same: an unusable page tree is reported by the parser
        pages = 0
    finally:
        doc.close()
    if pages > limits.max_pdf_pages:
        raise ParseError(
            f"The PDF has {pages:,} pages, more than the {limits.max_pdf_pages:,} allowed; "
            "split it into smaller files and upload those."
        )
