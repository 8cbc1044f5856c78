"""Headings of a PDF without a usable outline, found from type style.

Most journal PDFs carry no bookmarks (or generic ones: "Section_1"). Their section headings are short lines
in a style of their own (bold, or larger than the text). Which style that is differs per journal, so it is
learnt from the document: the lines whose text is a known section name ("Introduction", "2. Methods",
"References") show the section-heading style; every other short line in that style after the first of them
is a heading too. Nothing is guessed when section names are set in the body text's own style.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from ..sections import canonical_section, is_caption
from .pdf_heading_numbers import CLEARLY_LARGER, MATH_ENDS
from .pdf_layout import RawBlock, RawLine

Style = tuple[float, bool]

_MAX_CHARS = 150  # a heading is a line or two, never a paragraph
_MAX_LINES = 3
_PARAGRAPH_CHARS = 200  # a block of text this long in the body's style is the text, not the title block
_MIN_REPEATS = 3  # a style of the document's own headings recurs at least this often
_LEVELS_BY_STYLE = 3  # parts, sections, sub-sections: the recurring heading styles taken, largest first
_NUMBERED_RE = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+\S")
_ROMAN_RE = re.compile(r"^\s*[IVXLC]+\.\s+\S")
_SUB_RE = re.compile(r"^\s*\d+\.\d+(?:\.\d+)*\.?\s+[^\W\d_]")
# Sections whose unnumbered, unrecognised sibling-style headings are really their sub-headings (PLOS sets
# "Taxonomy" under "Results" in the same style); after back matter such a heading starts something new.
_APPENDIX_WORD_RE = re.compile(r"^\s*(appendix|附录)\s*$", re.IGNORECASE)
_APPENDIX_TITLED_RE = re.compile(r"^\s*(?:appendix|附录)\s*[A-Z\d]{0,2}[.:：]?\s+\S", re.IGNORECASE)
_PAIRS = (("“", "”"), ("(", ")"), ("[", "]"), ("（", "）"), ("「", "」"))  # quotes and brackets a title closes
BODY_SECTIONS = {"Introduction", "Methods", "Results", "Results and Discussion", "Discussion", "Objective"}


def style_headings(pages: list[list[RawBlock]]) -> tuple[list[list[RawBlock]], dict[int, int]]:
    """The pages, with section-name lines split out of glued heading blocks, and a heading level for each
    heading block (keyed by id()). Empty when the document shows no distinct section-heading style."""
    blocks = [b for page in pages for b in page]
    if not blocks:
        return pages, {}
    body = body_style(blocks)
    pages = [[part for b in page for part in _split_names(b, body)] for page in pages]
    run_on = sentences_run_on(pages)
    anchors = [
        b for page in pages for b in page if _short(b) and not _same_style(_style(b), body) and _is_section_name(b)
    ]
    anchors = [b for b in anchors if _emphasised(_style(b), body)]
    # One section name set well above the text (CLEARLY_LARGER: "本文参考文献" in 15 pt over 9 pt entries) shows the
    # style as clearly as two do; a single bold name of body size might be a run-in label.
    if len(anchors) < 2:
        repeated = repeated_style_headings(pages, body, run_on)
        if repeated or not (anchors and _style(anchors[0])[0] >= body[0] + CLEARLY_LARGER):
            return pages, repeated
    section_style = Counter(_style(b) for b in anchors).most_common(1)[0][0]
    numbered_doc = sum(bool(_NUMBERED_RE.match(b.text) or _ROMAN_RE.match(b.text)) for b in anchors) * 2 > len(anchors)
    # Section names set in capitals ("INTRODUCTION", "REFERENCES"): another heading in capitals in their style is
    # their sibling ("INPUT AND OPTIONS" after "INTRODUCTION"), not a sub-heading as in PLOS's mixed case.
    capital_sections = all(in_capitals(b.text) for b in anchors)
    anchor_ids = {id(b) for b in anchors}
    levels: dict[int, int] = {}
    started = False  # before the first section name: title, authors, journal lines share heading styles
    body_seen = False  # ... or before the first paragraph of text: the title block is over once the text began
    top_canonical: str | None = None
    for page in pages:
        for b in page:
            body_seen = body_seen or (_same_style(_style(b), body) and b.chars >= _PARAGRAPH_CHARS)
            if not started and body_seen and _same_style(_style(b), section_style) and _looks_like_heading(b):
                # The document's known section names come late ("Conclusion", "References" of an R vignette
                # whose other sections are its own: "Basic concept", "Usage in R"); its headings start earlier.
                started = True
            if id(b) in anchor_ids:
                started = True
                levels[id(b)] = _number_level(b.text) or 1
                if levels[id(b)] == 1:
                    top_canonical = canonical_section(b.text).name
                continue
            if not started or not _looks_like_heading(b) or id(b) in run_on:
                continue
            level = _number_level(b.text)
            if _same_style(_style(b), section_style):
                if level is None:
                    sibling = numbered_doc or (capital_sections and in_capitals(b.text))
                    level = 1 if sibling or top_canonical not in BODY_SECTIONS else 2
            elif not (level and level > 1 and _SUB_RE.match(b.text) and b.bold and not _same_style(_style(b), body)):
                continue  # numbered sub-heads ("2.1 Study site") may have a style of their own
            levels[id(b)] = level
            if level == 1:
                top_canonical = None
    return pages, levels


def repeated_style_headings(pages: list[list[RawBlock]], body: Style, run_on: set[int]) -> dict[int, int]:
    """Headings of a document whose section names are its own ("Editions", "Usage", "Shorthands"): short
    title-like lines in an emphasised style that recurs on several pages. The largest such style is the top
    level, the next one down level 2; a known section name in another emphasised style ("References" set as a
    chapter) is top level too. `run_on`: blocks whose sentence goes on (sentences_run_on), never headings."""
    candidates = [
        (pno, b)
        for pno, page in enumerate(pages)
        for b in page
        if len(b.lines) <= 2
        and id(b) not in run_on
        and _looks_like_heading(b)
        and not _same_style(_style(b), body)
        and _emphasised(_style(b), body)
    ]
    counts = Counter(_style(b) for _, b in candidates)
    pages_of: dict[Style, set[int]] = {}
    for pno, b in candidates:
        pages_of.setdefault(_style(b), set()).add(pno)
    # A style set in small caps ranks by its capitals: "TITLE I: …" (13.9 pt capitals over 11 pt small letters)
    # is above the 13 pt bold headings of a 12 pt text, not below them.
    printed: dict[Style, float] = {}
    for _, b in candidates:
        printed[_style(b)] = max(printed.get(_style(b), 0.0), b.caps_size, _style(b)[0])
    styles = sorted(
        (st for st, n in counts.items() if n >= _MIN_REPEATS and len(pages_of[st]) >= 2),
        key=lambda st: (-printed[st], not st[1]),
    )
    if not styles:
        return {}
    rank = {st: level for level, st in enumerate(styles[:_LEVELS_BY_STYLE], start=1)}
    levels = {}
    for _, b in candidates:
        level = next((lv for st, lv in rank.items() if _same_style(_style(b), st)), None)
        if level is None and _is_section_name(b):
            level = 1
        if level is not None:
            levels[id(b)] = _number_level(b.text) or level
    return levels


def _looks_like_heading(b: RawBlock) -> bool:
    """Short, starts like a title (capital or a number), does not end like a sentence, is not a caption."""
    text = b.text
    if not _short(b) or is_caption(text) or not re.search(r"[^\W\d_]{2}", text):
        return False
    if in_capitals(text) and re.search(r"[^\W\d_]{2}\.$", text.rstrip()):
        return True  # a heading in capitals may end in an abbreviation ("SECTIONS, SUBSECTIONS, EQUATIONS, ETC.")
    return not text[0].islower() and not text.rstrip().endswith((".", ",", ";", *MATH_ENDS))


def sentences_run_on(pages: list[list[RawBlock]]) -> set[int]:
    """Blocks (by id) whose sentence goes on in the next block: a bold phrase that fills a list item's first lines
    ("Title I, the “WIPO Copyright … Act of 1998,” implements the WIPO") over "treaties." at the same left edge.
    A heading is followed by a sentence of its own, which begins with a capital (or is Chinese, which has none),
    and closes the quotes and brackets it opens ("Title II, the “Online … Limitation" over "Act,” creates …")."""
    out: set[int] = set()
    for page in pages:
        lettered = [b for b in page if re.search(r"[^\W\d_]", b.text)]
        for b, after in itertools.pairwise(lettered):
            first = after.text.lstrip()
            below = after.bbox[1] - b.bbox[3]
            height = b.lines[-1].bbox[3] - b.lines[-1].bbox[1]
            same_edge = abs(after.bbox[0] - b.bbox[0]) <= 3
            goes_on = (first[:1].isascii() and first[:1].islower()) or _left_open(b.text)
            if goes_on and same_edge and -0.5 * height <= below <= 1.5 * height:  # line boxes may overlap
                out.add(id(b))
    return out


def _left_open(text: str) -> bool:
    return any(text.count(o) > text.count(c) for o, c in _PAIRS)


def in_capitals(text: str) -> bool:
    """Every Latin letter of `text` a capital (and some there)."""
    letters = [c for c in text if c.isalpha() and c.isascii()]
    return bool(letters) and all(c.isupper() for c in letters)


def _style(b: RawBlock) -> Style:
    return (round(b.max_size, 1), b.bold)


def _same_style(a: Style, b: Style) -> bool:
    return a[1] == b[1] and abs(a[0] - b[0]) <= 0.25


def body_style(blocks: list[RawBlock]) -> Style:
    """The style of most characters. Sizes one text is set in with a rounding jitter (9.9, 10.0, 10.1 pt: TeX's
    scaled fonts) count as one style, so a 9 pt margin column does not outweigh a 10 pt text split three ways."""
    weight: Counter[Style] = Counter()
    for b in blocks:
        weight[_style(b)] += b.chars
    if not weight:
        return (0.0, False)
    return max(weight, key=lambda st: (sum(n for other, n in weight.items() if _same_style(other, st)), weight[st]))


def _emphasised(style: Style, body: Style) -> bool:
    return (style[1] and not body[1] and style[0] >= body[0] - 1.6) or style[0] >= body[0] + 0.9


def _short(b: RawBlock) -> bool:
    return len(b.lines) <= _MAX_LINES and len(b.text) <= _MAX_CHARS


def _is_section_name(b: RawBlock) -> bool:
    return canonical_section(b.text) is not None


def _number_level(text: str) -> int | None:
    m = _NUMBERED_RE.match(text)
    if m:
        return min(m.group(1).count(".") + 1, 6)
    return 1 if _ROMAN_RE.match(text) else None


def _starts_section(line: RawLine) -> bool:
    return canonical_section(line.text.strip()) is not None or _number_level(line.text) is not None


def _split_names(b: RawBlock, body: Style) -> list[RawBlock]:
    """MuPDF may glue consecutive heading lines ("Results" over "Taxonomy") into one block; a line that is a
    section name on its own becomes its own block."""
    if len(b.lines) < 2 or len(b.lines) > 4 or _style(b) == body:
        return [b]
    # "APPENDIX" over "MEAN ADMISSION DELAY" (IEEE) is one heading: an appendix's title goes with the word, and
    # so does the rest of a title that runs over two lines ("Appendix B: A Template for an AGU++" over "Article").
    names = [
        canonical_section(ln.text.strip()) is not None
        and not _APPENDIX_WORD_RE.match(ln.text)
        and not (_APPENDIX_TITLED_RE.match(ln.text) and k + 1 < len(b.lines) and not _starts_section(b.lines[k + 1]))
        for k, ln in enumerate(b.lines)
    ]
    if not any(names):
        return [b]
    out: list[RawBlock] = []
    run: list = []
    for line, is_name in zip(b.lines, names, strict=True):
        if is_name:
            if run:
                out.append(RawBlock(lines=run, max_size=b.max_size, bold=b.bold))
                run = []
            out.append(RawBlock(lines=[line], max_size=b.max_size, bold=b.bold))
        else:
            run.append(line)
    if run:
        out.append(RawBlock(lines=run, max_size=b.max_size, bold=b.bold))
    return out
