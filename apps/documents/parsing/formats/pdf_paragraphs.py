"""Lines of one paragraph that MuPDF returned as blocks of their own, joined back into one block.

Many PDFs (xeCJK and ctex output nearly always, Word exports often) give every visual line its own text block, so
each line would become a paragraph of its own and a sentence would be cut at every line end ("…专为工作论文写作而"
| "设计。"). Where a block ends and the next one continues the same paragraph is read from the geometry a typesetter
leaves, in any language:

- the next line is in the same type (size and weight) and right below, at the ordinary line spacing;
- it starts at the paragraph's left edge, not indented further than the line before (a first-line indent starts
  a new paragraph) and not far to its left (another column);
- it does not start an item of a list or of the references ("2.", "•", "[53]"), or a caption;
- the line before is a line of running text (not a table cell or a centred caption: those are short);
- the line before is full: the next line's first word (a CJK character, or a Latin word and its space) would not
  have fitted after it before the column's right edge. A short last line is a paragraph's end.

The joined block keeps every line and its box, so the chunk's rectangles and quote placement work as before.

The opposite happens too: MuPDF puts a list item's first line into the block of the paragraph above it when both
are in one type ("… too many symbols)." | "• Size: The resulting …"), so the item would be read inside running
text. Before joining, a block is split where a line opens a list item after a line that ends a clause.
"""

from __future__ import annotations

import re

from ..sections import is_caption
from ..sentences import cjk_count, is_list_item
from .pdf_layout import RawBlock, RawLine

LINE_GAP = 1.0  # largest gap between two lines of one paragraph, in line heights (CJK leading is about 0.7)
SAME_SIZE = 0.5  # points
INDENT = 0.8  # a line starting this many type sizes right of the line above is indented: a new paragraph
COLUMN = 4.0  # a line starting this many type sizes left of the line above is in another column or a figure
MIN_LINE = 12.0  # a line of running text is at least this many type sizes long (a narrow column's is ~20)
LATIN_CHAR = 0.5  # an average Latin character is about half the type size wide; a CJK character is the size
_FIRST_WORD = re.compile(r"\S+")
_REFERENCE_ENTRY = re.compile(r"^\s*[\[［【]\d{1,4}[\]］】]")
# A bullet glyph opens an item wherever it starts a line (short items end no clause: "• 動詞" | "• 形容詞"); a
# number or a dash may be inside a sentence.
_BULLET = re.compile(r"^\s*[•●○◦▪■◆►‣]\s")
_ENDS_CLAUSE = re.compile(r"[.:;?!。：；？！]['\"”’)）]*\s*$")


def join_paragraph_lines(blocks: list[RawBlock]) -> list[RawBlock]:
    """One page's blocks in reading order, with each block that continues the paragraph of the one before
    appended to it (the blocks are changed in place; the list returned is new); a block is first split where a
    list item starts inside it."""
    blocks = [part for block in blocks for part in split_at_list_items(block)]
    if len(blocks) < 2:
        return list(blocks)
    right = _right_edges(blocks)
    out: list[RawBlock] = [blocks[0]]
    for block in blocks[1:]:
        previous = out[-1]
        if _continues(previous, block, right):
            previous.lines.extend(block.lines)
            previous.refresh()
        else:
            out.append(block)
    return out


def split_at_list_items(block: RawBlock) -> list[RawBlock]:
    """`block` cut before every line that opens a list item ("• Size: …", "2. …") where the line before ends a
    clause (".", ":", ";", "?") or the line opens with a bullet glyph: an item's own second line ("… (an ob-" |
    "ject …") and a line that happens to start with a number inside a sentence ("… in" | "2019 …") stay where
    they are."""
    parts: list[RawBlock] = []
    current: list[RawLine] = []
    for line in block.lines:
        if current and is_list_item(line.text) and (_ENDS_CLAUSE.search(current[-1].text) or _BULLET.match(line.text)):
            parts.append(RawBlock(lines=current, max_size=block.max_size, bold=block.bold))
            current = []
        current.append(line)
    if not parts:
        return [block]
    return [*parts, RawBlock(lines=current, max_size=block.max_size, bold=block.bold)]


def _right_edges(blocks: list[RawBlock]) -> list[tuple[float, float, float]]:
    """(left x, right x, type size) of every line on the page: the right edge of a line's column is the furthest
    any line starting near it reaches."""
    return [(ln.bbox[0], ln.bbox[2], b.max_size) for b in blocks for ln in b.lines]


def _column_right(line: RawLine, size: float, lines: list[tuple[float, float, float]]) -> float:
    x0 = line.bbox[0]
    reach = COLUMN * size
    return max(
        (r for left, r, s in lines if abs(left - x0) <= reach and abs(s - size) <= SAME_SIZE),
        default=line.bbox[2],
    )


def _continues(previous: RawBlock, block: RawBlock, lines: list[tuple[float, float, float]]) -> bool:
    if previous.bold != block.bold or abs(previous.max_size - block.max_size) > SAME_SIZE or not block.lines:
        return False
    last, first = previous.lines[-1], block.lines[0]
    size = previous.max_size or (last.bbox[3] - last.bbox[1])
    height = last.bbox[3] - last.bbox[1]
    gap = first.bbox[1] - last.bbox[3]
    if first.bbox[1] <= last.bbox[1] or not -0.3 * height <= gap <= LINE_GAP * height:
        return False
    if first.bbox[0] > last.bbox[0] + INDENT * size or first.bbox[0] < last.bbox[0] - COLUMN * size:
        return False
    word = _FIRST_WORD.match(first.text.strip())
    if not word or is_list_item(first.text) or _REFERENCE_ENTRY.match(first.text) or is_caption(first.text):
        return False  # an item of a list or of the references, or a caption, starts a block of its own
    if last.bbox[2] - last.bbox[0] < MIN_LINE * size:
        return False  # a table cell, a centred caption or a heading, not a line of running text
    # A CJK line breaks between any two characters; a Latin one before a word and its space.
    needed = size if cjk_count(word.group(0)[:1]) else (len(word.group(0)) + 1) * LATIN_CHAR * size
    return last.bbox[2] + needed > _column_right(last, size, lines)
