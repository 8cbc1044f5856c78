"""Cut a document's lines into reference entries: numbered chains and author-year lists.

A numbered list is followed as a chain of labels 1, 2, 3, ...: the label sequence itself says where each entry
starts, so text between entries (a column of body text beside the list, a figure caption) is left out by type
size or closes the entry. The chain may resume further on (Nature's main-text and Methods reference lists).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace

from apps.documents.parsing.sections import REFERENCE_SIGNAL, canonical_section

from .entries_lines import REFERENCES, RefLine, same_baseline

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
_AUTHOR_START_RE = re.compile(
    r"^(?:(?:van|von|de|der|den|da|di|du|la|le|del|dos|St\.)\s)*[A-Z\u00c0-\u00de][\w'\u2019\-]+(?:\s[A-Z][\w'\u2019\-]+)?"
    r"(?:,\s?(?:[A-Z]\.\s?-?){1,4}|\s[A-Z]{1,4}\b[,.:]?|,\s[A-Z][a-z]+\s)"
)
_SECTION_NUMBER_RE = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.|第.{1,3}[章节])\s*\S")
# An entry whose author is the one above, printed as a rule the text layer loses: it starts "——." or with the
# punctuation after the rule (". “Title", ", ed. n.d."); no line of running text starts with a full stop or comma.
DITTO_START_RE = re.compile(r"^(?:[\u2014\u2013_\-]{2,}|[.,](?=\s))")
_NAMES_REFERENCES_RE = re.compile(r"参考文献|\b(?:references|bibliography)\b", re.IGNORECASE)
_DITTO_EXTRA = 12.0  # points beyond the continuation indent that mark a line starting after a ditto rule
# A line that only goes on with the entry above: a URL or DOI set flush left because it is too long to indent.
_CONTINUES_RE = re.compile(r"^(?:https?://|doi:|www\.)", re.IGNORECASE)
_LABEL_SIZE_SLACK = 0.15  # share of the list's type size a line holding the very next label may differ by
# DOIs and URLs are often set in a typewriter font of another size ("doi:10.18637/jss.v040.i08" at 8 pt in a 7 pt
# list): such a line is still the entry's.
_LINK_TEXT_RE = re.compile(r"\bdoi[:.]|\b10\.\d{4,9}/|https?://|\bURL\b|www\.", re.IGNORECASE)
_MAX_SKIP = 15  # lines of another type size tolerated inside a list before the list counts as left


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


def _same_size(line: RefLine, size: float) -> bool:
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
        sized = _same_size(line, size) or (num == k + 1 and abs(line.size - size) <= _LABEL_SIZE_SLACK * size)
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
            closed_at, by_heading = i, not _NAMES_REFERENCES_RE.search(line.text)
            continue
        last = entries[-1].lines[-1]
        if line.heading and not line.ref_heading and line.page != last.page and not _resumes(lines, i, k + 1, bare):
            # The next chapter's heading ("附录A 补充内容"), whatever its size. One that the next label follows is
            # the other column's, read first on the new page (acmart's "B ONLINE RESOURCES" beside entry [20]).
            closed_at, by_heading = i, True
            continue
        if not _same_size(line, size) and not _LINK_TEXT_RE.search(line.text):
            skipped += 1
            continue
        stop = is_stop(line)
        if stop and _other_column(line, last, lines, i, k + 1, bare):
            continue  # "Appendix B: …" in the other column, between two entries
        if stop or (skipped > _MAX_SKIP and line.page != last.page):
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
    return same_page and not _below(line, last) and _resumes(lines, i, label, bare)


def _resumes(lines: list[RefLine], i: int, label: int, bare: bool, within: int = 60) -> bool:
    return any(anchor(lines[j], bare) == label for j in range(i + 1, min(i + within, len(lines))))


def _confirmed(lines: list[RefLine], i: int, num: int, size: float, bare: bool) -> bool:
    """A resumed chain needs label num+1 soon after label num, and reference-like text."""
    for j in range(i + 1, min(i + 60, len(lines))):
        if anchor(lines[j], bare) == num + 1 and _same_size(lines[j], size):
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


def author_year_entries(lines: list[RefLine], start: int) -> list[RawEntry]:
    region = _region(lines, start)
    if not region:
        return []
    geometry = all(ln.bbox for ln in region)
    starts = _starts_by_layout(region) if geometry else _starts_by_text(region)
    entries: list[RawEntry] = []
    for line, is_start in zip(region, starts, strict=True):
        if LINK_RE.match(line.text):
            continue
        if (is_start and not _CONTINUES_RE.match(line.text)) or not entries:
            entries.append(RawEntry(None, [line]))
        else:
            entries[-1].lines.append(line)
    return entries


def _region(lines: list[RefLine], start: int) -> list[RefLine]:
    body = [ln for ln in lines[start : start + 10] if not LINK_RE.match(ln.text)]
    if not body:
        return []
    size = body[0].size
    region: list[RefLine] = []
    skipped = 0
    for k, line in enumerate(lines[start:], start=start):
        # The next section's heading under the list ("APPENDIX A: JOURNAL ABBREVIATIONS"), set larger, ends it;
        # one that names references again is the list's second part ("其它参考文献示例"). On a new page, the
        # heading ends the list unless entries follow it (another column's heading read first).
        larger_heading = line.heading and not line.ref_heading and line.size > size + 0.6
        ends = region and larger_heading and not _NAMES_REFERENCES_RE.search(line.text)
        if ends and (_below(line, region[-1]) or (line.page != region[-1].page and not _entries_follow(lines, k + 1))):
            break
        if not _same_size(line, size) and not _LINK_TEXT_RE.search(line.text):
            skipped += 1
            continue
        if region and region[-1].page == line.page and _same_baseline_after(region[-1], line):
            # A piece of a justified line that the text layer cut at a wide space ("10.1080/… | URL https://…"):
            # in one column of a list, two lines never share a baseline.
            region[-1] = _joined(region[-1], line)
            continue
        if region and skipped > _MAX_SKIP and line.page != region[-1].page:
            break
        if is_stop(line) or (not line.size and not line.in_references):
            break
        if names_the_list(line):
            continue  # the list's name repeated on a following page (see numbered_entries)
        region.append(line)
        skipped = 0
    return region


def _same_baseline_after(left: RefLine, line: RefLine) -> bool:
    return bool(left.bbox and line.bbox) and line.bbox[0] >= left.bbox[2] and same_baseline(left, line)


def _joined(left: RefLine, right: RefLine) -> RefLine:
    box = (left.bbox[0], min(left.bbox[1], right.bbox[1]), right.bbox[2], max(left.bbox[3], right.bbox[3]))
    return replace(left, text=f"{left.text} {right.text}", bbox=box)


def _entries_follow(lines: list[RefLine], i: int, within: int = 3) -> bool:
    """An author-year entry starts among the next lines: a name start and a year."""
    nearby = lines[i : i + within]
    return any(_AUTHOR_START_RE.match(ln.text) for ln in nearby) and bool(
        YEAR_RE.search(" ".join(ln.text for ln in nearby))
    )


def _below(line: RefLine, above: RefLine) -> bool:
    """`line` follows `above` in its column on its page (a heading read first from another column does not)."""
    if line.page != above.page or not line.bbox or not above.bbox:
        return False
    return abs(line.bbox[0] - above.bbox[0]) < 40 and line.bbox[1] > above.bbox[1]


def _starts_by_layout(region: list[RefLine]) -> list[bool]:
    """Hanging indent (first line out, the rest in) when the list uses it; else vertical space between entries,
    or a link line ("Publisher Full Text") closing the previous entry."""
    lefts = _column_lefts(region)
    indents = [ln.bbox[0] - lefts[_col_key(ln, lefts)] for ln in region]
    indented = sorted(d for d in indents if 3 <= d <= 60)
    hanging = 0.2 * len(region) <= len(indented) <= 0.9 * len(region)
    # Continuation lines share one indent; a line set clearly deeper holds an entry whose author rule (a 3-em
    # dash, lost in the text layer) stands where the names would be: "Attwood (2006) …" then "   ed. (2009) …".
    ditto_indent = indented[len(indented) // 2] + _DITTO_EXTRA if indented else float("inf")
    pitches = sorted(
        b.bbox[1] - a.bbox[1]
        for a, b in itertools.pairwise(region)
        if a.page == b.page and abs(a.bbox[0] - b.bbox[0]) < 40 and 0 < b.bbox[1] - a.bbox[1] < 40
    )
    pitch = pitches[len(pitches) // 4] if pitches else 0.0  # the tight in-entry spacing, not the gaps
    # Even spacing and no hanging indent (one-line entries, MNRAS): the layout tells nothing, the text decides.
    even = bool(pitches) and pitches[-1] <= 1.1 * pitch
    out = []
    for i, line in enumerate(region):
        prev = region[i - 1] if i else None
        if prev is None:
            out.append(True)
        elif LINK_RE.match(prev.text):
            out.append(not LINK_RE.match(line.text))
        elif hanging:
            # The ditto rule stands in the margin, so its entry's text starts indented.
            closed = prev.text.rstrip().endswith(".")
            ruled = bool(DITTO_START_RE.match(line.text)) or indents[i] > ditto_indent
            out.append(indents[i] < 3 or (ruled and closed))
        elif prev.page == line.page and abs(prev.bbox[0] - line.bbox[0]) < 40 and line.bbox[1] - prev.bbox[1] > 0:
            # Extra space before a line starts an entry; a little extra only with an author-like start.
            gap = line.bbox[1] - prev.bbox[1]
            spaced = gap > 1.4 * pitch or (gap > 1.1 * pitch and _text_start(prev, line))
            out.append(_text_start(prev, line) if even else pitch > 0 and spaced)
        else:  # a new column or page: only the text can tell
            out.append(_text_start(prev, line))
    return out


def _text_start(prev: RefLine, line: RefLine) -> bool:
    return bool(_AUTHOR_START_RE.match(line.text)) and prev.text.rstrip()[-1:] in ".)0123456789"


def _col_key(line: RefLine, lefts: dict) -> tuple:
    return min((k for k in lefts if k[0] == line.page), key=lambda k: abs(k[1] - line.bbox[0]))


def _column_lefts(region: list[RefLine]) -> dict[tuple, float]:
    lefts: dict[tuple, float] = {}
    for page in {ln.page for ln in region}:
        xs = sorted(ln.bbox[0] for ln in region if ln.page == page)
        group = [xs[0]]
        for x in xs[1:]:
            if x - group[-1] > 60:
                lefts[(page, group[0])] = group[0]
                group = []
            group.append(x)
        lefts[(page, group[0])] = group[0]
    return lefts


def _starts_by_text(region: list[RefLine]) -> list[bool]:
    out = []
    for i, line in enumerate(region):
        prev = region[i - 1] if i else None
        if prev is None or (line.block != prev.block and line.text[:1].isupper()):
            out.append(True)
        else:
            out.append(_text_start(prev, line))
    return out
