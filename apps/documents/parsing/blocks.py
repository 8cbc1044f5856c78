"""Format-neutral result of parsing: an ordered list of body blocks with their locators.

Everything here is plain frozen data so parsers, the chunker and tests can share it without Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BLOCK_KINDS = ("heading", "paragraph", "list_item", "table", "caption")
DOC_TYPES = ("pdf", "docx", "md", "txt", "html", "xlsx")


@dataclass(frozen=True)
class Rect:
    """A rectangle on one page, in PDF points, origin top-left (as PyMuPDF reports it)."""

    page: int  # 1-based physical page
    x0: float
    y0: float
    x1: float
    y1: float

    def as_dict(self) -> dict:
        return {"page": self.page, "x0": self.x0, "y0": self.y0, "x1": self.x1, "y1": self.y1}


@dataclass(frozen=True)
class Block:
    kind: str  # one of BLOCK_KINDS
    text: str
    heading_path: tuple[str, ...] = ()
    para_no: int = 0  # global 0-based ordinal over body blocks
    page: int | None = None  # 1-based; PDF only
    rects: tuple[Rect, ...] = ()  # PDF line boxes
    para_id: str | None = None  # DOCX w14:paraId, else "p<ordinal>"; None for other formats
    line_start: int | None = None  # text files, 1-based inclusive; for xlsx the sheet's row numbers
    line_end: int | None = None
    # For the document viewer, which draws the same parse as HTML (apps/documents/rendering):
    label: str = ""  # DOCX list/heading number as Word shows it ("1.", "2.1", "a)", "•"); also in a list item text
    level: int = 0  # DOCX list nesting level (0 = outermost)
    cells: tuple[tuple[str, ...], ...] = ()  # tables (DOCX, HTML, XLSX): cell texts row by row; text joins them
    role: str = ""  # "contents" (a table of contents), "front_matter" (affiliations, e-mail, dates): see roles.py


@dataclass(kw_only=True)  # keyword-only so the field order can grow without breaking callers
class ParsedDocument:
    blocks: list[Block]
    metadata: dict = field(default_factory=dict)  # title, authors, ... when known
    page_count: int | None = None
    page_sizes: dict[int, tuple[float, float]] = field(default_factory=dict)  # page -> (width, height) pt
    needs_ocr_pages: list[int] = field(default_factory=list)  # 1-based pages without a usable text layer
    doc_type: str  # one of DOC_TYPES
