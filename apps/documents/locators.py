"""Where a passage is in its document, as a person reads it and as a link opens it (design.md, "locators").

`Locator` is the place itself, the fields written once: a search hit and a citation are locators with more
(retrieval's ChunkSource extends it), the preview API sends one per passage, a stored citation keeps one. The place
a hit, a citation or a chunk points at is read from the same attributes on each of them, so the labels are written
once too, here, with the documents they describe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Protocol

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

if TYPE_CHECKING:
    from apps.documents.models import Chunk


@dataclass(kw_only=True)  # keyword-only: the classes extending it add their own fields in any order
class Locator:
    """Where a passage sits in its source and how precisely (design.md, Locators)."""

    section: str  # as printed: what a card shows
    section_key: str  # canonical ("Methods", "References") or "": what rules about kinds of sections use
    heading_path: list[str]
    chunk_type: str  # text | table | caption
    locator_precision: str  # bbox | paragraph | file
    locator_degraded: bool
    page: int | None
    page_end: int | None
    rects: list[dict]  # [{page, x0, y0, x1, y1}] in PDF points
    para_start: int | None
    para_end: int | None
    line_start: int | None  # text files: 1-based lines; spreadsheets: row numbers
    line_end: int | None
    ocr: bool = False  # the text was recognised by OCR on a page without a text layer (Chunk.locator["ocr"])

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Locator:
        """The place of anything serialised with a locator's fields (a search hit or a citation as JSON)."""
        return Locator(**{f.name: data[f.name] for f in fields(Locator) if f.name in data})

    @classmethod
    def fields_of(cls, chunk: Chunk) -> dict[str, Any]:
        """The locator's fields for a stored chunk, as keyword arguments for this class or one extending it."""
        stored = chunk.locator or {}
        return {
            "section": chunk.section,
            "section_key": chunk.section_key,
            "heading_path": list(chunk.heading_path or []),
            "chunk_type": chunk.chunk_type,
            "locator_precision": chunk.locator_precision,
            "locator_degraded": chunk.locator_degraded,
            "page": chunk.page,
            "page_end": chunk.page_end,
            "rects": list(stored.get("rects") or []),
            "para_start": chunk.para_start,
            "para_end": chunk.para_end,
            "line_start": chunk.line_start,
            "line_end": chunk.line_end,
            "ocr": bool(stored.get("ocr")),
        }


def page_size_of(chunk: Chunk) -> dict:
    """The sizes of the pages the chunk spans ({"4": [w, h]}), what a card's thumbnail and the viewer scale by."""
    if not chunk.page:
        return {}
    pages = {str(p) for p in range(chunk.page, (chunk.page_end or chunk.page) + 1)}
    return {p: size for p, size in ((chunk.locator or {}).get("page_sizes") or {}).items() if str(p) in pages}


class Placed(Protocol):
    """Anything that carries a passage's place: a SearchHit, a stored citation's source, a Chunk."""

    page: int | None
    page_end: int | None
    line_start: int | None
    line_end: int | None
    para_start: int | None
    para_end: int | None


def place_label(placed: Placed, *, first_only: bool = False) -> str:
    """The finest place the passage has, as a person counts it: "p. 4", "lines 12–18" (text files), "rows 2–40"
    (spreadsheets), "paragraph 12" (Word documents); "" when only the file is known. `first_only`: where it
    starts ("line 12"), for a link that opens there."""
    # The words come from the active language (the answer's, for a card: citations.display), one pair of
    # patterns a unit so each language orders number and word its own way ("p. 4", "第 4 页").
    if placed.page:
        return _span(_("p. %(n)s"), _("pp. %(first)s–%(last)s"), placed.page, placed.page_end, first_only)
    if placed.line_start:
        # Text files are cited by line, as their viewer highlights them; spreadsheets by their own row numbers.
        if getattr(placed, "doc_type", "") == "xlsx":
            one, many = pgettext("spreadsheet", "row %(n)s"), pgettext("spreadsheet", "rows %(first)s–%(last)s")
        else:
            one, many = _("line %(n)s"), _("lines %(first)s–%(last)s")
        return _span(one, many, placed.line_start, placed.line_end, first_only)
    if placed.para_start is not None:
        # Paragraph ordinals are counted from 0 in the index; people count from 1.
        last = placed.para_end if placed.para_end is not None else placed.para_start
        one, many = _("paragraph %(n)s"), _("paragraphs %(first)s–%(last)s")
        return _span(one, many, placed.para_start + 1, last + 1, first_only)
    return ""


def locator_label(placed: Placed) -> str:
    """Where the passage is, as a person reads it: "§ Methods · p. 4", "§ Results · paragraph 12"."""
    section = getattr(placed, "section", "")
    return " · ".join(part for part in (f"§ {section}" if section else "", place_label(placed)) if part)


def viewer_url(document_id: int, chunk_index: int, message_id: int | None = None, n: int | None = None) -> str:
    """The viewer opened at one chunk; with `message_id` and `n`, at citation n of that answer (its steps)."""
    url = reverse("document-viewer", args=[document_id]) + f"?chunk={chunk_index}"
    return url + (f"&message={message_id}&n={n}" if message_id and n else "")


def _span(one: str, many: str, first: int, last: int | None, first_only: bool) -> str:
    if first_only or not last or last == first:
        return one % {"n": first}
    return many % {"first": first, "last": last}
