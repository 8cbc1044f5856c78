"""Page furniture of a PDF: running heads and footers found by repetition, tables of contents and dotted leaders,
and the front-matter lines of an article (affiliations, correspondence, e-mail, dates, ORCID, copyright).

Running lines are removed from the text (they are not the document's content and cut sentences where a column
goes on over a page break). Contents and front matter stay in the document, so the viewer shows them and a quote
from them still lands, but their blocks get a `role` that keeps them out of answerable passages (chunking gives
them a low weight, see parsing/roles.py).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from typing import TYPE_CHECKING

from ..blocks import Block
from ..sentences import is_list_item
from ..textutil import normalise_for_match

if TYPE_CHECKING:  # pdf_layout calls running_lines
    from .pdf_layout import RawBlock

# --- running heads and footers -------------------------------------------------------------------------------------
BAND = 0.1  # share of the page height at top and bottom where running heads and folios live ...
WIDE_BAND = 0.13  # ... or a little further in, when the line sits at the same height on every page it repeats on
SAME_Y = 3  # points: one slot of a running head ("Lane et al. / Journal of Hydrology" at y 70 on every page)
_NEAR = range(-SAME_Y, SAME_Y + 1)
_WORD_RE = re.compile(r"[^\W\d_]")
_NUMBER_RE = re.compile(r"\d+|(?<![^\W\d_])[ivxlc]+(?![^\W\d_])")
MIN_LETTERS = 3  # letters a running line needs to be looked for outside the narrow band
REPEAT_SHARE = 0.25  # a running line repeats on at least this share of the pages (odd/even heads: about half)


def _key(text: str) -> str:
    # Page numbers inside running heads change from page to page ("Page 3 of 11", "R. Soc. open sci. 2: 150395",
    # front matter's "- III -"), so numbers, roman ones too, are folded away; a bare folio becomes "#".
    return re.sub(r"\s+", " ", _NUMBER_RE.sub("#", text.lower())).strip()


def running_lines(
    pages: list[list[RawBlock]], heights: list[float], tables: list[int] | None = None
) -> set[tuple[int, int, int]]:
    """(page index, block index, line index) of every running head, footer and folio: text (digits ignored) in the
    top or bottom band that repeats on a quarter of the pages (alternating odd/even heads each do), and any other
    text that repeats on two pages or more in a slot where such a line is printed (a chapter's running head:
    "第一章 模板介绍" on the pages of chapter 1 only, beside the thesis title that is on every page)."""
    n_pages = sum(1 for blocks in pages if blocks)
    if n_pages < 2:
        return set()
    where: dict[str, list[tuple[int, int, int, float]]] = {}
    # Tables were lifted out of the pages' blocks (pdf_tables.py) but are content a running head frames.
    lines_on_page = [sum(len(block.lines) for block in blocks) for blocks in pages]
    lines_on_page = [n + (tables[i] if tables else 0) for i, n in enumerate(lines_on_page)]
    for pno, (blocks, height) in enumerate(zip(pages, heights, strict=True)):
        for bno, block in enumerate(blocks):
            for lno, line in enumerate(block.lines):
                if _in_band(line.bbox, height, WIDE_BAND) and (key := _key(line.text)):
                    where.setdefault(key, []).append((pno, bno, lno, line.bbox[1]))
    threshold = max(2, math.ceil(REPEAT_SHARE * n_pages))
    found: set[tuple[int, int, int]] = set()
    slots: set[int] = set()  # heights (rounded) where running lines are printed
    for key, hits in where.items():
        # A folio ("#"), a number alone ("(#)" of an equation, "#.#.#" of a heading at the top of a page) or a
        # letter (a form's "a" column) counts in the narrow band only.
        worded = _worded(key)
        if not worded:
            hits = [h for h in hits if _in_band(pages[h[0]][h[1]].lines[h[2]].bbox, heights[h[0]], BAND)]
        if len({h[0] for h in hits}) < threshold or len(_framing(hits, lines_on_page)) < threshold:
            continue
        usual_y = Counter(round(h[3]) for h in hits).most_common(1)[0][0]
        for pno, bno, lno, y in hits:
            line = pages[pno][bno].lines[lno]
            if _in_band(line.bbox, heights[pno], BAND) or (worded and abs(y - usual_y) <= SAME_Y):
                found.add((pno, bno, lno))
                if worded:
                    slots.add(round(y))
    for key, hits in where.items():
        if not _worded(key):
            continue
        in_slot = [h for h in hits if any(round(h[3]) + d in slots for d in _NEAR)]
        if len({h[0] for h in in_slot}) >= 2 and len(_framing(in_slot, lines_on_page)) >= 2:
            found.update((pno, bno, lno) for pno, bno, lno, _ in in_slot)
        found.update(_chapter_head(hits, pages, heights, lines_on_page))
    return found


def _chapter_head(
    hits: list[tuple[int, int, int, float]],
    pages: list[list[RawBlock]],
    heights: list[float],
    lines_on_page: list[int],
) -> set[tuple[int, int, int]]:
    """A chapter's running head where no line repeats often enough to mark the slot (ThuThesis prints only the
    chapter's title, "参考文献" or "附录A 补充内容", at the top of each of its two or three pages): the same words
    in the narrow top or bottom band, at the same height, on two pages in a row, beside other text."""
    in_band = [h for h in hits if _in_band(pages[h[0]][h[1]].lines[h[2]].bbox, heights[h[0]], BAND)]
    by_page = {h[0]: h for h in in_band}
    run = {
        pno
        for pno, h in by_page.items()
        if any((other := by_page.get(pno + step)) is not None and abs(other[3] - h[3]) <= SAME_Y for step in (-1, 1))
    }
    chosen = [by_page[pno] for pno in sorted(run)]
    if len(_framing(chosen, lines_on_page)) < 2:
        return set()
    return {(pno, bno, lno) for pno, bno, lno, _ in chosen}


def _framing(hits: list[tuple[int, int, int, float]], lines_on_page: list[int]) -> set[int]:
    """Pages where the repeated line has other text beside it. A running head frames a page's content; a line
    that is all there is on every page it repeats on (a two-page note whose one line is its text) is the content."""
    per_page = Counter(h[0] for h in hits)
    return {pno for pno, count in per_page.items() if lines_on_page[pno] > count}


def _worded(key: str) -> bool:
    return len(_WORD_RE.findall(key)) >= MIN_LETTERS


def _in_band(bbox: tuple[float, float, float, float], height: float, band: float) -> bool:
    return bbox[3] <= height * band or bbox[1] >= height * (1 - band)


# --- contents and dotted leaders -----------------------------------------------------------------------------------
# A run of leader dots (". . . . .", "........", "………", "····") and the page number it leads to. An ellipsis is not
# one: "..." and "......" (six dots, how Chinese text often types "……") and "……" (two U+2026) stay.
_LEADER = r"(?:(?:\.\s){4,}\.|\.{7,}|…{3,}|(?:[·•⋅∙‧]\s?){4,}|_{6,})"  # ⋅ U+22C5: ctex's contents leaders
_LEADER_RE = re.compile(rf"\s*{_LEADER}\s*")
_ENTRY_RE = re.compile(rf"(.+?)\s*{_LEADER}\s*([0-9]{{1,4}}|[ivxlcIVXLC]{{1,6}})(?=\s|$)")
# A printed table of contents without leaders: its title, its numbered entries and a block of page numbers.
# ... or of its figures or tables, which a thesis prints as a chapter of its own ("插图", "List of Figures").
CONTENTS_TITLE_RE = re.compile(
    r"^(?:table of )?contents$|^目\s*[录次]$|^inhalt(?:sverzeichnis)?$|^оглавление$"
    r"|^list of (?:figures|tables|illustrations)$|^插\s*图$|^(?:插图|附图|图|表|图表|表格)\s*(?:目录|索引|清单)$",
    re.I,
)
_NUMBERED_ENTRY_RE = re.compile(r"(?:^|\s)((?:\d+\.)+\d*|\d+)\s+([^\d\s][^\d]*?)(?=\s+\d|$)")
_PAGE_NUMBERS_RE = re.compile(r"^(?:(?:\d{1,4}|[ivxlc]{1,6})\s+){2,}(?:\d{1,4}|[ivxlc]{1,6})$", re.I)
MIN_LABEL = 2  # characters of a contents entry's label (after normalising) worth looking up


def _entries(text: str) -> list[str]:
    """Labels of the contents entries in `text` ("1.2 Method ..... 5" -> "1.2 Method")."""
    return [m.group(1).strip() for m in _ENTRY_RE.finditer(text)]


def _is_contents(block: Block, later_starts: list[str]) -> bool:
    """A block of contents entries: leader lines whose labels come back as the start of a block on a later page
    (the headings they list). A form's leader lines ("Wages, salaries, tips . . . . 8") name no later block."""
    labels = [normalise_for_match(label) for label in _entries(block.text)]
    labels = [label for label in labels if len(label) >= MIN_LABEL]
    if not labels:
        return False
    found = sum(1 for label in labels if any(start.startswith(label) for start in later_starts))
    return found >= max(1, len(labels) / 2)


# --- front matter --------------------------------------------------------------------------------------------------
_REFERENCE_RE = re.compile(r"^\s*[\[［【]\d{1,4}[\]］】]")
# ACM's "Permission to make digital or hard copies …" (about 800 characters), "© 2014 Smith et al.; licensee …".
_LICENCE_RE = re.compile(r"permission to make digital|©|\(c\)\s*\d{4}|copyright\b|this is an open access article", re.I)
LICENCE_MAX_CHARS = 1200
FRONT_MAX_CHARS = 600  # a front-matter block is short; a paragraph that mentions an e-mail address is not one
# "{vladk, barlaso}@fb.com" lists several people at one domain.
_EMAIL_RE = re.compile(
    r"\b[\w.+-]{2,}\}?@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b|\be-?mails?\b|电子(?:邮件|信箱)|邮箱|✉", re.I
)
_CORRESPONDENCE_RE = re.compile(
    r"(?:^|[*∗])\s*correspond(?:ence|ing authors?)\b|correspondence should be addressed|whom correspondence|"
    r"通[讯信]作者|联系人",
    re.I,
)
_HISTORY_RE = re.compile(
    r"\b(?:received|accepted|revised|published(?: online)?)\b[\s:：]*(?:\d|[A-Z][a-z]+\.? \d)|"
    r"收稿日期|修回日期|录用日期",
    re.I,
)
# Who edited or reviewed the article, and where it was published ("Academic Editor: …", "Edited by:", "Volume 2016,
# Article ID 6802810", "ISSN …", "doi: 10.…"): page-1 lines about the article, not its content.
_EDITOR_RE = re.compile(r"^(?:academic |handling |guest )?editors?\s*[:：]|^(?:edited|reviewed) by\b|责任编辑", re.I)
_ISSUE_RE = re.compile(r"\bISSN\b|\bArticle ID\b|\bdoi:\s*10\.|\bdoi\.org/10\.|^citation:", re.I)
ISSUE_MAX_CHARS = 300  # a page-1 line naming the journal issue or the DOI is short; a paragraph citing one is not
# A GB/T 7714 entry names its type ("[M]", "[J]", "[D/OL]"): a reference, whatever institution it names.
_REFERENCE_TYPE_RE = re.compile(r"\[(?:[MCNJDRSPGAZ]|EB|DB|CP|DS|CM)(?:/OL)?\]")
_ORCID_RE = re.compile(r"\borcid\b|\b\d{4}-\d{4}-\d{4}-\d{3}[\dX]\b", re.I)
_COPYRIGHT_RE = re.compile(r"©|\bcopyright\b|\blicensee\b|creative commons|open access article|版权所有", re.I)
_INSTITUTION_RE = re.compile(
    r"\b(?:university|universit[àäéy]|universidad|institut[eo]?|college|school of|department|dept\.|faculty|"
    r"laborator(?:y|ies)|hospital|cent(?:er|re) for|academy)\b|大学|学院|研究所|研究院|研究中心|实验室|医院",
    re.I,
)
# An address: a postal code (not a year), a country, or a list opened by an affiliation mark ("1Department",
# "aSchool", "∗MathSys Centre").
_ADDRESS_RE = re.compile(
    r"\b(?!(?:19|20)\d\d\b)\d{4,6}\b|\b[A-Z]{1,2}\d{1,2}[A-Z]? \d[A-Z]{2}\b|"
    r"\b(?:USA|U\.S\.A\.|UK|United (?:Kingdom|States)|China|P\. ?R\. ?China|Germany|Japan|France|Italy|Spain|"
    r"Canada|Australia|Austria|Hungary|Netherlands|Switzerland|Sweden|Denmark|Norway|Finland|Korea|India|Brazil|"
    r"Israel|Singapore|Belgium|Poland|Portugal|Greece|Mexico|Russia|Taiwan)\b|"
    r"^[\d*∗†‡§¶]\s?[^\W\d_]|^[a-h][A-Z]"
)


def _front_matter(block: Block) -> bool:
    """Whether `block` is a line of an article's front matter: who wrote it where, how to reach them, when it was
    received and accepted, its ORCID and copyright lines. Short blocks only: body text that mentions a date or a
    university is longer than FRONT_MAX_CHARS. An item of a list or a reference entry past page 1 is content."""
    text = block.text
    if block.kind == "heading":
        return False
    if block.page == 1 and len(text) <= LICENCE_MAX_CHARS and _LICENCE_RE.match(text):
        return True  # a publisher's permission or licence notice, longer than a front-matter line
    if len(text) > FRONT_MAX_CHARS:
        return False
    if (block.page != 1 and (is_list_item(text) or _REFERENCE_RE.match(text))) or _REFERENCE_TYPE_RE.search(text):
        return False
    if _EMAIL_RE.search(text) or _CORRESPONDENCE_RE.search(text) or _ORCID_RE.search(text):
        return True
    if len(_HISTORY_RE.findall(text)) >= 2 or (_HISTORY_RE.match(text) and len(text) <= 200):
        return True
    if block.page == 1 and (_COPYRIGHT_RE.search(text) or _EDITOR_RE.search(text)):
        return True
    if block.page == 1 and len(text) <= ISSUE_MAX_CHARS and _ISSUE_RE.search(text):
        return True
    # An affiliation: an institution and its address, on the first page.
    return block.page == 1 and bool(_INSTITUTION_RE.search(text)) and bool(_ADDRESS_RE.search(text))


def mark_furniture(blocks: list[Block]) -> list[Block]:
    """`blocks` with contents entries given role "contents", front-matter blocks role "front_matter", and the
    leader dots left in any other block's text taken out."""
    starts = [(b.page or 0, normalise_for_match(b.text[:80])) for b in blocks]
    out: list[Block] = []
    contents_title: int | None = None  # index in `out` of a "Contents" title whose entries may follow on its page
    contents_section = False  # under a "Contents" / "目录" heading: its section is the contents, whatever the layout
    for block in blocks:
        is_contents_title = bool(CONTENTS_TITLE_RE.match(block.text.strip()))
        if block.kind == "heading":
            contents_section = is_contents_title
        if block.kind == "table":  # a table's text must keep matching its rows' boxes (pdf_tables.py)
            out.append(block)
            continue
        role = block.role or ("contents" if contents_section else "")
        page = block.page or 0
        if not role and _LEADER_RE.search(block.text):
            role = "contents" if _is_contents(block, [start for p, start in starts if p > page]) else ""
        under_title = contents_title is not None and out[contents_title].page == block.page
        if not role and under_title:
            role = "contents" if _lists_contents(block.text, [start for p, start in starts if p > page]) else ""
        if role == "contents" and under_title:
            out[contents_title] = dataclasses.replace(out[contents_title], role="contents")
        contents_title = len(out) if is_contents_title else (contents_title if role == "contents" else None)
        if not role and _front_matter(block):
            role = "front_matter"
        text = block.text if role == "contents" else _without_leaders(block.text)
        if role != block.role or text != block.text:
            block = dataclasses.replace(block, role=role, text=text)
        out.append(block)
    return out


def _lists_contents(text: str, later_starts: list[str]) -> bool:
    """Whether `text`, under a "Contents" title, is entries without leaders ("1. Introduction 2. Structural
    measures 2.1. High-degree centrality …", whose headings come back later) or their page numbers alone."""
    if _PAGE_NUMBERS_RE.match(text):
        return True
    labels = [normalise_for_match(m.group(1) + m.group(2)) for m in _NUMBERED_ENTRY_RE.finditer(text)]
    labels = [label for label in labels if len(label) >= MIN_LABEL + 1]
    found = sum(1 for label in labels if any(start.startswith(label) for start in later_starts))
    return bool(labels) and found >= len(labels) / 2


def has_leader(text: str) -> bool:
    """A run of leader dots: a contents line, never a heading or a sentence."""
    return bool(_LEADER_RE.search(text))


def _without_leaders(text: str) -> str:
    """Leader dots are a typesetter's line to a number, not words: "Wages . . . . . 8" reads "Wages 8"."""
    return _LEADER_RE.sub(" ", text).strip() if _LEADER_RE.search(text) else text
