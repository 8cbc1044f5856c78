"""Headings from a PDF's outline (its bookmarks): the entries found printed as blocks, at the outline's levels,
with the section names the outline leaves out (References, Acknowledgements) added at the top level. The first
kind of evidence pdf_heading_levels weighs.
"""

from __future__ import annotations

import re
from collections import Counter

from ..sections import DECLARATIONS, canonical_section, is_han
from ..textutil import normalise_for_match
from .pdf_furniture import CONTENTS_TITLE_RE
from .pdf_heading_numbers import heading_like, parse_label
from .pdf_layout import RawBlock

Levels = dict[int, int]  # id(RawBlock) -> heading level (1 = top)
_OUTLINE_NUMBER_RE = re.compile(r"^\s*[\dIVX.]+\s+")
_APPENDIX_LABEL_RE = re.compile(r"^\s*(?:附录|appendix)\s*[A-Z]\b[.:：]?\s*", re.IGNORECASE)


def outline_levels(pages: list[list[RawBlock]], toc: list) -> Levels:
    """Outline entries printed as blocks, with their outline level (1 = top)."""
    toc = _without_title_entry(toc)
    by_page: dict[int, list[list]] = {}
    for level, title, page, *rest in toc:
        key = normalise_for_match(_OUTLINE_NUMBER_RE.sub("", title))
        if key and page >= 1:
            by_page.setdefault(page, []).append([level, key, False, rest[0] if rest else None])
    levels: Levels = {}
    carried: list[list] = []  # entries of the page before that point below its last text
    for pno, raw_blocks in enumerate(pages, start=1):
        for entry in by_page.get(pno, []):
            # An entry that points at a place: the matching block nearest below that place is its heading (a
            # contents list on the same page names it too, in a type as large).
            if entry[3] is not None and (raw := _pointed_at(raw_blocks, entry, levels)) is not None:
                levels[id(raw)] = entry[0]
                entry[2] = True
        _match_at_top(raw_blocks, carried, levels)
        # Largest type first: a section that starts on the contents page is named twice there, and its entry
        # belongs to the heading, not to its line in the contents list ("第1节 简介" in ctexart's 目录).
        for raw in sorted(raw_blocks, key=lambda b: -b.max_size):
            if id(raw) in levels:
                continue
            level = _match_outline(by_page.get(pno, []), raw.text) if raw.text else None
            if level is not None:
                levels[id(raw)] = level
        # Entries found nowhere on their page that point below its last text: tried at the next page's top.
        carried = [e for e in by_page.get(pno, []) if not e[2] and _below_text(raw_blocks, e[3])]
    _styled_at_destination(pages, by_page, levels)
    return levels


def _styled_at_destination(pages: list[list[RawBlock]], by_page: dict[int, list[list]], levels: Levels) -> None:
    """Entries whose text is printed nowhere: LaTeX's short title for the outline ("Guidelines for NEJM" for the
    printed "3 Guidelines for New England Journal of Medicine"). The entry still points at its heading: a
    heading-shaped block at its destination, in the style the entries of its level are printed in."""
    styles: dict[int, set[tuple[float, bool]]] = {}
    for page in pages:
        for b in page:
            if id(b) in levels:
                styles.setdefault(levels[id(b)], set()).add(block_style(b))
    for pno, entries in by_page.items():
        if pno > len(pages):
            continue
        for entry in entries:
            if entry[2] or entry[3] is None:
                continue
            near = [
                b
                for b in pages[pno - 1]
                if id(b) not in levels
                and _at_destination(b, entry[3])
                and _heading_shaped(b)
                and block_style(b) in styles.get(entry[0], ())
            ]
            if near:
                levels[id(min(near, key=lambda b: abs(b.bbox[1] - entry[3])))] = entry[0]
                entry[2] = True


_POINT_SLACK = 24.0  # points: a destination lies about a line above its heading's top at most (hyperref)
_PAGE_TOP = 60.0  # points below a page's first text within which a heading pushed over from the page before lies


def _below_text(raw_blocks: list[RawBlock], top: float | None) -> bool:
    """The destination lies below every text block of its page but one-line furniture (a page number)."""
    return top is not None and all(b.bbox[1] < top - 4.0 for b in raw_blocks if len(b.lines) > 1)


def _match_at_top(raw_blocks: list[RawBlock], carried: list[list], levels: Levels) -> None:
    """hyperref sets a section's anchor where the section began, at the foot of a page, when its heading did not
    fit there and went to the next page's top ("2. Mission" pointed at page 1 below its last line, printed at
    the head of page 2's column): such an entry names a block at the top of the next page."""
    if not carried or not raw_blocks:
        return
    first = min(b.bbox[1] for b in raw_blocks)
    for raw in raw_blocks:
        if id(raw) not in levels and raw.text and raw.bbox[1] <= first + _PAGE_TOP:
            level = _match_outline(carried, raw.text)
            if level is not None:
                levels[id(raw)] = level


def _pointed_at(raw_blocks: list[RawBlock], entry: list, taken: Levels) -> RawBlock | None:
    """The block `entry` points at: one that matches it, whose top lies at or just below the entry's destination.
    There the printed heading may also be longer than the entry (LaTeX's short title for the outline: "Bug reports
    for core LaTeX2ε and packages" for "… packages maintained by the Project Team")."""
    top, key = entry[3], entry[1]

    def longer(b: RawBlock) -> bool:
        return (
            len(key) >= 8
            and _heading_shaped(b)
            and normalise_for_match(_OUTLINE_NUMBER_RE.sub("", b.text)).startswith(key)
        )

    near = [
        b
        for b in raw_blocks
        if id(b) not in taken
        and b.text
        and _at_destination(b, top)
        and len(b.text) <= 300
        and (_match_outline([[entry[0], key, False]], b.text) is not None or longer(b))
    ]
    return min(near, key=lambda b: abs(b.bbox[1] - top), default=None)


def _at_destination(block: RawBlock, top: float) -> bool:
    """The block's top lies at an outline destination or just below it (the heading it points at)."""
    return -4.0 <= block.bbox[1] - top <= _POINT_SLACK


def _heading_shaped(block: RawBlock) -> bool:
    """Two lines at most and no sentence in it: a heading, not a paragraph run in after one ("Update to xr The xr
    package has been updated so that …")."""
    return len(block.lines) <= 2 and not re.search(r"[.!?:]\s|[.!?]$", block.text)


def with_unlisted_names(pages: list[list[RawBlock]], levels: Levels) -> Levels:
    """Section names the outline leaves out (ctex outlines often stop before "参考文献", theses list neither
    "Abstract" nor "目录") but printed in the size of its top-level entries: top level too. The weight may differ
    (a thesis sets "Abstract" in a bold Latin face beside its regular CJK "摘要") where that size is above the
    body's."""
    blocks = [b for page in pages for b in page]
    top = min(levels.values())
    styles = Counter(block_style(b) for b in blocks if levels.get(id(b)) == top)
    if not styles:
        return levels
    top_size, top_bold = styles.most_common(1)[0][0]
    body_size = body_block_style(blocks)[0]  # in this module's half-point sizes, like top_size
    out = dict(levels)
    after_sections = _after_numbered_sections(blocks, levels, top)
    seen = Counter(normalise_for_match(b.text) for b in blocks)
    for i, b in enumerate(blocks):
        if id(b) in levels or len(b.lines) > 2 or parse_label(b.text) is not None:
            continue
        size, bold = block_style(b)
        name = canonical_section(b.text)
        standalone = len(b.lines) == 1 and not b.text.rstrip().endswith((".", ":"))  # not a run-in label
        if name is not None and name.name in DECLARATIONS and standalone and (bold or size > body_size + 0.9):
            out[id(b)] = top  # USENIX and NeurIPS set "Acknowledgements" a size smaller, as an unnumbered subsection
            continue
        # One half-point step apart is one size: a Latin face and a CJK face of one size differ in their boxes.
        if abs(size - top_size) > 0.5 or (bold != top_bold and top_size <= body_size + 0.9):
            continue
        if name is not None or CONTENTS_TITLE_RE.match(b.text.strip()):
            out[id(b)] = top
        elif (
            i in after_sections
            and top_size > body_size + 0.9  # set larger than the text: bold alone is also a table's or a term's
            and (size, bold) == (top_size, top_bold)
            and standalone
            and heading_like(b, None)
            and _named(b.text)
            and seen[normalise_for_match(b.text)] == 1
        ):
            # A section the outline leaves out in the very style of its top-level entries (JSS's unnumbered
            # "Computational details"), after the numbered sections (not a diagram's title inside one).
            out[id(b)] = top
    return out


def _after_numbered_sections(blocks: list[RawBlock], levels: Levels, top: int) -> range:
    """Indexes of the blocks after the last numbered top-level section has ended: after its last numbered
    sub-heading ("4.2 …" under "4. Summary"), or after it when it has none; after the first top-level heading when
    none is numbered."""
    numbered = [
        (i, label)
        for i, b in enumerate(blocks)
        if levels.get(id(b)) == top and (label := parse_label(b.text)) is not None and label.scheme != "letter"
    ]  # lettered top-level headings are appendices, after the back matter
    if not numbered:  # unnumbered chapters: after the first of them (the title above may share their style)
        return range(next(i for i, b in enumerate(blocks) if levels.get(id(b)) == top) + 1, len(blocks))
    last, label = numbered[-1]
    return past_subsections(blocks, last, label.numbers[0], lambda b: id(b) in levels)


def past_subsections(blocks: list[RawBlock], last: int, n: int, is_heading) -> range:
    """The blocks after section `n` (its heading at `last`) and its numbered sub-headings "n.1", "n.1.2", …"""
    for i in range(last + 1, len(blocks)):
        sub = parse_label(blocks[i].text) if is_heading(blocks[i]) else None
        if sub is not None and sub.scheme == "arabic" and len(sub.numbers) > 1 and sub.numbers[0] == n:
            last = i
    return range(last + 1, len(blocks))


def _named(text: str) -> bool:
    """Long enough to name a section: not a chapter's numeral alone ("一") or a table's label ("HTT")."""
    letters = sum(ch.isalpha() for ch in text)
    cjk = sum(map(is_han, text))
    return cjk >= 3 or letters - cjk >= 6


def _without_title_entry(toc: list) -> list:
    """revtex and Elsevier outlines put the article title at level 1 and every section under it."""
    if not toc:
        return toc
    top = min(entry[0] for entry in toc)
    at_top = [entry for entry in toc if entry[0] == top]
    if len(at_top) == 1 and toc[0] is at_top[0] and len(toc) >= 3:
        return [[entry[0] - 1, *entry[1:]] for entry in toc[1:]]
    return toc


def _match_outline(candidates: list[list], text: str) -> int | None:
    if len(text) > 300:
        return None
    keys = {normalise_for_match(_OUTLINE_NUMBER_RE.sub("", text))}
    if label := parse_label(text):  # "第1 章一级题目" printed, "一级题目" in the outline (ctex, BIThesis)
        keys.add(normalise_for_match(label.title))
    keys.add(normalise_for_match(_APPENDIX_LABEL_RE.sub("", text)))  # "附录A LaTeX环境的安装" listed without "附录A"
    matches = [c for c in candidates if not c[2] and c[1] in keys]
    if not matches:
        # An outline entry loses what was set in math ("CP violation in the -meson system" for the printed
        # "… the B-meson system"): the entry's letters in order, with a few more printed.
        matches = [c for c in candidates if not c[2] and any(_lost_math(c[1], key) for key in keys)]
    if not matches:
        return None
    # Abstract sub-heads ("Background") repeat body section names on page 1 but are usually run
    # into the text; when two outline entries fit, the more major one is the real block heading.
    best = min(matches, key=lambda c: c[0])
    best[2] = True
    return best[0]


def _lost_math(entry: str, printed: str, extra: int = 3) -> bool:
    if len(entry) < 10 or not 0 < len(printed) - len(entry) <= extra:
        return False
    rest = iter(printed)
    return all(ch in rest for ch in entry)  # the entry is a subsequence of the printed heading


# --- numbering ---------------------------------------------------------------------------------------------


def block_style(b: RawBlock) -> tuple[float, bool]:
    return (round(b.max_size * 2) / 2, b.bold)


def body_block_style(blocks: list[RawBlock]) -> tuple[float, bool]:
    weight: Counter[tuple[float, bool]] = Counter()
    for b in blocks:
        weight[block_style(b)] += b.chars
    return weight.most_common(1)[0][0]
