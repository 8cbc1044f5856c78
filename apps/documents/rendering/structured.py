"""Word documents, web pages and workbooks: their parsed blocks as HTML elements, one element per block.

Headings keep the number Word shows ("2.1"), list items their label ("3.", "a)", "•") and nesting level,
tables their cells; a workbook region is a table whose rows carry their spreadsheet row numbers. A heading
path that appears without a heading block of its own (a workbook's sheet, DOCX footnotes) is shown as a
plain label so the reader knows where they are. Nothing of an uploaded page's own markup is kept.

Each block comes out as a BlockHtml (common.py), so the viewer's pages (pages.py) can cut a long table between
its rows; nothing is cut or left out here: the pages bound what one view sends.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.documents.parsing.blocks import Block, ParsedDocument

from .common import BlockHtml, anchor, heading_tag, sections, single, table_parts, table_rows


def structured_blocks(parsed: ParsedDocument) -> list[BlockHtml]:
    blocks = parsed.blocks
    info, ordinals = sections(blocks)
    out: list[BlockHtml] = []
    heading_paths: set[tuple[str, ...]] = set()
    previous_path: tuple[str, ...] = ()
    context = ""
    for i, block in enumerate(blocks):
        path = block.heading_path
        before = ""
        if block.kind == "heading":
            heading_paths.add(path)
            context = ""
        elif path and path != previous_path and path not in heading_paths:
            heading_paths.add(path)
            context = f"Sheet “{path[-1]}”" if parsed.doc_type == "xlsx" else path[-1]
            before = format_html('<p class="doc-section-label">{}</p>', context)
        previous_path = path
        if block.kind == "table":
            drawn = _table(block, ordinals[i], parsed.doc_type)
        elif block.kind == "list_item":
            drawn = single(_list_item(block, ordinals[i]), list_item=True)
        elif block.kind == "heading":
            drawn = single(_heading(block, ordinals[i]))
        else:
            caption = block.kind == "caption" or info[i].caption
            css = "doc-caption" if caption else "doc-pre" if "\n" in block.text else ""
            drawn = single(format_html("<p{}>{}</p>", anchor(block, ordinals[i], css), block.text))
        drawn.before, drawn.context = before, context
        out.append(drawn)
    return out


def _heading(block: Block, ordinal: int | None) -> SafeString:
    tag = heading_tag(block)
    # Word draws a heading's number beside it; the parse keeps it apart from the heading's text.
    label = format_html('<span class="doc-label doc-extra">{}</span> ', block.label) if block.label else ""
    return format_html("<{}{}>{}{}</{}>", tag, anchor(block, ordinal, "doc-heading"), label, block.text, tag)


def _list_item(block: Block, ordinal: int | None) -> SafeString:
    css = f"doc-li doc-level-{min(block.level, 8)}"
    label, text = block.label, block.text
    if label and text.startswith(label + " "):
        # The label is part of the item's parsed text (it is what the chunk says); shown apart only for layout.
        body = format_html('<span class="doc-label">{}</span> {}', label, text[len(label) + 1 :])
        return format_html("<li{}>{}</li>", anchor(block, ordinal, css), body)
    # No label in the parse (a web page's <li>): a plain marker, never an invented number.
    return format_html("<li{}>{}</li>", anchor(block, ordinal, css + " doc-li-plain"), text)


def _table(block: Block, ordinal: int | None, doc_type: str) -> BlockHtml:
    rows = table_rows(block)
    numbers = None
    if doc_type == "xlsx" and block.line_start is not None and block.line_end == block.line_start + len(rows) - 1:
        numbers = list(range(block.line_start, block.line_end + 1))  # a region: a run of consecutive rows
    return table_parts(anchor(block, ordinal, "doc-table"), rows, row_numbers=numbers)
