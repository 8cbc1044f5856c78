"""Letter-spaced text put back into words, before headings are looked for.

Journals and theses space out the letters of some headings: Elsevier's small-capital "r e f e r e n c e s" (each
letter a span of its own, with zero-size spaces between them, which MuPDF returns as four lines "r e f",
" e r e n", " c", " e s" on one baseline), newsletters' "C O N T E N T S", and Chinese theses' "结  论",
"参 考 文 献", typed with spaces to fill the width of a two-character heading. Read as they are, such headings
are neither found nor named. Three steps, for the whole family rather than for one spelling:

- pieces of one printed line that MuPDF returns as separate lines of a block (same baseline, touching) are one
  line again (join_baseline_pieces);
- characters set as blocks of their own on one baseline are one block (join_spaced_characters);
- in a short block, a run of single letters separated by spaces is one word (unspace_letters).
"""

from __future__ import annotations

import re

from .pdf_layout import RawBlock, RawLine

# A line's pieces: on the same baseline (within this share of the line height) and no further apart than this
# share of it (a word space is about a quarter of the type size; a column gutter is several).
SAME_BASELINE = 0.2
MAX_GAP = 0.6
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Letters each standing alone, making up the whole line apart from a section number before them ("r e f e r e n c e
# s", "2 R E S U L T S"; words apart by wider spaces: "F E L I N E  F O C U S"), four at least: fewer could be
# variables ("a b c").
_NUMBER_RE = re.compile(r"^((?:\d+(?:\.\d+)*\.?|[IVXLC]+\.)\s+)?(.*?)\s*$")
_SPACED_RE = re.compile(r"(?:[^\W\d_] )*[^\W\d_]")
MIN_SPACED_LETTERS = 4
# A section number with a space after each dot ("1. 1 二级题目", "1. 1. 1 三级题目": xeCJK's spacing between Latin and
# CJK text), at the start of a line and followed by a space.
_SPACED_NUMBER_RE = re.compile(r"^\d{1,2}(?:\. \d{1,2})+(?= )")
# Two or more CJK characters with spaces between them: Chinese is written without spaces.
_SPACED_CJK_RE = re.compile(rf"[{_CJK}](?:[ \u3000]+[{_CJK}])+")


def join_baseline_pieces(lines: list[dict]) -> list[dict]:
    """MuPDF's lines of one block (get_text("dict")), with consecutive pieces of one printed line merged: the
    same baseline, the second starting where the first ends. Spans are kept, so sizes and fonts still count."""
    out: list[dict] = []
    for line in lines:
        prev = out[-1] if out else None
        if prev is not None and _continues_line(prev["bbox"], line["bbox"]):
            x0, y0, x1, y1 = prev["bbox"]
            bx0, by0, bx1, by1 = line["bbox"]
            out[-1] = {
                **prev,
                "spans": [*prev["spans"], *line["spans"]],
                "bbox": (min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)),
            }
            continue
        out.append(line)
    return out


def _continues_line(a: tuple, b: tuple) -> bool:
    height = max(a[3] - a[1], b[3] - b[1], 1e-6)
    same_baseline = abs(a[3] - b[3]) <= SAME_BASELINE * height and abs(a[1] - b[1]) <= SAME_BASELINE * height
    gap = b[0] - a[2]
    return same_baseline and -1.0 <= gap <= MAX_GAP * height


def unspace_letters(text: str) -> str:
    """ "r e f e r e n c e s" -> "references", "2 R E S U L T S" -> "2 RESULTS", "结  论" -> "结论",
    "参 考 文 献" -> "参考文献", "1. 1. 1 三级题目" -> "1.1.1 三级题目"; other text as it is. For short blocks only
    (headings, titles, labels): a line of body text may well hold single-letter variables."""
    text = _SPACED_NUMBER_RE.sub(lambda m: m.group(0).replace(" ", ""), text)
    text = _SPACED_CJK_RE.sub(lambda m: re.sub(r"[ \u3000]+", "", m.group(0)), text)
    number, rest = _NUMBER_RE.match(text).groups()
    words = re.split(r"\s{2,}", rest)
    if all(_SPACED_RE.fullmatch(w) for w in words) and sum(len(w) + 1 for w in words) // 2 >= MIN_SPACED_LETTERS:
        return (number or "") + " ".join(w.replace(" ", "") for w in words)
    return text


# A character set as a block of its own (a Chinese thesis's "结", "论" of "结    论", far enough apart for MuPDF
# to make each a block): such pieces on one baseline, each no further from the last than this many line heights,
# are one word again.
MAX_CHARACTER_GAP = 4.0


def join_spaced_characters(blocks: list[RawBlock]) -> list[RawBlock]:
    """Consecutive one-character blocks on one baseline, left to right, as one block: "结" "论" -> "结论",
    "附" "录" -> "附录". Only single characters join, so a cover's "学" "院：" or a table's cells stay apart."""
    out: list[RawBlock] = []
    run: list[RawBlock] = []
    for block in [*blocks, None]:
        if block is not None and _one_character(block) and (not run or _next_on_baseline(run[-1], block)):
            run.append(block)
            continue
        if len(run) >= 2:
            x0, y0, x1, y1 = (
                min(b.bbox[0] for b in run),
                min(b.bbox[1] for b in run),
                max(b.bbox[2] for b in run),
                max(b.bbox[3] for b in run),
            )
            text = "".join(b.text.strip() for b in run)
            out.append(
                RawBlock(lines=[RawLine(text=text, bbox=(x0, y0, x1, y1))], max_size=run[0].max_size, bold=run[0].bold)
            )
        else:
            out.extend(run)
        run = [block] if block is not None and _one_character(block) else []
        if block is not None and not run:
            out.append(block)
    return out


def _one_character(block: RawBlock) -> bool:
    text = block.text.strip()
    return len(block.lines) == 1 and len(text) == 1 and text.isalpha()


def _next_on_baseline(left: RawBlock, right: RawBlock) -> bool:
    a, b = left.bbox, right.bbox
    height = max(a[3] - a[1], b[3] - b[1], 1e-6)
    same_line = abs(a[3] - b[3]) <= SAME_BASELINE * height
    return same_line and left.max_size == right.max_size and 0 <= b[0] - a[2] <= MAX_CHARACTER_GAP * height
