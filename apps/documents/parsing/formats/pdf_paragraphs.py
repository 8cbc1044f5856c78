"""Lines of one paragraph that MuPDF returned as blocks of their own, joined back into one block.

Many PDFs (xeCJK and ctex output nearly always, Word exports often) give every visual line its own text block, so
each line would become a paragraph of its own and a sentence would be cut at every line end ("…专为工作论文写作而"
| "设计。"). Where a block ends and the next one continues the same paragraph is read from the geometry a typesetter
leaves, in any language:

- the next line is in the same type (size and weight) and right below, at the ordinary line spacing: at most one
  line height apart, or no further apart than lines of that size usually are on the page (Chinese theses and
  reports are set at 1.5 or double spacing, where the gap between two lines of a paragraph exceeds a line height);
- it starts at the paragraph's left edge, not indented further than the line before (a first-line indent starts
  a new paragraph) and not far to its left (another column); after the first line of an item of a list or of the
  references it may be indented: a hanging indent ("[3] 侯精一. … 研" | "究：首届…");
- it does not start an item of a list or of the references ("2.", "•", "[53]"), or a caption (a figure named
  inside a Chinese sentence, "…如" | "图1.3所示。", is not a caption: a caption has a space after its number);
- the line before is a line of running text (not a table cell or a centred caption: those are short);
- the line before is full: the next line's first word (a CJK character, or a Latin word and its space) would not
  have fitted after it before the column's right edge. A short last line is a paragraph's end.

The joined block keeps every line and its box, so the chunk's rectangles and quote placement work as before.

The opposite happens too: MuPDF puts a list item's first line into the block of the paragraph above it when both
are in one type ("… too many symbols)." | "• Size: The resulting …"), so the item would be read inside running
text. Before joining, a block is split where a line opens a list item after a line that ends a clause.
"""

from __future__ import annotations

import itertools
import re

from ..sections import is_caption
from ..sentences import cjk_count, is_list_item
from .pdf_layout import RawBlock, RawLine

LINE_GAP = 1.0  # largest gap between two lines of one paragraph, in line heights (CJK leading is about 0.7)
MAX_LINE_GAP = 2.5  # ... or the page's usual gap for the type size, up to this many line heights (double spacing)
# Baseline to baseline, in type sizes: a wrapped heading's lines are closer than this, a subtitle and the heading
# under it ("Please don't read on." over "Editions") further apart. A cover's title may be set as loose (dlnu's
# two-line Chinese title), so only a line that ends a sentence is cut off from the one below.
LOOSE_PITCH = 1.6
_ENDS_SENTENCE = re.compile(r"[.!?\u3002\uff01\uff1f]\s*$")
USUAL_SLACK = 1.15  # a gap this much over the usual one (plus a point) is a paragraph's or a section's spacing
RUNNING_WIDTH = 0.35  # a line this share of the page's text width wide is running text (a column's is ~0.48)
MIN_USUAL = 2  # line pairs of running text with one gap needed before it counts as the usual gap of its size
SAME_SIZE = 0.5  # points
INDENT = 0.8  # a line starting this many type sizes right of the line above is indented: a new paragraph
COLUMN = 4.0  # a line starting this many type sizes left of the line above is in another column or a figure
MIN_LINE = 12.0  # a line of running text is at least this many type sizes long (a narrow column's is ~20)
LATIN_CHAR = 0.5  # an average Latin character is about half the type size wide; a CJK character is the size
_FIRST_WORD = re.compile(r"\S+")
_REFERENCE_ENTRY = re.compile(r"^\s*[\[［【]\d{1,4}[\]］】]")
# A bullet glyph opens an item wherever it starts a line (short items end no clause: "• 動詞" | "• 形容詞"); a
# number or a dash may be inside a sentence.
# "图1.3所示" / "表2中": a figure or table named in running text, the number followed by the sentence's next word.
_NAMED_IN_TEXT = re.compile(r"^\s*[图表]\s*\d+(?:[.\-－]\d+)*[\u4e00-\u9fff]")
_BULLET = re.compile(r"^\s*[•●○◦▪■◆►‣]\s")
_ENDS_CLAUSE = re.compile(r"[.:;?!。：；？！]['\"”’)）]*\s*$")


def join_paragraph_lines(blocks: list[RawBlock], usual: dict[float, float] | None = None) -> list[RawBlock]:
    """One page's blocks in reading order, with each block that continues the paragraph of the one before
    appended to it (the blocks are changed in place; the list returned is new); a block is first split where a
    list item starts inside it. `usual` is usual_gaps() of the document (else of the page)."""
    blocks = [part for block in blocks for part in split_at_list_items(block)]
    if len(blocks) < 2:
        return list(blocks)
    right = _right_edges(blocks)
    usual = usual_gaps(blocks) if usual is None else usual
    out: list[RawBlock] = [blocks[0]]
    for block in blocks[1:]:
        previous = out[-1]
        if _continues(previous, block, right, usual):
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


def join_document_lines(pages: list[list[RawBlock]]) -> list[list[RawBlock]]:
    """join_paragraph_lines on every page, with the line spacing the whole document usually has."""
    usual = usual_gaps([block for blocks in pages for block in blocks], per_page=pages)
    return [join_paragraph_lines(blocks, usual) for blocks in pages]


def usual_gaps(blocks: list[RawBlock], per_page: list[list[RawBlock]] | None = None) -> dict[float, float]:
    """Type size -> the most common gap between one line and the next line below it (same size, overlapping
    horizontally) on the page, or over the pages of `per_page`: the leading the typesetter used, whatever the line
    spacing setting."""
    counts: dict[float, dict[float, int]] = {}
    for page in per_page if per_page is not None else [blocks]:
        _count_gaps(page, counts)
    out = {}
    for size, by_gap in counts.items():
        gap, n = max(by_gap.items(), key=lambda item: (item[1], -item[0]))
        if n >= MIN_USUAL:
            out[size] = gap
    return out


def _count_gaps(blocks: list[RawBlock], counts: dict[float, dict[float, int]]) -> None:
    lines = [(ln, b.max_size) for b in blocks for ln in b.lines]
    if not lines:
        return
    # Only lines of running text count (a share of the page's text width, the next line starting near them): the
    # rows of a table are often further apart than the lines of a paragraph.
    wide = RUNNING_WIDTH * (max(ln.bbox[2] for ln, _ in lines) - min(ln.bbox[0] for ln, _ in lines))
    for (a, size), (b, other) in itertools.pairwise(lines):
        height = a.bbox[3] - a.bbox[1]
        gap = b.bbox[1] - a.bbox[3]
        running = a.bbox[2] - a.bbox[0] >= wide and abs(a.bbox[0] - b.bbox[0]) <= COLUMN * size
        if abs(size - other) <= SAME_SIZE and running and 0 <= gap <= MAX_LINE_GAP * height:
            by_gap = counts.setdefault(round(size), {})
            by_gap[round(gap)] = by_gap.get(round(gap), 0) + 1


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


def _continues(
    previous: RawBlock, block: RawBlock, lines: list[tuple[float, float, float]], usual: dict[float, float]
) -> bool:
    if previous.bold != block.bold or abs(previous.max_size - block.max_size) > SAME_SIZE or not block.lines:
        return False
    last, first = previous.lines[-1], block.lines[0]
    size = previous.max_size or (last.bbox[3] - last.bbox[1])
    height = last.bbox[3] - last.bbox[1]
    gap = first.bbox[1] - last.bbox[3]
    limit = max(LINE_GAP * height, min(MAX_LINE_GAP * height, USUAL_SLACK * usual.get(round(size), 0.0) + 1.0))
    if first.bbox[1] <= last.bbox[1] or not -0.3 * height <= gap <= limit:
        return False
    if (
        round(size) not in usual
        and first.bbox[1] - last.bbox[1] > LOOSE_PITCH * size
        and _ENDS_SENTENCE.search(last.text)
    ):
        return False  # a size no running text is set in: a sentence, then a line this far below, are two headings
    indented = first.bbox[0] > last.bbox[0] + INDENT * size
    if (indented and not _hangs(previous, first, size)) or first.bbox[0] < last.bbox[0] - COLUMN * size:
        return False
    word = _FIRST_WORD.match(first.text.strip())
    if not word or is_list_item(first.text) or _REFERENCE_ENTRY.match(first.text):
        return False  # an item of a list or of the references starts a block of its own
    if is_caption(first.text) and not _NAMED_IN_TEXT.match(first.text):
        return False  # so does a caption
    if last.bbox[2] - last.bbox[0] < MIN_LINE * size:
        return False  # a table cell, a centred caption or a heading, not a line of running text
    # A CJK line breaks between any two characters; a Latin one before a word and its space.
    needed = size if cjk_count(word.group(0)[:1]) else (len(word.group(0)) + 1) * LATIN_CHAR * size
    return last.bbox[2] + needed > _column_right(last, size, lines)


def _hangs(previous: RawBlock, first: RawLine, size: float) -> bool:
    """Whether `first` is the indented second line of an item whose first line is all of `previous` (a reference
    entry or a list item set with a hanging indent)."""
    opening = previous.lines[0]
    labelled = is_list_item(opening.text) or _REFERENCE_ENTRY.match(opening.text)
    return bool(labelled) and len(previous.lines) == 1 and 0 < first.bbox[0] - opening.bbox[0] <= COLUMN * size
