"""The shapes shared by the reference-list and in-text citation code, and by the Django layer that stores them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ReferenceEntry:
    """One entry of a document's reference list."""

    index: int  # 0-based position in the list
    number: int | None  # the printed label ("12." / "[12]"), None for author-year lists
    text: str  # the whole entry, reassembled across lines, columns and pages
    doi: str = ""
    year: int | None = None
    first_author: str = ""  # surname of the first author, as printed
    authors: list[str] = field(default_factory=list)  # surnames, as far as they could be found
    title: str = ""
    venue: str = ""
    chunk_indices: list[int] = field(default_factory=list)  # chunks whose text holds this entry
    page: int | None = None  # PDF page where the entry starts
    label: str = ""  # an alphabetic label ("Cop87") of alpha-style lists, which have no number


@dataclass
class CitationMention:
    """An in-text citation inside one chunk's text, resolved to reference entries."""

    chunk_index: int
    start: int  # character span in the chunk's (final) text
    end: int
    entry_indices: list[int]  # ReferenceEntry.index values it points to; never guessed
    numbers: list[int] = field(default_factory=list)  # printed numbers, for numeric styles
    style: str = "numeric"  # numeric | author-year | label
