"""Where a passage is in its document, as a person reads it and as a link opens it (design.md, "locators").

The place a search hit, a citation or a chunk points at is read from the same attributes on each of them (page,
page_end, line_start, line_end, para_start, para_end, doc_type, section), so the labels are written once, here,
with the documents they describe; search, citations, the viewer and the API read them from this module.
"""

from __future__ import annotations

from typing import Protocol

from django.urls import reverse


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
    if placed.page:
        return _span("p.", "pp.", placed.page, placed.page_end, first_only)
    if placed.line_start:
        # Text files are cited by line, as their viewer highlights them; spreadsheets by their own row numbers.
        one, many = ("row", "rows") if getattr(placed, "doc_type", "") == "xlsx" else ("line", "lines")
        return _span(one, many, placed.line_start, placed.line_end, first_only)
    if placed.para_start is not None:
        # Paragraph ordinals are counted from 0 in the index; people count from 1.
        last = placed.para_end if placed.para_end is not None else placed.para_start
        return _span("paragraph", "paragraphs", placed.para_start + 1, last + 1, first_only)
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
        return f"{one} {first}"
    return f"{many} {first}–{last}"
