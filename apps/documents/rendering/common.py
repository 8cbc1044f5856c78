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


def table(
    attrs: SafeString,
    rows: list[tuple[str, ...]],
    *,
    row_numbers: list[int] | None = None,
    row_ids: list[str] | None = None,
    head_rows: int = 0,
    hidden_rows: frozenset[int] = frozenset(),
) -> SafeString:
    """A real <table>; short rows are padded so the grid stays whole (the padding is not parsed text)."""
    width = max((len(row) for row in rows), default=0)
    html_rows = []
    for i, cells in enumerate(rows):
        tag = "th" if i < head_rows else "td"
        html_cells = [format_html("<{}>{}</{}>", tag, cell, tag) for cell in cells]
        html_cells += [mark_safe('<td class="doc-pad doc-extra"></td>')] * (width - len(cells))
        row_attrs = []
        if row_ids:
            row_attrs.append(format_html(' id="{}"', row_ids[i]))
        if i in hidden_rows:
            row_attrs.append(mark_safe(' class="doc-md-sep"'))
        if row_numbers:
            row_attrs.append(format_html(' data-row="{}"', row_numbers[i]))
            html_cells.insert(0, format_html('<th class="doc-rowno doc-extra" scope="row">{}</th>', row_numbers[i]))
        html_rows.append(format_html("<tr{} data-unit>{}</tr>", join(row_attrs), join(html_cells)))
    head, body = html_rows[:head_rows], html_rows[head_rows:]
    thead = format_html("<thead>{}</thead>", join(head)) if head else ""
    return format_html(
        '<div class="doc-table-wrap"><table{}>{}<tbody>{}</tbody></table></div>', attrs, thead, join(body)
    )
