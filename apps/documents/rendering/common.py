"""Pieces every format's renderer shares: safe joining, the anchors of a block, and tables.

Anchors follow the parse that made the chunks, so the viewer finds a chunk by its locator and never by text:
`id="para-<para_id>"` (DOCX paraId, else "p<block ordinal>"), `data-para-no` (the paragraph ordinal the chunks
carry as para_start/para_end: the reference list has none), `data-line-start/end` (text files; XLSX rows).
`data-unit` marks the rows and lines inside a block, which the viewer may single out when a chunk is only a
piece of a long block; `doc-extra` marks what is shown but is not part of the parsed text (a heading's number,
a row number), so the viewer leaves it out when it compares a chunk's text with a block's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape  # what Django's escape calls, without its lazy-string wrapper (per cell)

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from apps.documents.parsing.blocks import Block
from apps.documents.parsing.chunking import paragraph_ordinals
from apps.documents.parsing.section_map import BlockSection, map_sections


def join(parts: Iterable[str], sep: str = "") -> SafeString:
    """Join pieces of HTML; anything not already marked safe is escaped, so no text can slip through raw."""
    return mark_safe(sep.join(conditional_escape(part) for part in parts))


def sections(blocks: list[Block]) -> tuple[list[BlockSection], list[int | None]]:
    """Each block's section (for captions) and its paragraph ordinal, computed exactly as the chunker does."""
    info = map_sections(blocks)
    return info, paragraph_ordinals(info)


def anchor(block: Block, ordinal: int | None, css: str = "") -> SafeString:
    """The attributes that make a block findable from a chunk's locator."""
    parts = [format_html(' id="para-{}"', block.para_id or f"p{block.para_no}")]
    if css:
        parts.append(format_html(' class="{}"', css))
    if ordinal is not None:
        parts.append(format_html(' data-para-no="{}"', ordinal))
    if block.line_start is not None:
        end = block.line_end if block.line_end is not None else block.line_start
        parts.append(format_html(' data-line-start="{}" data-line-end="{}"', block.line_start, end))
    return join(parts)


def heading_tag(block: Block) -> str:
    """h2 for a top-level heading, h3 below it, h4 for everything deeper (h1 is the page's own title)."""
    return f"h{min(max(len(block.heading_path), 1) + 1, 4)}"


def table_rows(block: Block) -> list[tuple[str, ...]]:
    """The table's cells row by row: from the parse, or split from the text for a parser that gives none."""
    if block.cells:
        return [tuple(row) for row in block.cells]
    return [tuple(line.split(" | ")) for line in block.text.split("\n")]


@dataclass
class BlockHtml:
    """One parsed block drawn as HTML, in pieces a page can be cut between: `units` are its rows or lines (one
    unit for a block that is never cut), `open` and `close` wrap whatever run of them a page holds, so a block
    cut by a page break is whole HTML on both pages. `texts` are the units' parsed text, to find where a chunk
    cut from the block starts; `before` is shown before the block's first unit only (a sheet's name), `context`
    at the top of a page that starts inside the block's section (the same name, continued)."""

    units: list[SafeString]
    open: str = ""  # HTML (built escaped), like every field but `texts` and `context`
    close: str = ""
    sep: str = ""
    texts: list[str] = field(default_factory=list)
    before: str = ""
    context: str = ""
    list_item: bool = False


def single(html: SafeString, *, list_item: bool = False) -> BlockHtml:
    """A block that is never cut: one unit."""
    return BlockHtml(units=[html], list_item=list_item)


def table_parts(
    attrs: SafeString,
    rows: list[tuple[str, ...]],
    *,
    row_numbers: list[int] | None = None,
    row_ids: list[str] | None = None,
    head_rows: int = 0,
    hidden_rows: frozenset[int] = frozenset(),
) -> BlockHtml:
    """A real <table> as a block a page may cut between its body rows (the head rows are drawn on every page);
    short rows are padded so the grid stays whole (the padding is not parsed text)."""
    width = max((len(row) for row in rows), default=0)
    html_rows = []
    for i, cells in enumerate(rows):
        tag = "th" if i < head_rows else "td"
        # Plain escaping instead of format_html per cell: a 200,000-row sheet is drawn once, at ingest.
        html_cells = "".join(f"<{tag}>{escape(cell)}</{tag}>" for cell in cells)
        html_cells += '<td class="doc-pad doc-extra"></td>' * (width - len(cells))
        row_attrs = []
        if row_ids:
            row_attrs.append(f' id="{escape(row_ids[i])}"')
        if i in hidden_rows:
            row_attrs.append(' class="doc-md-sep"')
        if row_numbers:
            row_attrs.append(f' data-row="{row_numbers[i]:d}"')
            html_cells = f'<th class="doc-rowno doc-extra" scope="row">{row_numbers[i]:d}</th>' + html_cells
        html_rows.append(SafeString(f"<tr{''.join(row_attrs)} data-unit>{html_cells}</tr>"))
    head = html_rows[:head_rows]
    thead = format_html("<thead>{}</thead>", join(head)) if head else ""
    return BlockHtml(
        units=html_rows[head_rows:],
        open=format_html('<div class="doc-table-wrap"><table{}>{}<tbody>', attrs, thead),
        close="</tbody></table></div>",
        texts=[" | ".join(row) for row in rows[head_rows:]],
    )


def table(attrs: SafeString, rows: list[tuple[str, ...]], **options) -> SafeString:
    """The whole table as one piece of HTML (table_parts' options)."""
    return whole(table_parts(attrs, rows, **options))


def whole(block: BlockHtml) -> SafeString:
    return mark_safe(block.open + block.sep.join(block.units) + block.close)
