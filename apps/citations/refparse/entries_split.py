"""Cut a document's lines into reference entries: numbered chains (author-year lists without labels:
entries_unnumbered.py).

A numbered list is followed as a chain of labels 1, 2, 3, ...: the label sequence itself says where each entry
starts, so text between entries (a column of body text beside the list, a figure caption) is left out by type
size or closes the entry. The chain may resume further on (Nature's main-text and Methods reference lists).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace

from apps.documents.parsing.sections import REFERENCE_SIGNAL, canonical_section

from .entries_lines import REFERENCES, RefLine

# [1], 1., (1) (ACS), 1) (JPSJ and other Japanese, German and Russian styles)
_ANCHOR_RE = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.(?!\d)|\((\d{1,4})\)(?=\s)|(\d{1,4})\)(?=\s))\s*")
# A bare number ("1 Uniform Requirements …", vancouver.bst, Springer's "1. " without the point): only under a
# References heading, where the chain 1, 2, 3 and one label form per list keep a page number or "12 patients" out.
_BARE_RE = re.compile(r"^\s*(\d{1,3})\s+(?=[^\W_a-z])")
# "…2011. [2] O. Detry, …": a block or line holding the end of one entry and the start of the next.
_MIDLINE_RE = re.compile(r"(?<=[.,;:)\u201d\"\w])\s+(?=\[\d{1,4}\]\s+\S)")
_LINK_WORDS = r"PubMed Abstract|Publisher Full Text|Free Full Text|Reference Source|Google Scholar|PubMed Central|"
_LINK_WORDS += r"Cross[Rr]ef|PubMed|Medline|MEDLINE|Web of Science|Article|Abstract"
LINK_RE = re.compile(rf"^(?:(?:{_LINK_WORDS})\s*\|?\s*)+$")
LINK_TAIL_RE = re.compile(r"(?:\s*\|?\s*(?:PubMed Abstract|Publisher Full Text|Free Full Text|Reference Source))+\s*$")
_STOP_RE = re.compile(
    r"^(?:acknowledg|\u00a9|\(c\)\s*\d{4}|copyright\b|submit your (?:next )?manuscript|received:|accepted:|"
    r"published(?: online)?:|citation:|conflicts? of interest|competing interests?|authors?['\u2019]? contributions?|"
    r"funding\b|(?:fig(?:ure)?\.?|table|scheme)\s*s?[A-Z]?\d+(?:[.:|\u2014]|\s+[A-Z])|"
    r"supplementary (?:material|information)|appendix\b|"
    r"open peer review|referee report|abbreviations\b|cite this article)",
    re.IGNORECASE,
)
SIGNAL_RE = REFERENCE_SIGNAL  # one definition of what a reference entry is made of, shared with the chunker
YEAR_RE = re.compile(r"\b(?:c(?=\d))?(?:1[6-9]|20)\d{2}[a-z]?\b|\bin press\b|\bn\.d\.", re.IGNORECASE)  # "c1980": ©
_SECTION_NUMBER_RE = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.|第.{1,3}[章节])\s*\S")
NAMES_REFERENCES_RE = re.compile(r"参考文献|\b(?:references|bibliography)\b", re.IGNORECASE)
_LABEL_SIZE_SLACK = 0.15  # share of the list's type size a line holding the very next label may differ by
# DOIs and URLs are often set in a typewriter font of another size ("doi:10.18637/jss.v040.i08" at 8 pt in a 7 pt
# list): such a line is still the entry's.
LINK_TEXT_RE = re.compile(r"\bdoi[:.]|\b10\.\d{4,9}/|https?://|\bURL\b|www\.", re.IGNORECASE)
MAX_SKIP = 15  # lines of another type size tolerated inside a list before the list counts as left


@dataclass
class RawEntry:
    number: int | None
    lines: list[RefLine] = field(default_factory=list)
    label: str = ""  # an alphabetic label ("Cop87"), for lists without numbers


def split_midline(lines: list[RefLine]) -> list[RefLine]:
    out = []
    for line in lines:
        parts = _MIDLINE_RE.split(line.text)
        if len(parts) == 1:
            out.append(line)
            continue
        for part in parts:
            out.append(replace(line, text=part))
    return out


def anchor(line: RefLine, bare: bool = False) -> int | None:
    label = _label(line, bare)
    return label[0] if label else None


def _label(line: RefLine, bare: bool = False) -> tuple[int, int] | None:
    """(number, form) of the entry label a line starts with; the form (1 for [1], 2 for 1., 3 for (1), 4 for 1),
    5 for a bare number when `bare`) lets one list keep one form."""
    m = _ANCHOR_RE.match(line.text)
    if m and len(line.text) > m.end():  # a label without text is not an entry start
        form = next(g for g in (1, 2, 3, 4) if m.group(g))
        return int(m.group(form)), form
    m = _BARE_RE.match(line.text) if bare and not m else None
    return (int(m.group(1)), 5) if m else None


def strip_anchor(text: str) -> str:
    stripped = _ANCHOR_RE.sub("", text, count=1)
    return _BARE_RE.sub("", text, count=1) if stripped == text else stripped


def same_size(line: RefLine, size: float) -> bool:
    return not (line.size and size) or abs(line.size - size) <= 0.6


def is_stop(line: RefLine) -> bool:
    return bool(_STOP_RE.match(line.text)) or (line.heading and not line.ref_heading) or line.table


def names_the_list(line: RefLine) -> bool:
    """The line is the list's heading, or nothing but the list's name ("References" again further on)."""
    return line.ref_heading or is_list_name(line.text)


def is_list_name(text: str) -> bool:
    """Nothing but the list's name, numbered or not ("References", "4.4 参考文献"; not "4.4.2 参考文献引用示例")."""
    match = canonical_section(text) if len(text) <= 40 else None
    return match is not None and match.name == REFERENCES


def looks_like_heading(line: RefLine, size: float) -> bool:
    """A numbered section heading the parser did not mark ("4.2 专著中的析出文献", "5 Discussion"): a short line
    set larger than the list. It ends the list as a marked heading does."""
    return (
        bool(size and line.size and line.size > size + 0.8)
        and len(line.text) <= 60
        and bool(_SECTION_NUMBER_RE.match(line.text))
    )


def looks_like_reference(text: str) -> bool:
    return len(text) >= 20 and len(SIGNAL_RE.findall(text)) >= 2


def numbered_entries(
    lines: list[RefLine], start: int, max_jumps: int = 1, first_within: int = 8, bare: bool = False
) -> list[RawEntry]:
    """Follow labels 1, 2, ... from `start`. A label continues the chain when it is the next number (one missing
    label is forgiven). After the list is closed (an Acknowledgements line, a heading), the chain may resume
    `max_jumps` times further on, only where two consecutive labels confirm it (level 3). `bare` lets labels be
    bare numbers (a list under a References heading only)."""
    n = len(lines)
    first = next((j for j in range(start, min(start + first_within, n)) if anchor(lines[j], bare) == 1), None)
    if first is None:
        return []
    size, form = lines[first].size, _label(lines[first], bare)[1]
    entries: list[RawEntry] = []
    closed_at: int | None = None
    restarted = False
    by_heading = False
    skipped = 0
    jumps = 0
    for i in range(first, n):
        line = lines[i]
        num, num_form = _label(line, bare) or (None, 0)
        k = entries[-1].number if entries else 0
        # The next label itself may be set a little larger or smaller: xeCJK scales the Latin and the Chinese
        # fonts of one list apart, so a line's dominant size follows its script (10.5 pt "[5] 国务院…", 11.6 pt).
        sized = same_size(line, size) or (num == k + 1 and abs(line.size - size) <= _LABEL_SIZE_SLACK * size)
        if entries and num == 1 and num_form == form and not restarted:
            # A reference list numbered from 1 again further on is another list (the author's publications after
            # a thesis's references), not this one resumed; a numbered step list in between is not (Nature's
            # Methods go on from the main text's last number). It also ends the list it follows.
            head = _entry_head(lines, i, bare)
            restarted = looks_like_reference(head) or bool(YEAR_RE.search(head))
            if restarted and closed_at is None:
                closed_at, by_heading = i, True
        if num is not None and k < num <= k + 2 and sized and num_form == form:
            if closed_at is not None and restarted:
                continue
            if closed_at is not None and i - closed_at > 40:
                if jumps >= max_jumps or not _confirmed(lines, i, num, size, bare):
                    continue
                jumps += 1
            elif closed_at is not None and (
                by_heading or not looks_like_reference(" ".join(ln.text for ln in lines[i : i + 2]))
            ):
                continue  # just after the list was closed: a numbered line that is not a reference, or another list
            entries.append(RawEntry(num, [line]))
            closed_at, by_heading, skipped = None, False, 0
            continue
        if closed_at is not None:
            continue
        if looks_like_heading(line, size) and line.ref_heading and _resumes(lines, i, k + 1, bare):
            continue  # a sub-heading of the bibliography ("5.2 标准、规范") between two groups of one list
        if looks_like_heading(line, size) and not _other_column(line, entries[-1].lines[-1], lines, i, k + 1, bare):
            # The next section's list is another list, even if it reads as one; unless that section names
            # references too and its labels go on (caspervector: "12. 其它参考文献示例" goes on from [9]).
            closed_at, by_heading = i, not NAMES_REFERENCES_RE.search(line.text)
            continue
        last = entries[-1].lines[-1]
        if line.heading and not line.ref_heading and line.page != last.page and not _resumes(lines, i, k + 1, bare):
            # The next chapter's heading ("附录A 补充内容"), whatever its size. One that the next label follows is
            # the other column's, read first on the new page (acmart's "B ONLINE RESOURCES" beside entry [20]).
            closed_at, by_heading = i, True
            continue
        if not same_size(line, size) and not LINK_TEXT_RE.search(line.text):
            skipped += 1
            continue
        stop = is_stop(line)
        if stop and _other_column(line, last, lines, i, k + 1, bare):
            continue  # "Appendix B: …" in the other column, between two entries
        if stop or (skipped > MAX_SKIP and line.page != last.page):
            closed_at = i
            continue
        if not LINK_RE.match(line.text) and not names_the_list(line):
            # The list's name again on a following page ("References" as the running head of a class that heads
            # each page with its section, or "References (cont.)") is no part of the entry it interrupts.
            entries[-1].lines.append(line)
        skipped = 0
    trim_last(entries)
    return entries


def _entry_head(lines: list[RefLine], i: int, bare: bool, most: int = 5) -> str:
    """The entry that starts at line `i`, up to the next label (five lines at most): an IEEE entry's first two
    lines may hold only its authors and quoted title ("[1] A. Alpha and B. T. Beta, “Novel techniques …”, in
    Proc. 9th Int."), its year and DOI come after."""
    end = next((j for j in range(i + 2, min(i + most, len(lines))) if anchor(lines[j], bare) is not None), i + most)
    return " ".join(ln.text for ln in lines[i:end])  # two lines at least, as before: a short entry and the next


def _other_column(line: RefLine, last: RefLine, lines: list[RefLine], i: int, label: int, bare: bool) -> bool:
    """A heading of the other column, read between two entries (revtex's "Appendix B" beside [1] and [2]): on
    the list's page but not under its last line, and the next label follows."""
    same_page = bool(line.bbox and last.bbox) and line.page == last.page
    return same_page and not below(line, last) and _resumes(lines, i, label, bare)


def _resumes(lines: list[RefLine], i: int, label: int, bare: bool, within: int = 60) -> bool:
    return any(anchor(lines[j], bare) == label for j in range(i + 1, min(i + within, len(lines))))


def _confirmed(lines: list[RefLine], i: int, num: int, size: float, bare: bool) -> bool:
    """A resumed chain needs label num+1 soon after label num, and reference-like text."""
    for j in range(i + 1, min(i + 60, len(lines))):
        if anchor(lines[j], bare) == num + 1 and same_size(lines[j], size):
            return looks_like_reference(" ".join(ln.text for ln in lines[i:j]))
    return False


def trim_last(entries: list[RawEntry]) -> None:
    """The last entry has no next label to end it: it gets no more lines than the longest other entry plus two,
    so running text after an unmarked list end is not swallowed."""
    if not entries:
        return
    if len(entries) >= 2:
        # Two or three other entries say little about how long one may be (a web page's long address wraps over
        # twice the lines of a book): there the last may have as many lines again as the longest.
        longest = max(len(e.lines) for e in entries[:-1])
        cap = longest + (2 if len(entries) > 3 else max(2, longest))
        del entries[-1].lines[cap:]
    # A blank stretch well beyond the list's line spacing ends it too (an author biography, a footnote block).
    # The spacing is the other entries'; in a list of one (or of one-line entries) the last entry's own, whose
    # lines before such a stretch are closer together than the stretch (OE Letters: one entry, then a biography).
    pitches = _pitches(entries[:-1])
    if len(pitches) < 5:
        pitches = _pitches(entries[-1:])
        if len(pitches) < 3:
            return
    pitch = pitches[len(pitches) // 2]
    last = entries[-1].lines
    for i in range(1, len(last)):
        a, b = last[i - 1], last[i]
        if a.bbox and b.bbox and a.page == b.page and b.bbox[1] - a.bbox[1] > 2.5 * pitch:
            del last[i:]
            return


def _pitches(entries: list[RawEntry]) -> list[float]:
    """The line spacings inside the entries, sorted (a column or page change is none)."""
    return sorted(
        b.bbox[1] - a.bbox[1]
        for e in entries
        for a, b in itertools.pairwise(e.lines)
        if a.bbox and b.bbox and a.page == b.page and 0 < b.bbox[1] - a.bbox[1] < 40
    )


def below(line: RefLine, above: RefLine) -> bool:
    """`line` follows `above` in its column on its page (a heading read first from another column does not)."""
    if line.page != above.page or not line.bbox or not above.bbox:
        return False
    return abs(line.bbox[0] - above.bbox[0]) < 40 and line.bbox[1] > above.bbox[1]
