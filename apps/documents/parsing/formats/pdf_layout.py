"""Page-layout heuristics for PDFs: running header/footer removal and two-column reading order.

Kept apart from pdf.py so the geometry rules can be read (and tuned) on their own.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from ..hyphenation import Vocabulary
from ..textutil import join_lines
from .pdf_furniture import running_lines

BBox = tuple[float, float, float, float]


@dataclass
class RawLine:
    text: str
    bbox: BBox
    caps_size: float = 0.0  # the capitals' size when the line is set in (faked) small caps: see small_caps_size


@dataclass
class RawBlock:
    """One PyMuPDF text block, before it becomes a parsing.Block."""

    lines: list[RawLine]
    max_size: float = 0.0
    bold: bool = False  # the block's lines share one (size, bold) style: pdf.py splits blocks where it changes
    chars: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.chars = sum(len(ln.text.strip()) for ln in self.lines)

    @property
    def text(self) -> str:
        return self.joined()

    @property
    def caps_size(self) -> float:
        """The size its capitals are printed at when the block is set in small caps, else 0 (max_size is the
        small letters' size then: they are most of the characters)."""
        return max((ln.caps_size for ln in self.lines), default=0.0)

    def joined(self, vocabulary: Vocabulary | None = None) -> str:
        """The block's lines as one paragraph; `vocabulary` (the whole document's) decides line-end hyphens."""
        return join_lines([ln.text for ln in self.lines], vocabulary=vocabulary)

    @property
    def bbox(self) -> BBox:
        return (
            min(ln.bbox[0] for ln in self.lines),
            min(ln.bbox[1] for ln in self.lines),
            max(ln.bbox[2] for ln in self.lines),
            max(ln.bbox[3] for ln in self.lines),
        )


def split_side_by_side(block: RawBlock) -> list[RawBlock]:
    """MuPDF sometimes groups lines of two columns into one block when the producer wrote them
    interleaved. Lines whose horizontal extents fall into disjoint groups are separated again, so
    the column ordering below can put them in the right place."""
    if len(block.lines) < 2:
        return [block]
    spans = sorted((ln.bbox[0], ln.bbox[2]) for ln in block.lines)
    clusters: list[list[float]] = []
    for x0, x1 in spans:
        if clusters and x0 < clusters[-1][1]:
            clusters[-1][1] = max(clusters[-1][1], x1)
        else:
            clusters.append([x0, x1])
    if len(clusters) < 2:
        return [block]
    out = []
    for x0, x1 in clusters:
        lines = [ln for ln in block.lines if x0 <= ln.bbox[0] and ln.bbox[2] <= x1]
        out.append(RawBlock(lines=lines, max_size=block.max_size, bold=block.bold))
    return out


def drop_running_lines(pages: list[list[RawBlock]], heights: list[float], tables: list[int] | None = None) -> int:
    """Remove running headers, footers and page numbers (pdf_furniture.running_lines: text in the top/bottom
    margin bands that repeats across pages, digits ignored). Text seen on one page only is kept, so a title or
    first body line near the top is never lost. Returns how many lines were removed."""
    running = running_lines(pages, heights, tables)  # tables: how many tables were lifted off each page
    removed = 0
    for pno, blocks in enumerate(pages):
        kept_blocks = []
        for bno, block in enumerate(blocks):
            keep = [ln for lno, ln in enumerate(block.lines) if (pno, bno, lno) not in running]
            removed += len(block.lines) - len(keep)
            if keep:
                block.lines = keep
                block.refresh()
                kept_blocks.append(block)
        pages[pno] = kept_blocks
    return removed


_FULL_WIDTH = 0.6  # of the page width: a block this wide is no column's
_MIN_BESIDE_CHARS = 80  # characters of each column that stand beside the other column's text
_MIN_COLUMN_LINE_CHARS = 20  # a block of a column holds a line of text at least, not a page number or a label


def _find_column_split(blocks: list[RawBlock], width: float) -> float | None:
    """An x position that separates a left and a right column, or None for a one-column page.

    Candidates are scanned across the middle of the page; the best one is crossed by the least text
    (full-width blocks such as a title or a wide figure cross any split) and leaves a fair share of
    text on both sides."""
    total = sum(b.chars for b in blocks) or 1
    best: tuple[float, float, float] | None = None  # (crossing chars, -balance, distance to middle)
    best_x = None
    x = width * 0.3
    while x <= width * 0.7:
        left = sum(b.chars for b in blocks if b.bbox[2] <= x)
        right = sum(b.chars for b in blocks if b.bbox[0] >= x)
        cross = total - left - right
        if left >= 0.15 * total and right >= 0.15 * total and cross <= 0.6 * total:
            score = (cross, -min(left, right), abs(x - width / 2))
            if best is None or score < best:
                best, best_x = score, x
        x += 2.0
    return best_x


def _side_by_side_split(blocks: list[RawBlock], width: float) -> tuple[float, float, float] | None:
    """A split for a page that is one column for most of its height and two for a part (a reference list that
    ends in two columns above one-column appendices): full-width blocks left out, the split must leave text on
    both sides that stands side by side, left beside right, not a heading at the left and an equation's number
    at the right of two different lines."""
    narrow = [b for b in blocks if b.bbox[2] - b.bbox[0] < _FULL_WIDTH * width]
    narrow_ids = {id(b) for b in narrow}  # identity, not dataclass equality
    split = _find_column_split(narrow, width) if len(narrow) >= 3 else None
    if split is None:
        return None
    # Lines of text on both sides: a contents page's titles beside their page numbers are no two columns.
    left = [b for b in narrow if b.bbox[2] <= split and b.chars >= _MIN_COLUMN_LINE_CHARS]
    right = [b for b in narrow if b.bbox[0] >= split and b.chars >= _MIN_COLUMN_LINE_CHARS]

    def beside(side: list[RawBlock], other: list[RawBlock]) -> list[RawBlock]:
        return [b for b in side if any(min(b.bbox[3], o.bbox[3]) - max(b.bbox[1], o.bbox[1]) > 0 for o in other)]

    on_left, on_right = beside(left, right), beside(right, left)
    if min(sum(b.chars for b in on_left), sum(b.chars for b in on_right)) < _MIN_BESIDE_CHARS:
        return None
    # The two-column part runs from the first block that has the other column beside it to the last, and on
    # through the column's tail below it in the same type ("[4] …" under the right column's end); a larger line
    # (the one-column appendix's heading) or a full-width block ends it.
    pairs = on_left + on_right
    bottom = max(b.bbox[3] for b in pairs)
    size = sorted(b.max_size for b in pairs)[len(pairs) // 2]
    for b in sorted(blocks, key=lambda b: b.bbox[1]):
        if b.bbox[1] < bottom:
            continue
        if id(b) not in narrow_ids or b.max_size > size + 0.5:
            break
        bottom = b.bbox[3]
    return split, min(b.bbox[1] for b in pairs), bottom


def reading_order(blocks: list[RawBlock], width: float) -> list[RawBlock]:
    """Order blocks for reading. On two-column pages, full-width blocks cut the page into bands;
    within a band the left column is read top to bottom, then the right column."""
    by_position = sorted(blocks, key=lambda b: (round(b.bbox[1], 1), b.bbox[0]))
    if len(blocks) < 3:
        return by_position
    split = _find_column_split(blocks, width)
    region = (float("-inf"), float("inf"))  # the height where the page has two columns
    if split is None and (part := _side_by_side_split(blocks, width)):
        split, region = part[0], part[1:]
    if split is None:
        return by_position
    # A block across the split, or above or below the two-column part of the page, cuts the page into bands.
    spanning = [
        b for b in by_position if b.bbox[0] < split < b.bbox[2] or b.bbox[1] >= region[1] or b.bbox[3] <= region[0]
    ]
    spanning_ids = {id(b) for b in spanning}  # identity, not dataclass equality
    bands: list[list[RawBlock]] = [[] for _ in range(len(spanning) + 1)]
    for block in by_position:
        if id(block) in spanning_ids:
            continue
        band = sum(1 for s in spanning if s.bbox[1] < block.bbox[1])
        bands[band].append(block)
    ordered: list[RawBlock] = []
    for i, band_blocks in enumerate(bands):
        ordered += [b for b in band_blocks if b.bbox[2] <= split]
        ordered += [b for b in band_blocks if b.bbox[2] > split]
        if i < len(spanning):
            ordered.append(spanning[i])
    return ordered


# --- superscript citations -----------------------------------------------------------------------
# Nature-style papers print citations as superscript numbers glued to the word ("graphene¹²"); the
# text layer flattens them into "graphene12", which neither a reader nor the citation finder can
# tell from a word. Spans set clearly smaller than the line's body type and clearly raised above its
# baseline are rewritten as "[12]" so the numeric bracket rules apply downstream.
SUP_MAX_SIZE = 0.8  # superscript type is at most this share of the body size ...
SUP_MIN_RAISE = 0.12  # ... and its baseline sits at least this share of the body size higher
_SUP_CITE_RE = re.compile(r"^\d{1,3}(?:\s*[,\u2013\u2014-]\s*\d{1,3})*$")
_SUP_JOINER_RE = re.compile(r"^\s*[,\u2013\u2014-]\s*$")  # "," or "–" between two superscripts
# A single letter ("R²", "x²") or a number ("10¹²", ">10³") right before the superscript: an exponent.
_EXPONENT_BASE_RE = re.compile(r"(?:^|\s)[^\w\s]*(?:[^\W\d_]|[\d.,\u00d7]*\d)$")
# Units take exponents ("cm²", "m³", "s⁻¹"); a bare unit right before a superscript is not cited.
_UNIT_RE = re.compile(r"(?:^|[\s(/\u00b7])(?:[kmcµμnpd]?m|[kmµμn]?[gslL]|ft|in|mol|Hz)$")


def body_size(spans: list[dict]) -> float:
    """The type size carrying most characters among the spans (a block's or a line's body text)."""
    weight: dict[float, int] = {}
    for span in spans:
        n = len(span["text"].strip())
        if n:
            key = round(span["size"], 1)
            weight[key] = weight.get(key, 0) + n
    return max(weight, key=weight.get) if weight else 0.0


def _is_superscript(span: dict, size: float, baseline: float) -> bool:
    return span["size"] <= SUP_MAX_SIZE * size and baseline - span["origin"][1] >= SUP_MIN_RAISE * size


def footnote_labels(lines: list[dict]) -> set[str]:
    """Numbers set small at the start of a line ("¹ Arrays are ...", "³Department of ..."): footnote and
    affiliation labels. The same number as a superscript elsewhere on the page is their mark, not a citation."""
    out = set()
    for ln in lines:
        spans = [s for s in ln["spans"] if s["text"].strip()]
        small = len(spans) >= 2 and spans[0]["size"] <= SUP_MAX_SIZE * max(s["size"] for s in spans[1:])
        if small and spans[0]["text"].strip().isdigit():
            out.add(spans[0]["text"].strip())
    return out


def line_text(spans: list[dict], size: float, front_matter: bool = False, labels: frozenset = frozenset()) -> str:
    """The line's text with superscript citation numbers bracketed ("word12" -> "word[12]").

    `size` is the body size of the surrounding block; `front_matter` marks lines near the top of page 1,
    where several superscripts in one line are author/affiliation marks; `labels` are footnote_labels()."""
    plain = "".join(span["text"] for span in spans)
    body = [s for s in spans if abs(s["size"] - size) <= 0.15 * size and s["text"].strip()]
    if not body or not size:
        return plain
    baseline = max(s["origin"][1] for s in body)
    sup = [bool(s["text"].strip()) and _is_superscript(s, size, baseline) for s in spans]
    for i in range(1, len(spans) - 1):  # a body-size comma or dash between two superscripts joins them
        if not sup[i] and sup[i - 1] and sup[i + 1] and _SUP_JOINER_RE.match(spans[i]["text"]):
            sup[i] = True
    clusters: list[tuple[int, int]] = []  # [start, end) span ranges of consecutive superscripts
    for i, flag in enumerate(sup):
        if flag and clusters and clusters[-1][1] == i:
            clusters[-1] = (clusters[-1][0], i + 1)
        elif flag:
            clusters.append((i, i + 1))
    if not clusters or (front_matter and len(clusters) >= 2):
        return plain  # several marks in one line at the top of page 1: an author or affiliation line
    out: list[str] = []
    pos = 0
    for start, end in clusters:
        before = "".join(s["text"] for s in spans[:start])
        mark = "".join(s["text"] for s in spans[start:end])
        core = mark.strip().rstrip(",")
        after = "".join(s["text"] for s in spans[end:])
        if core in labels or after[:1].isalnum() or not _cites(before, core):
            continue
        out.append("".join(s["text"] for s in spans[pos:start]))
        lead = mark[: len(mark) - len(mark.lstrip())]
        out.append(f"{lead}[{core}]{mark.strip()[len(core) :]}{mark[len(mark.rstrip()) :]}")
        pos = end
    out.append("".join(s["text"] for s in spans[pos:]))
    return "".join(out)


def _cites(before: str, core: str) -> bool:
    """Whether a superscript reads as a citation: numbers only, after some text, not an exponent."""
    if not _SUP_CITE_RE.match(core) or not before.strip():
        return False
    tail = before.rstrip()
    return not (_EXPONENT_BASE_RE.search(tail) or _UNIT_RE.search(tail))


def small_caps_size(spans: list[dict]) -> float:
    """The capitals' size of a line set in small caps by changing the type size (Word, WordPerfect: "T" 13.9 pt
    and "ITLE" 11 pt in a 12 pt text), or 0. Its signature: every letter a capital, and a word that begins in the
    larger size and goes on in the smaller one with nothing between them."""
    spans = [s for s in spans if s["text"]]
    text = "".join(s["text"] for s in spans)
    if not any(c.isalpha() for c in text) or any(c.isalpha() and not c.isupper() for c in text):
        return 0.0
    for prev, span in itertools.pairwise(spans):
        smaller = round(span["size"], 1) < round(prev["size"], 1) - 0.5
        if smaller and prev["text"][-1:].isalpha() and span["text"][:1].isalpha():
            return max(round(s["size"], 1) for s in spans)
    return 0.0
