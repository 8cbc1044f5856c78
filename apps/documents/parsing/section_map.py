"""Walk a document's blocks once and give each one its section: the canonical name (for weights and filters), the
nearest heading, and the section's name as printed (what people are shown).

The walk keeps the last recognised section until something closes it: another recognised name, or a heading
at the same or a higher level than the one that opened it (a sub-heading under "Methods" stays in Methods).
A recognised name in a plain block (a bold "References" line in a PDF without an outline) opens a section one
level below the current heading path, so the next real heading closes it.

The printed name (BlockSection.printed, a chunk's `section`) is the heading of the TOP-LEVEL section the block is
in, as the document prints it ("V. EXPERIMENTS", "2 Methods", "前言"), not the nearest sub-heading: a card says
which part of the paper a passage is from, and heading_path keeps the full path down to the nearest heading. The
top level is the shallowest heading depth with two or more headings, so a document title set as the only
first-level heading (Word's "Heading 1" over everything) does not label every passage. Where a section is named
without a heading block (a bold "REFERENCES" line in a PDF without detected headings, a run-in "Methods:"), the
name as printed there. An English canonical name is never shown in place of a printed one: 前言 stays 前言 (its
canonical key "Introduction" is only for weights and filters); an abstract recognised without any label
(_promote_abstract) has no printed name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .blocks import Block
from .sections import ABSTRACT_OPENERS, ABSTRACT_PARTS, SectionMatch, canonical_section, inline_section, is_caption
from .sentences import cjk_count

ABSTRACT = "Abstract"
REFERENCES = "References"
_FRONT_NAMES = frozenset({ABSTRACT, "Keywords"})  # names only the front matter opens a section with
_BODY_CHAPTERS = 2  # top-level headings of the body after which the front matter is over (one may be the title)
_ABSTRACT_MAX_CHARS = 3000  # a structured abstract's sub-heads are absorbed only this far into it
_PROMOTE_MIN, _PROMOTE_MAX = 400, 3000  # an unlabelled abstract is one paragraph of this size
_NEVER_IN_ABSTRACT = frozenset({"introduction", "引言", "前言", "绪论", "导言"})


@dataclass
class BlockSection:
    name: str  # canonical section name, else the nearest heading text, else ""
    canonical: bool  # name is a recognised section
    marker: bool = False  # the block is nothing but a section name: it leads the next chunk like a heading
    caption: bool = False
    printed: str = ""  # the section's name as the document prints it (see the module docstring)

    @property
    def key(self) -> str:
        """The canonical section name ("Methods", "References"), or "" when the section is not a recognised one."""
        return self.name if self.canonical else ""


@dataclass
class _Abstract:
    seen: set[str]
    structured: bool | None = None  # decided by the first text block after the label
    chars: int = 0


def map_sections(blocks: list[Block]) -> list[BlockSection]:
    out: list[BlockSection] = []
    canon: str | None = None
    depth = 0  # heading-path length at which `canon` was opened
    abstract: _Abstract | None = None
    any_recognised = False
    prev_path: tuple[str, ...] | None = None
    top = section_depth(blocks)
    # Canonical sections the document gives a heading block (a document has one reference list: with a References
    # heading, a plain "Reference" line, a table's column head (ACL), opens nothing).
    headed = {m.name for b in blocks if b.kind == "heading" and (m := canonical_section(b.text)) is not None}
    opener = ""  # printed name of the open canonical section when no heading block opened it
    chapters = 0  # top-level headings of the body seen so far (not the front matter's)
    heading_texts = [b.text for b in blocks if b.kind == "heading"]
    cjk_headings = sum(bool(cjk_count(t)) for t in heading_texts) * 2 > len(heading_texts)
    for block in blocks:
        path = block.heading_path
        marker = False
        found: SectionMatch | None = None
        is_heading = block.kind == "heading"
        # The path changed without a heading block (DOCX footnotes): treated like a heading there.
        moved = prev_path is not None and path != prev_path and path[: len(prev_path)] != prev_path
        if moved and not is_heading and canon and len(path) <= depth:
            canon, abstract, opener = None, None, ""
        prev_path = path
        if is_heading:
            found = canonical_section(block.text)
            chapters += len(path) <= top and (found is None or found.name not in _FRONT_NAMES)
        elif block.kind in ("paragraph", "list_item") and not is_caption(block.text) and block.role != "contents":
            # (a contents entry names a section but does not open one: "Abstract ..... II")
            found = canonical_section(block.text)
            if found is not None and found.name == REFERENCES and REFERENCES in headed:
                found = None  # one reference list, headed elsewhere: this "Reference" is a table's or figure's word
            marker = found is not None
            if found is None:
                found = inline_section(block.text)
            if found is not None and found.name in _FRONT_NAMES and chapters >= _BODY_CHAPTERS:
                # "Abstract" in a plain line deep in a book's eighth chapter is a table's cell (a LaTeX manual's
                # "Abstract \abstractname"), "Abstract: As one …" in an appendix a quoted paper's: neither opens
                # the document's abstract once its body has begun.
                found, marker = None, False
            if found is not None and cjk_headings and _foreign_name(block.text, path, found):
                found, marker = None, False
        if found is not None:
            if abstract is not None and _absorbed(abstract, found, is_heading, len(path) > depth):
                abstract.seen.add(found.name)
            elif found.name == canon and not is_heading:
                pass  # "Methods" heading followed by a "Methods:" run-in: same section
            elif not any_recognised and not is_heading and not marker and found.alias in ABSTRACT_OPENERS:
                # "Background: ..." in the front matter, before any section: an unlabelled structured abstract
                canon, depth, abstract = ABSTRACT, len(path) + 1, _Abstract({found.name}, structured=True)
                opener = _printed_name(block.text, found)
            else:
                canon = found.name
                depth = len(path) + (0 if is_heading else 1)
                abstract = _Abstract(set()) if canon == ABSTRACT else None
                opener = "" if is_heading else _printed_name(block.text, found)
            any_recognised = True
        elif is_heading and canon and len(path) <= depth:
            canon, abstract, opener = None, None, ""  # an unrecognised heading at the open section's level closes it
        if abstract is not None and canon == ABSTRACT and not is_heading and not marker:
            if abstract.structured is None:
                abstract.structured = found is not None and found.name in ABSTRACT_PARTS
            abstract.chars += len(block.text)
        name = canon or (path[-1] if path else "")
        printed = (opener if canon else "") or _top_heading(path, top)
        out.append(BlockSection(name, canon is not None, marker, not is_heading and _caption(block), printed))
    _promote_abstract(blocks, out)
    return out


def _foreign_name(text: str, path: tuple[str, ...], found: SectionMatch) -> bool:
    """An English section name in a plain line under a Chinese heading of a document that heads its sections in
    Chinese: a table's cell or a quoted word ("Appendix  \\appendixname" in a LaTeX manual's table of name
    commands), not where the document opens a section, which it would name in its own script (附录). The front
    matter's English abstract and keywords, and an English "References" over a list of English works, are
    printed that way in Chinese theses and keep opening their sections."""
    if found.name in _FRONT_NAMES or found.name == REFERENCES or cjk_count(text):
        return False
    return bool(path) and bool(cjk_count(path[-1]))


def section_depth(blocks: list[Block]) -> int:
    """The heading depth of the document's top-level sections: the shallowest with two or more headings; with one
    heading per depth, the one under a lone first heading (the document's title over a single run of sections)."""
    texts: dict[int, set[str]] = {}
    for block in blocks:
        if block.kind == "heading" and block.heading_path:
            texts.setdefault(len(block.heading_path), set()).add(block.text)
    shared = [d for d, seen in texts.items() if len(seen) >= 2]
    if shared:
        return min(shared)
    return 2 if len(texts) >= 2 else 1


def _top_heading(path: tuple[str, ...], top: int) -> str:
    if len(path) >= top:
        return path[top - 1]
    return path[-1] if path else ""


def _printed_name(text: str, found: SectionMatch) -> str:
    """The section name as the block prints it: the whole block for a name on its own line, the words before the
    colon or dash for a run-in heading ("Methods: We ..." -> "Methods")."""
    head = text[: found.end] if found.end < len(text) else text
    return re.sub(r"[\s:：.．。\-–—]+$", "", head).strip()[:300]


def _absorbed(abstract: _Abstract, found: SectionMatch, is_heading: bool, deeper: bool) -> bool:
    """Does a recognised name inside an abstract stay part of it? Yes for a repeated "Abstract" label and for
    each structured-abstract sub-head seen for the first time; not once the abstract is long, nor for a name
    already used in it (then the body's own "Background" has begun)."""
    if found.name == ABSTRACT:
        return True
    if found.name not in ABSTRACT_PARTS or found.name in abstract.seen or abstract.chars > _ABSTRACT_MAX_CHARS:
        return False
    if found.alias in _NEVER_IN_ABSTRACT:
        return False  # an abstract has no "Introduction" sub-head: the body has begun
    if is_heading and deeper:
        return True
    if abstract.structured is None:
        abstract.structured = True  # the first thing after the label is a sub-head: a structured abstract
    return abstract.structured


def _caption(block: Block) -> bool:
    return block.kind == "caption" or (block.kind == "paragraph" and is_caption(block.text))


def _promote_abstract(blocks: list[Block], sections: list[BlockSection]) -> None:
    """No labelled abstract: the first paper-like paragraph of the front matter (before the first recognised
    section) is the abstract. Only in documents that do have recognised sections, i.e. look like papers."""
    if any(s.name == ABSTRACT and s.canonical for s in sections):
        return
    first = next((i for i, s in enumerate(sections) if s.canonical), None)
    if first is None:
        return
    for i in range(first):
        block = blocks[i]
        if block.kind == "paragraph" and _PROMOTE_MIN <= len(block.text) <= _PROMOTE_MAX and _prose(block.text):
            sections[i] = BlockSection(ABSTRACT, True)  # no printed name: the document labels it nowhere
            return


def _prose(text: str) -> bool:
    """Running sentences, not an affiliation list or a licence line: several full stops, mostly letters."""
    letters = sum(ch.isalpha() for ch in text)
    stops = text.count(". ") + text.count("\u3002")
    return letters >= 0.6 * len(text) and stops >= 2 and "@" not in text
