"""Markdown and plain text: each parsed block as an element, each of its source lines as an anchor `line-<n>`.

The lines come from the same decoded file the parser read, and a block is drawn from its own lines only when
they give back exactly the block's parsed text; otherwise the block's text is shown whole (anchored at its
first line), so what is highlighted is always what the chunk came from. Markdown gets headings, lists, code
and pipe tables; inline markup stays as written. Plain text keeps its lines, numbered in the margin. A block
drawn line by line comes out as a BlockHtml (common.py) whose units are its lines, so a page may cut it there.
"""

from __future__ import annotations

import re

from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.documents.parsing.blocks import Block, ParsedDocument

from .common import BlockHtml, anchor, heading_tag, join, sections, single, table

LINE_SPLIT_RE = re.compile(r"\r\n|\r|\n")  # as the text parser splits lines
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL_RE = re.compile(r"^:?-+:?$")


def text_blocks(parsed: ParsedDocument, source: str) -> list[BlockHtml]:
    lines = LINE_SPLIT_RE.split(source)
    markdown = parsed.doc_type == "md"
    info, ordinals = sections(parsed.blocks)
    out: list[BlockHtml] = []
    for i, block in enumerate(parsed.blocks):
        own = lines[block.line_start - 1 : block.line_end] if block.line_start is not None else []
        css = "doc-caption" if info[i].caption else ""
        drawn = _block(block, ordinals[i], own, markdown, css)
        drawn.list_item = block.kind == "list_item"
        out.append(drawn)
    return out


def _line(number: int, text: str) -> SafeString:
    return format_html('<span class="doc-line" id="line-{}" data-line="{}" data-unit>{}</span>', number, number, text)


def _lines(block: Block, texts: list[str], sep: str = "\n") -> SafeString:
    return join((_line(block.line_start + k, text) for k, text in enumerate(texts)), sep)


def _by_lines(tag: str, attrs: SafeString, block: Block, texts: list[str]) -> BlockHtml:
    """A block drawn line by line, each line a unit a page may be cut after."""
    units = [_line(block.line_start + k, text) for k, text in enumerate(texts)]
    return BlockHtml(
        units=units,
        open=format_html("<{}{}>", tag, attrs),
        close=format_html("</{}>", tag),
        sep="\n",
        texts=[text.strip() for text in texts],
    )


def _block(block: Block, ordinal: int | None, own: list[str], markdown: bool, css: str) -> BlockHtml:
    stripped = [line.strip() for line in own]
    kind, text = block.kind, block.text
    if kind == "heading":
        tag = heading_tag(block)
        if len(own) == 1:  # "## Title": the line is the heading
            body = _line(block.line_start, text)
        elif " ".join(stripped[:-1]) == text:  # setext: text lines, then the underline
            body = join([_lines(block, stripped[:-1]), _line(block.line_end, "")], "\n")
        else:
            body = _line(block.line_start, text)
        return single(format_html("<{}{}>{}</{}>", tag, anchor(block, ordinal, "doc-heading"), body, tag))
    if markdown and own and _FENCE_RE.match(own[0]) and "\n".join(own).strip() == text:
        return _by_lines("pre", anchor(block, ordinal, "doc-code"), block, own)
    if markdown and kind == "table" and "\n".join(stripped) == text:
        return single(_markdown_table(block, ordinal, stripped))
    tag = "li" if kind == "list_item" else "p"
    item = " doc-li" if kind == "list_item" else ""
    if not own or " ".join(stripped) != text:
        body = _line(block.line_start, text) if block.line_start is not None else text
        attrs = anchor(block, ordinal, (css + item).strip())
        return single(format_html("<{}{}>{}</{}>", tag, attrs, body, tag))
    if markdown:
        return _by_lines(tag, anchor(block, ordinal, (css + item).strip()), block, stripped)
    attrs = anchor(block, ordinal, (css + " doc-text-lines" + item).strip())
    return _by_lines(tag, attrs, block, [line.rstrip() for line in own])


def _markdown_table(block: Block, ordinal: int | None, lines: list[str]) -> SafeString:
    rows = [tuple(cell.strip() for cell in _PIPE_RE.split(line.strip().strip("|"))) for line in lines]
    separator = next(
        (k for k, row in enumerate(rows) if row and all(_SEPARATOR_CELL_RE.match(c.replace(" ", "")) for c in row)),
        None,
    )
    return table(
        anchor(block, ordinal, "doc-table"),
        rows,
        row_ids=[f"line-{block.line_start + k}" for k in range(len(rows))],
        head_rows=separator or 0,
        hidden_rows=frozenset() if separator is None else frozenset({separator}),
    )
