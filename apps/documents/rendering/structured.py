"""Word documents, web pages and workbooks: their parsed blocks as HTML elements, one element per block.

Headings keep the number Word shows ("2.1"), list items their label ("3.", "a)", "•") and nesting level,
tables their cells; a workbook region is a table whose rows carry their spreadsheet row numbers. A heading
path that appears without a heading block of its own (a workbook's sheet, DOCX footnotes) is shown as a
plain label so the reader knows where they are. Nothing of an uploaded page's own markup is kept.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.documents.parsing.blocks import Block, ParsedDocument

from .common import anchor, heading_tag, join, sections, table, table_rows

MAX_TABLE_ROWS = 20_000  # rows shown per document; a data dump past this is cut with a note, not sent whole


def render_structured(parsed: ParsedDocument) -> SafeString:
    blocks = parsed.blocks
    info, ordinals = sections(blocks)
    out: list[SafeString] = []
    in_list = False
    heading_paths: set[tuple[str, ...]] = set()
    previous_path: tuple[str, ...] = ()
    rows_left = MAX_TABLE_ROWS
    for i, block in enumerate(blocks):
        if in_list and block.kind != "list_item":
            out.append(SafeString("</ul>"))
            in_list = False
        path = block.heading_path
        if block.kind == "heading":
            heading_paths.add(path)
        elif path and path != previous_path and path not in heading_paths:
            heading_paths.add(path)
            name = f"Sheet “{path[-1]}”" if parsed.doc_type == "xlsx" else path[-1]
            out.append(format_html('<p class="doc-section-label">{}</p>', name))
        previous_path = path
        if block.kind == "table":
            rows = table_rows(block)
            shown = len(rows[:rows_left])
            if shown:
                out.append(_table(block, ordinals[i], rows, shown, parsed.doc_type))
            rows_left -= shown
            if shown < len(rows):
                out.append(_cut_note(block, shown))
                break
        elif block.kind == "list_item":
            if not in_list:
                out.append(SafeString('<ul class="doc-list">'))
                in_list = True
            out.append(_list_item(block, ordinals[i]))
        elif block.kind == "heading":
            out.append(_heading(block, ordinals[i]))
        else:
            caption = block.kind == "caption" or info[i].caption
            css = "doc-caption" if caption else "doc-pre" if "\n" in block.text else ""
            out.append(format_html("<p{}>{}</p>", anchor(block, ordinals[i], css), block.text))
    if in_list:
        out.append(SafeString("</ul>"))
    return join(out, "\n")


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


def _table(block: Block, ordinal: int | None, rows: list[tuple[str, ...]], shown: int, doc_type: str) -> SafeString:
    numbers = None
    if doc_type == "xlsx" and block.line_start is not None and block.line_end == block.line_start + len(rows) - 1:
        numbers = list(range(block.line_start, block.line_start + shown))  # a region: a run of consecutive rows
    return table(anchor(block, ordinal, "doc-table"), rows[:shown], row_numbers=numbers)


def _cut_note(block: Block, shown: int) -> SafeString:
    where = ""
    if block.line_start is not None and block.heading_path:  # a workbook: name the first row left out
        where = f" before row {block.line_start + shown} of the sheet “{block.heading_path[-1]}”"
    return format_html(
        '<p class="doc-cut" role="note">This document is too large to show whole: it is cut here{}, after {} '
        "table rows. Download the file to see the rest.</p>",
        where,
        MAX_TABLE_ROWS,
    )
