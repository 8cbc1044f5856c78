"""The viewer's pages: a document's drawn blocks (BlockHtml) cut into pages of bounded size, each page a run of
whole chunks, so the chunk a citation opens is always whole on one page and highlighted there.

A page closes once it holds PAGE_UNITS units (table rows, text lines, other blocks) or PAGE_BYTES of HTML, at the
next place where a chunk starts; a block cut there (a long sheet region, a long run of lines) is closed on one
page and opened again, with its anchors, on the next, so the viewer finds a chunk on its page by the same
locators as on a whole document. Where a chunk starts is known from the chunker's own record of its blocks
(ChunkDraft.blocks, .piece); inside a block cut into pieces, by the piece's first words among the block's units.
"""

from __future__ import annotations

import zlib
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from apps.documents.parsing.chunking import ChunkDraft

from .common import BlockHtml, join

PAGE_UNITS = 400  # rows or lines per page: a page opens at once and a sheet of 200,000 rows has 500 of them
PAGE_BYTES = 256 * 1024  # of HTML: a page of long paragraphs stays as light as a page of rows
_PREFIX_CHARS = 40  # of a piece's text, to find the unit it starts in

Position = tuple[int, int]  # (block, unit)


@dataclass(frozen=True)
class RenderedPages:
    """What the worker stores for the viewer: each page's HTML (zlib) and the chunks it holds (first, last)."""

    pages: list[bytes]
    ranges: list[tuple[int, int]]

    def page_of(self, chunk_index: int) -> int:
        return page_of([first for first, _ in self.ranges], chunk_index)


def page_of(firsts: Sequence[int], chunk_index: int) -> int:
    """The 0-based page that holds `chunk_index`, given each page's first chunk."""
    return max(bisect_right(firsts, chunk_index) - 1, 0)


def build_pages(blocks: list[BlockHtml], drafts: list[ChunkDraft]) -> RenderedPages:
    """The blocks cut into pages at chunk starts (one page when there are no chunks to cut at)."""
    starts = chunk_starts(blocks, drafts)
    first_chunk_at: dict[Position, int] = {}
    for index, position in enumerate(starts):
        first_chunk_at.setdefault(position, index)
    cuts: list[Position] = [(0, 0)]
    units = size = 0
    for b, block in enumerate(blocks):
        for u, unit in enumerate(block.units):
            if (units >= PAGE_UNITS or size >= PAGE_BYTES) and (b, u) in first_chunk_at and (b, u) != cuts[-1]:
                cuts.append((b, u))
                units = size = 0
            units += 1
            size += len(unit)
    end = (len(blocks), 0)
    pages = [zlib.compress(assemble(blocks, a, z).encode(), 6) for a, z in zip(cuts, [*cuts[1:], end], strict=True)]
    firsts = [first_chunk_at.get(cut, 0) for cut in cuts]
    firsts[0] = 0
    lasts = [first - 1 for first in firsts[1:]] + [max(len(drafts) - 1, 0)]
    return RenderedPages(pages=pages, ranges=list(zip(firsts, lasts, strict=True)))


def chunk_starts(blocks: list[BlockHtml], drafts: list[ChunkDraft]) -> list[Position]:
    """Where each chunk starts, in document order (never before the chunk ahead of it)."""
    out: list[Position] = []
    cursor: Position = (0, 0)
    for draft in drafts:
        if not draft.blocks or draft.blocks[0] >= len(blocks):
            position = cursor
        elif draft.piece and len(draft.blocks) == 1:  # a later piece of a block cut by the chunker
            b = draft.blocks[0]
            position = (b, _unit_of(blocks[b], draft.text, cursor[1] if cursor[0] == b else 0))
        else:
            position = (draft.blocks[0], 0)
        cursor = max(cursor, position)
        out.append(cursor)
    return out


def _unit_of(block: BlockHtml, text: str, start: int) -> int:
    """The unit (from `start` on) where a piece of the block's text begins; `start` when its words are not found."""
    if len(block.units) < 2 or not block.texts:
        return start
    first_line = text.split("\n", 1)[0].strip()
    prefix = " ".join(first_line[:_PREFIX_CHARS].split())
    if not prefix:
        return start
    texts = block.texts
    for u in range(start, len(texts)):
        # a piece may start near the end of a line and run on into the next
        joined = texts[u] if u + 1 == len(texts) else f"{texts[u]} {texts[u + 1]}"
        if prefix in " ".join(joined.split()):
            return u if prefix in texts[u] or u + 1 == len(texts) else u + 1
    return start


def assemble(blocks: list[BlockHtml], start: Position, end: Position) -> SafeString:
    """The HTML from `start` up to (not including) `end`: blocks cut there are closed and opened again, a list
    cut there is a list on both pages, and a page that starts inside a section says which (a sheet's name)."""
    out: list[SafeString] = []
    in_list = False
    last = end[0] if end[1] else end[0] - 1
    for b in range(start[0], min(last, len(blocks) - 1) + 1):
        block = blocks[b]
        first = start[1] if b == start[0] else 0
        stop = end[1] if b == end[0] else len(block.units)
        if in_list and not block.list_item:
            out.append(SafeString("</ul>"))
            in_list = False
        if first == 0 and block.before:
            out.append(mark_safe(block.before))  # built by the renderers, text escaped
        elif b == start[0] and start != (0, 0) and block.context:
            out.append(format_html('<p class="doc-section-label">{} (continued)</p>', block.context))
        if block.list_item and not in_list:
            out.append(SafeString('<ul class="doc-list">'))
            in_list = True
        out.append(mark_safe(block.open + block.sep.join(block.units[first:stop]) + block.close))
    if in_list:
        out.append(SafeString("</ul>"))
    return join(out, "\n")
