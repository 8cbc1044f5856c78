"""Heading pieces MuPDF returns as separate blocks, put back together before headings are looked for.

- The section number set as a text run of its own ("1" | "Introduction", "2.1" | "Processing PDFs", "II." |
  "NETWORK MODEL, ..."): ACL, ACM, NeurIPS, LNCS, revtex and ctex headings are written that way, so the number
  is a block of its own on the same baseline, left of its title (sometimes listed after it).
- A heading printed over two lines ("I. INTRODUCTION: THE THERMODYNAMICS" over "OF DISTRIBUTED CONSENSUS",
  revtex; long IEEE and Springer headings): two one-line blocks in the same emphasised style, one right under
  the other, the first not ending like a sentence.
- Small capitals extracted with the larger first capital apart ("I. I NTRODUCTION", "R EFERENCES"): the words
  are joined again; so are letter-spaced words ("r e f e r e n c e s", "结  论", pdf_letter_spacing.py).
"""

from __future__ import annotations

import itertools
import re

from .pdf_headings import body_style
from .pdf_layout import RawBlock, RawLine
from .pdf_letter_spacing import join_spaced_characters, unspace_letters

# "1", "2.1", "3.2.1.", "§1.", "IV.", "A", "A.", "A.1", "第1章", "第 2 节", "附录A", "Appendix B", "Chapter 3"; the
# title follows on the same baseline.
_CHINESE_ORDINAL = r"第\s*[\d一二三四五六七八九十]{1,3}\s*"  # "第3", "第 三"
_APPENDIX_LABEL = r"(?:附录|Appendix|APPENDIX)\s*[A-Z]\.?"
_CHAPTER_LABEL = r"(?:Chapter|CHAPTER)\s+(?:\d{1,2}|[IVXLC]{1,6})"  # LaTeX's report and book classes
_NUMBER_ONLY_RE = re.compile(
    r"^\s*(?:(?:§\s*)?\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVXLC]{1,6}\.|[A-Z]\.?(?:\d{1,2}(?:\.\d{1,2})*)?|"
    rf"{_CHINESE_ORDINAL}[章节篇部]|{_APPENDIX_LABEL}|{_CHAPTER_LABEL})\s*$"
)
# A label in words, over a title that may be set in the text size: a chapter, part or appendix (not a 节).
_WORD_LABEL_RE = re.compile(rf"^\s*(?:{_CHINESE_ORDINAL}[章篇部]|{_APPENDIX_LABEL}|{_CHAPTER_LABEL})\s*$")
# A capital set apart from the rest of its small-capital word: "I NTRODUCTION", "R ELATED W ORK".
_SMALL_CAPS_RE = re.compile(r"\b([A-Z]) ([A-Z]{2,})\b")
_MAX_TITLE_CHARS = 160
_CHAPTER_LARGER = 4.0  # points above the body's size: a chapter's label and title, set large on lines of their own
# How a heading that may go on over a second line starts: a section number, or "Appendix".
_HEADING_START_RE = re.compile(r"^(?:(?:[IVXLC]+\.|\d+(?:\.\d+)*\.?|[A-Z]\.)\s+\S|APPENDIX\b|Appendix\b)")


def join_heading_fragments(pages: list[list[RawBlock]]) -> list[list[RawBlock]]:
    body = body_style([b for page in pages for b in page])
    for page in pages:
        for b in page:
            if len(b.lines) <= 2 and b.chars <= _MAX_TITLE_CHARS:
                for line in b.lines:
                    line.text = unspace_letters(join_small_caps(line.text))
                b.refresh()
    return [_join_two_line_headings(_join_numbers(join_spaced_characters(page), body), body) for page in pages]


def _join_numbers(blocks: list[RawBlock], body: tuple[float, bool]) -> list[RawBlock]:
    blocks = [part for b in blocks for part in _split_trailing_number(b)]
    out = list(blocks)
    used: set[int] = set()
    for i, number in enumerate(blocks):
        if len(number.lines) != 1 or not _NUMBER_ONLY_RE.match(number.text):
            continue
        title = _title_right_of(number, blocks, used)
        if title is not None:
            styled = title
        else:
            title = _title_below(i, blocks, used, body)
            if title is None:
                continue
            # A label over a title in another face (bold "Appendix A" over an italic title): the label's style is
            # the heading's, as the document sets its headings without a title under them ("Acknowledgements").
            styled = number if title.bold != number.bold else title
        j = next(k for k, b in enumerate(blocks) if b is title)
        line = title.lines[0]
        x0, y0, x1, y1 = number.bbox
        bbox = (min(x0, line.bbox[0]), min(y0, line.bbox[1]), max(x1, line.bbox[2]), max(y1, line.bbox[3]))
        merged = RawBlock(
            lines=[
                RawLine(text=f"{number.text.strip()} {line.text.strip()}", bbox=bbox, caps_size=line.caps_size),
                *title.lines[1:],
            ],
            max_size=styled.max_size,  # the title's style is the heading's (ctex sets only the number in bold)
            bold=styled.bold,
        )
        used.update({id(number), id(title)})
        first, second = min(i, j), max(i, j)
        out[first] = merged
        out[second] = None  # type: ignore[call-overload]
    return [b for b in out if b is not None]


def _split_trailing_number(b: RawBlock) -> list[RawBlock]:
    """ "4. SAMPLE-AGGREGATE FRAMEWORK" over "4.1" in one block, the "4.1" being the number of the next heading,
    set on the line below with its title as a block of its own."""
    if len(b.lines) < 2 or not _NUMBER_ONLY_RE.match(b.lines[-1].text):
        return [b]
    return [
        RawBlock(lines=b.lines[:-1], max_size=b.max_size, bold=b.bold),
        RawBlock(lines=b.lines[-1:], max_size=b.max_size, bold=b.bold),
    ]


def _title_right_of(number: RawBlock, blocks: list[RawBlock], used: set[int]) -> RawBlock | None:
    """The block whose first line sits on the number's line, starting just right of it."""
    _nx0, ny0, nx1, ny1 = number.bbox
    height = ny1 - ny0
    best = None
    for b in blocks:
        if b is number or id(b) in used or id(number) in used or len(b.text) > _MAX_TITLE_CHARS or len(b.lines) > 2:
            continue
        lx0, ly0, _lx1, ly1 = b.lines[0].bbox
        overlap = min(ny1, ly1) - max(ny0, ly0)
        gap = lx0 - nx1
        beside = overlap >= 0.5 * min(height, ly1 - ly0) and -1 <= gap <= max(3.0 * height, 30)
        if beside and re.search(r"[^\W\d_]", b.text) and (best is None or gap < best[0]):
            best = (gap, b)
    return best[1] if best else None


def _title_below(i: int, blocks: list[RawBlock], used: set[int], body: tuple) -> RawBlock | None:
    """A thesis chapter's label (block i) on a line of its own with the title under it ("Appendix A." over
    "Pointless extras", both in the chapter size): the next block, in the label's size well above the text's,
    left-aligned with it and at most three of its lines below."""
    number = blocks[i]
    if i + 1 >= len(blocks) or id(number) in used:
        return None
    title = blocks[i + 1]
    size = number.max_size
    # A label that is a word ("Appendix A", "第2章") announces its title whatever its size (APA sets "Appendix A"
    # over "Instrument" centred, bold, in the text's size); a bare number must be set large to say so.
    worded = bool(_WORD_LABEL_RE.match(number.text))
    # A chapter's title may run over three lines in its large type (report class); a bare number's over two.
    if (
        id(title) in used
        or len(title.lines) > (3 if worded else 2)
        or (size < body[0] + _CHAPTER_LARGER and not worded)
    ):
        return None
    gap = title.bbox[1] - number.bbox[3]
    centre = (title.bbox[0] + title.bbox[2]) / 2 - (number.bbox[0] + number.bbox[2]) / 2
    # The title may be set in another face than its label (PTP: "Appendix A" bold over "How to Make an Appendix"
    # in italics) when it is one line centred under it, as no paragraph is.
    centred_line = len(title.lines) == 1 and abs(centre) <= 20
    if worded and ((title.bold != number.bold and not centred_line) or title.text.rstrip().endswith(".")):
        return None
    aligned = abs(title.bbox[0] - number.bbox[0]) <= 20 or (worded and abs(centre) <= 20)
    same_size = abs(title.max_size - size) <= 0.5
    # Line boxes of a tight leading overlap a little (a Helvetica line box is 1.4 of its size tall).
    return (
        title
        if aligned and same_size and -0.3 * size <= gap <= 3 * size and re.search(r"[^\W\d_]{2}", title.text)
        else None
    )


def _join_two_line_headings(blocks: list[RawBlock], body: tuple[float, bool]) -> list[RawBlock]:
    out: list[RawBlock] = []
    for b in blocks:
        prev = out[-1] if out else None
        if prev is not None and _continues(prev, b, body):
            out[-1] = RawBlock(lines=[*prev.lines, *b.lines], max_size=prev.max_size, bold=prev.bold)
            continue
        out.append(b)
    return out


def _continues(first: RawBlock, second: RawBlock, body: tuple[float, bool]) -> bool:
    """`second` is the second line of the heading `first`: one line each, the same emphasised style, right
    under it and overlapping it horizontally, the first line numbered and not ending like a sentence, the
    second in the same case (an upper-case heading goes on in upper case)."""
    if len(first.lines) > 2 or len(second.lines) != 1 or len(first.text) + len(second.text) > _MAX_TITLE_CHARS:
        return False
    style = (round(first.max_size, 1), first.bold)
    if style != (round(second.max_size, 1), second.bold) or style == body or not (first.bold or style[0] > body[0]):
        return False
    a, b = first.lines[-1].bbox, second.bbox
    height = a[3] - a[1]
    # Line boxes of a tight leading overlap (a 12 pt face's box is 17 pt tall on a 14 pt pitch): the next line
    # starts at least half a line below this one's top and not more than 0.6 of a line below its bottom.
    gap = b[1] - a[3]
    if not (-0.4 * height <= gap <= 0.6 * height and b[1] - a[1] >= 0.5 * height):
        return False
    if min(a[2], b[2]) - max(a[0], b[0]) < 0:
        return False
    head, tail = first.text.strip(), second.text.strip()
    if head.endswith((".", ":", ";")) or not (_HEADING_START_RE.match(head) or _centred_capitals(first, second)):
        return False
    if re.match(r"^(?:[IVXLC]+\.|\d+(?:\.\d+)*\.?|[A-Z]\.)\s", tail):
        return False  # the next heading, not this one's second line
    return any(c.isalpha() for c in tail) and _capitals(head) == _capitals(tail)


def _capitals(text: str) -> bool:
    """Set in capitals: all letters but a name's few ("IEEE REFERENCE STYLE GUIDE … JACoW PAPERS,")."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _centred_capitals(first: RawBlock, second: RawBlock) -> bool:
    """An unnumbered heading in capitals centred over two lines (JACoW: "CHECKLIST FOR ELECTRONIC" over
    "PUBLICATION"): both lines in capitals, on one centre axis."""
    if not (_capitals(first.text) and _capitals(second.text)):
        return False
    a, b = first.lines[-1].bbox, second.bbox
    return abs((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2) <= 0.5 * (a[3] - a[1]) and b[2] - b[0] < a[2] - a[0] + 1


def join_small_caps(text: str) -> str:
    """ "I. I NTRODUCTION" -> "I. INTRODUCTION", "R ELATED W ORK" -> "RELATED WORK" (upper-case text only, where
    every split is a lone capital before an upper-case rest; "A NEW" alone is left as it is)."""
    letters = [c for c in text if c.isalpha()]
    if not letters or not all(c.isupper() for c in letters) or not _SMALL_CAPS_RE.search(text):
        return text
    words = text.split()
    splits = sum(1 for w, nxt in itertools.pairwise(words) if len(w) == 1 and w.isupper() and len(nxt) > 1)
    long_words = sum(1 for w in words if len(w) > 1 and w.isalpha())
    if splits < 0.6 * long_words:
        return text
    return _SMALL_CAPS_RE.sub(lambda m: m.group(1) + m.group(2), text)
