"""Which blocks of a PDF are headings, and at which level: from the outline, the section numbering, or type style.

Order of evidence:
1. The PDF's outline (pdf_heading_outline), when at least three of its entries are printed as blocks (generic
   bookmarks do nothing). An outline whose only top entry is the document's title has its levels shifted up: the
   title is no section.
2. The section numbering (pdf_heading_numbers): a top-level sequence counting up in one style (I, II, III;
   1, 2, 3; 第一章 ...) gives level 1; sub-labels restarting under it (A, B under a roman numeral; 2.1 under 2;
   一、 under 第一节) give the levels below; lettered headings after the last numbered one are appendices
   (level 1). Unnumbered headings: recognised section names (References, Acknowledgements, 参考文献) are top
   level; other lines in the top-level style are top level; other style headings sit under the current one.
3. Type style alone (pdf_headings.style_headings), for unnumbered papers.
Heading pieces MuPDF split apart (the number, a second line, small capitals) are joined first.
"""

from __future__ import annotations

from collections import Counter

from ..sections import canonical_section
from ..textutil import normalise_for_match
from .pdf_furniture import has_leader
from .pdf_heading_fragments import join_heading_fragments
from .pdf_heading_numbers import Label, heading_like, parse_label, top_chain
from .pdf_heading_outline import (
    Levels,
    block_style,
    body_block_style,
    outline_levels,
    past_subsections,
    with_unlisted_names,
)
from .pdf_headings import BODY_SECTIONS, in_capitals, style_headings
from .pdf_layout import RawBlock

_MIN_OUTLINE_HEADINGS = 3  # fewer outline entries found in the text than this: the outline is not used
_REFERENCES = "References"
_TITLE_SIZE_GAP = 4.0  # points above the section headings' size from which a line belongs to the title
_NUMBERED_SUBS = 2  # numbered sub-headings from which a document's sub-headings are taken to be numbered
_REPEATED = 3  # a section name printed this often is a sub-heading (a list of examples per subsection)


def find_headings(pages: list[list[RawBlock]], toc: list) -> tuple[list[list[RawBlock]], Levels]:
    pages, levels = _find_headings(pages, toc)
    # A contents line ("附录⋅⋅⋅⋅⋅⋅ 39") names a heading but is none, whichever reading took it for one.
    leaders = {id(b) for page in pages for b in page if id(b) in levels and has_leader(b.text)}
    return pages, {k: v for k, v in levels.items() if k not in leaders}


def _find_headings(pages: list[list[RawBlock]], toc: list) -> tuple[list[list[RawBlock]], Levels]:
    pages = join_heading_fragments(pages)
    levels = outline_levels(pages, toc)
    if len(levels) >= _MIN_OUTLINE_HEADINGS:
        return pages, with_unlisted_names(pages, levels)
    styled_pages, styled = style_headings(pages)
    numbered = numbered_levels(styled_pages, styled)
    if numbered:
        return styled_pages, numbered
    # A short outline (zootaxa lists its two numbered sections, not "References") and the type style's headings
    # are both evidence: together they are the document's headings.
    merged = {**styled, **levels}
    if len(merged) > len(levels):
        return styled_pages, merged
    return pages, levels


def numbered_levels(pages: list[list[RawBlock]], styled: Levels) -> Levels:
    """Levels from the section numbering; empty when the document has no numbered top-level sequence."""
    blocks = [b for page in pages for b in page]
    if not blocks:
        return {}
    body = body_block_style(blocks)
    labels: list[Label | None] = [parse_label(b.text) for b in blocks]
    entries = [
        (i, lab, block_style(b))
        for i, (b, lab) in enumerate(zip(blocks, labels, strict=True))
        if lab is not None and heading_like(b, lab)
    ]
    chain = top_chain(entries, body[0])
    if not chain:
        return {}
    top = labels[chain[0]]
    top_style = block_style(blocks[chain[0]])
    caps = all(in_capitals(labels[i].title) for i in chain)
    chain_ids = set(chain)
    # After the last numbered section and its sub-sections: where unnumbered back matter may start.
    past_last_section = (
        past_subsections(blocks, chain[-1], labels[chain[-1]].numbers[0], lambda b: True)
        if top.scheme == "arabic"
        else range(chain[-1] + 1, len(blocks))
    )
    levels: Levels = {}
    current: int | None = None  # number of the open top-level section
    depth = 1  # level of the last numbered or named heading
    sub_last = 0  # last letter of a lettered sub-level under a roman numeral
    in_references = False
    appendix_last = 0
    after_chain = False
    back_matter = False
    unnumbered: list[int] = []  # unnumbered style headings placed under a numbered one
    numbered_subs = 0  # a recognised section (References, 致谢) came after the last numbered one
    repeated = Counter(normalise_for_match(b.text) for b in blocks if len(b.text) <= 80)
    for i, b in enumerate(blocks):
        label = labels[i]
        level = None
        sibling = False  # placed under the last numbered heading without becoming the one to place others under
        name = canonical_section(b.text) if label is None else None
        if i in chain_ids:
            level, current, sub_last, in_references = 1, label.numbers[0], 0, False
            after_chain = i == chain[-1]
        elif name is not None and name.name not in BODY_SECTIONS and _standalone_name(b, body, top_style):
            # Only names printed without a number in numbered papers (Abstract, References, Acknowledgements, …)
            # open a section here: an unnumbered "Context" or "Methods" is a figure's label or a run-in head.
            if repeated[normalise_for_match(b.text)] >= _REPEATED and current is not None:
                level, sibling = min(depth + 1, 3), True  # "参考文献" over every example list: a sub-heading each time
            else:
                level, in_references = 1, name.name == _REFERENCES
                back_matter = after_chain
        elif current is None:
            continue  # before the first numbered heading: title, authors, abstract
        elif label is not None:
            if not heading_like(b, label):
                continue
            if after_chain and label.scheme == "letter" and top.scheme in ("arabic", "roman"):
                if len(label.numbers) == 1 and label.numbers[0] == appendix_last + 1:
                    level, appendix_last, in_references = 1, label.numbers[0], False
                elif len(label.numbers) > 1 and label.numbers[0] == appendix_last:
                    level = len(label.numbers) + 1
            if level is None and not in_references:
                level = _sub_level(top.scheme, label, current, sub_last)
                if level == 2 and top.scheme == "roman":
                    sub_last = label.numbers[0]
        elif in_references or not heading_like(b, None) or repeated[normalise_for_match(b.text)] > 1:
            continue  # a figure's label repeated in every diagram ("Code List") is no heading
        elif (
            (back_matter or (after_chain and i in past_last_section))
            and block_style(b) == top_style
            and (not caps or in_capitals(b.text))
            and _emphasised(top_style, body)
        ):
            # Unnumbered back matter after the references (a thesis's résumé) or after the last numbered section
            # (JSS's "Computational details" before its references), in the numbered sections' own style.
            level = 1
        elif id(b) in styled or _bold_line(b, body, top_style):
            level, sibling = min(depth + 1, 3), True  # one below the last numbered heading, siblings of each other
            unnumbered.append(id(b))
        if level is not None:
            levels[id(b)] = level
            if not sibling:
                depth = level
            numbered_subs += level > 1 and label is not None
    if numbered_subs >= _NUMBERED_SUBS:
        # Sub-headings here are numbered ("2.1", "A."): an unnumbered line in a heading style is a diagram's label
        # ("Parsing" | "Name Resolution" in an LNCS figure), not a sub-heading.
        for key in unnumbered:
            del levels[key]
    return levels


def _sub_level(scheme: str, label: Label, current: int, sub_last: int) -> int | None:
    n = label.numbers
    if scheme == "roman":
        if label.scheme == "letter" and len(n) == 1 and n[0] == sub_last + 1:
            return 2
        if label.scheme in ("paren", "arabic") and len(n) == 1:
            return 3
        return None
    if label.scheme == "arabic" and len(n) >= 2 and (scheme != "arabic" or n[0] == current):
        return min(len(n), 6) if scheme in ("arabic", "chapter") else min(len(n) + 1, 6)
    if scheme == "chapter" and label.scheme in ("zh_section", "zh_item"):
        return 2
    if scheme in ("zh_section", "zh_part") and label.scheme == "zh_item":
        return 2
    if scheme in ("zh_section", "zh_part", "zh_item") and label.scheme == "zh_paren":
        return 3 if scheme != "zh_item" else 2
    return None


def _bold_line(b: RawBlock, body: tuple, top_style: tuple) -> bool:
    """An unnumbered sub-heading of a numbered paper (NeurIPS: "Learning to Denoise" in bold body type): one bold
    line at least the body's size, set apart from the text (a block of its own)."""
    style = block_style(b)
    return len(b.lines) == 1 and style[1] and not body[1] and body[0] <= style[0] <= top_style[0] and style != top_style


def _standalone_name(b: RawBlock, body: tuple, top_style: tuple) -> bool:
    """A section name set as a heading: on a line of its own, in the top-level style or emphasised."""
    if len(b.lines) > 2 or len(b.text) > 80:
        return False
    if b.text.rstrip().endswith((".", ":")) and block_style(b) != top_style:
        return False  # "Acknowledgements." in bold body type: a run-in heading, its paragraph follows
    style = block_style(b)
    if style[0] > max(top_style[0], body[0]) + _TITLE_SIZE_GAP:
        return False  # set like the title ("... under Real-World" over "Limitations"): a line of the title
    return style == top_style or (style != body and (style[1] or style[0] > body[0]))


def _emphasised(top_style: tuple, body: tuple) -> bool:
    """Unnumbered lines in the top-level style count only when that style differs from the body's."""
    return top_style != body
