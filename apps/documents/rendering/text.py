"""Markdown and plain text: each parsed block as an element, each of its source lines as an anchor `line-<n>`.

The lines come from the same decoded file the parser read, and a block is drawn from its own lines only when
they give back exactly the block's parsed text; otherwise the block's text is shown whole (anchored at its
first line), so what is highlighted is always what the chunk came from. Markdown gets headings, lists, code
and pipe tables; inline markup stays as written. Plain text keeps its lines, numbered in the margin.
"""

from __future__ import annotations

import re

from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.documents.parsing.blocks import Block, ParsedDocument

from .common import anchor, heading_tag, join, sections, table

LINE_SPLIT_RE = re.compile(r"\r\n|\r|\n")  # as the text parser splits lines
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL_RE = re.compile(r"^:?-+:?$")


def render_text(parsed: ParsedDocument, source: str) -> SafeString:
    lines = LINE_SPLIT_RE.split(source)
    markdown = parsed.doc_type == "md"
    info, ordinals = sections(parsed.blocks)
    out: list[SafeString] = []
    in_list = False
    for i, block in enumerate(parsed.blocks):
        if in_list and block.kind != "list_item":
            out.append(SafeString("</ul>"))
            in_list = False
        if block.kind == "list_item" and not in_list:
            out.append(SafeString('<ul class="doc-list">'))
            in_list = True
        own = lines[block.line_start - 1 : block.line_end] if block.line_start is not None else []
        css = "doc-caption" if info[i].caption else ""
        out.append(_block(block, ordinals[i], own, markdown, css))
    if in_list:
        out.append(SafeString("</ul>"))
    return join(out, "\n")


def _line(number: int, text: str) -> SafeString:
    return format_html('<span class="doc-line" id="line-{}" data-line="{}" data-unit>{}</span>', number, number, text)


def _lines(block: Block, texts: list[str], sep: str = "\n") -> SafeString:
    return join((_line(block.line_start + k, text) for k, text in enumerate(texts)), sep)


def _block(block: Block, ordinal: int | None, own: list[str], markdown: bool, css: str) -> SafeString:
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
        return format_html("<{}{}>{}</{}>", tag, anchor(block, ordinal, "doc-heading"), body, tag)
    if markdown and own and _FENCE_RE.match(own[0]) and "\n".join(own).strip() == text:
        return format_html("<pre{}>{}</pre>", anchor(block, ordinal, "doc-code"), _lines(block, own))
    if markdown and kind == "table" and "\n".join(stripped) == text:
        return _markdown_table(block, ordinal, stripped)
    tag = "li" if kind == "list_item" else "p"
    if not own or " ".join(stripped) != text:
        body = _line(block.line_start, text) if block.line_start is not None else text
    elif markdown:
        body = _lines(block, stripped)
    else:
        body = _lines(block, [line.rstrip() for line in own])
        css = (css + " doc-text-lines").strip()
    if kind == "list_item":
        css = (css + " doc-li").strip()
    return format_html("<{}{}>{}</{}>", tag, anchor(block, ordinal, css), body, tag)


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
