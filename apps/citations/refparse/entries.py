"""Find a document's reference list, split it into entries and parse each entry (design.md, issue 4).

Detection, most trusted first:
1. a References/Bibliography/参考文献 heading (the chunker's canonical "References" section) followed by a
   numbered chain (1, 2, 3, ...), an alphabetic-label list ([Cop87], entries_labels.py) or author-year entries;
   an item reads as an entry when it carries reference signals, a GB/T type code, a URL, or a parsed author list;
2. no heading (REVTeX prints none): a chain of numbered entries towards the end of the text whose entries mostly
   start with an author list and hold a year, so figure axes, table rows or numbered steps are not taken;
3. a chain that resumes once further on (Nature's main-text and Methods reference lists).
The list stops at Acknowledgements, copyright lines, captions and headings. When in doubt no entry is returned:
a wrong entry would later produce a wrong citation link.
"""

from __future__ import annotations

import re

from apps.documents.parsing import ChunkDraft, ParsedDocument
from apps.documents.parsing.textutil import join_lines, normalise_for_match

from .entries_fields import DITTO_YEAR_RE, names_given_first, parse_entry
from .entries_labels import alpha_entries, strip_alpha_label
from .entries_lines import RefLine, document_lines
from .entries_split import (
    LINK_TAIL_RE,
    YEAR_RE,
    RawEntry,
    anchor,
    is_list_name,
    looks_like_reference,
    numbered_entries,
    split_midline,
    strip_anchor,
)
from .entries_unnumbered import DITTO_START_RE, author_year_entries
from .styles_gbt import is_gbt
from .types import ReferenceEntry

_MIN_ENTRIES = 2
_LEVEL2_MIN_ENTRIES = 3
_YEAR_SLOT_RE = re.compile(
    r"(?<!\w)\((?:1[5-9]|20)\d{2}[a-z]?\)|[.;]\s(?:1[5-9]|20)\d{2}[a-z]?;"
)  # a year, not an issue "(7193)", "55(1903)"
_DOI_RE = re.compile(r"\b10\.\d{4,9}/\S+")
_URL_RE = re.compile(r"https?://|\bwww\.")
_WEB_ADDRESS_RE = re.compile(r"(?:https?://|\bwww\.)\S+")
# A URL the text layer gives with spaces at its break points ("https:/ / www . loc . gov / pictures /" from
# biblatex's \url): a space is part of it next to a slash, or on both sides of a dot; not before other text.
_SPACED_URL_RE = re.compile(
    r"(?:https?:|\bwww\s?\.)(?:\S|\s(?=[/.]\S|[/.]\s\S)|(?<=/)\s(?=[\w~%\-]+\s?[/.])|(?<=\s\.)\s(?=\w))+"
)
_ACCESSED_RE = re.compile(rf"(?:<[^<>]+>|{_WEB_ADDRESS_RE.pattern})[\s.,]*\([^()]{{0,30}}\)")  # an address, its date
# A name starts the entry: a capital or a CJK character, after lower-case particles ("d’Aspremont", "van der")
# and an APA descriptor ("[dataset] Kaul, H.").
# How a listed work without an author-year start may open: a name or title, a quoted title, a bracketed name.
_LISTED_START_RE = re.compile(r"^[\[“\"‘']?[^\W\d_a-z]")
_UNDATED_RE = re.compile(r"\b(?:forthcoming|n\.\s?d\.|\d{3,4}s?\??\]?\.)", re.IGNORECASE)  # "1480s.", "[1957?]."
_SEE_RE = re.compile(r"[.,]\s+(?:See|see also)\s+[^\W\d_a-z]")  # "Ashe, Gordon. See Creasey, John."
_MAX_LISTED_WORK = 600  # characters: longer is a paragraph the list ran into, not a work
_NAME_START_RE = re.compile(
    r"^(?:\[[a-z][a-z ]{2,20}\]\s*)?"
    r"(?:[a-z]{1,3}['\u2019]|(?:van|von|de|der|den|da|di|du|la|le|del|dos|ten|ter)\s)*"
    r"[^\W\d_a-z](?![.\d]*\d)"
)
# Names in Chinese are short and followed by their year: "钟文发(1996)。", "胡振震, 2018." (a paragraph of prose
# that starts with a character and holds "GB/T 7714-2005" somewhere is not an entry).
_CJK_NAMES_YEAR_RE = re.compile(
    r"^[^(（\d]{1,60}?[(（]?(?:1[5-9]|20)\d{2}[a-z]?(?:[–-](?:1[5-9]|20)\d{2})?(?:[)）]|[.,。，])"
)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_QUOTED_RE = re.compile(r"[\u201c\"][^\u201d\"]{8,}[\u201d\"]")  # a title in quotation marks
_PHYSICS_VENUE_RE = re.compile(r"\b\d+,\s*\d+\s*\((?:1[5-9]|20)\d{2}\)")  # "Phys. Rev. 94, 262 (1954)"
_FIELD_SEP_RE = re.compile(r"[.。，,;；:：]\s*")
_PROBE = 40  # normalised characters of an entry looked up in chunk text


def find_reference_entries(
    parsed: ParsedDocument, drafts: list[ChunkDraft], data: bytes | None = None
) -> list[ReferenceEntry]:
    """The document's reference entries in list order. `data` (the original PDF bytes) lets entries be split on
    the printed lines; without it the parser's block text is used, which is coarser for PDFs."""
    lines = split_midline(document_lines(parsed, data))
    raw = _detect(lines)
    entries = []
    texts = [_entry_text(r) for r in raw]
    given_first = names_given_first(texts)  # the list's name order decides lone names
    for raw_entry, text in zip(raw, texts, strict=True):
        if not text:
            continue
        fields = parse_entry(text, entries[-1].authors if entries else None, given_first=given_first)
        entries.append(
            ReferenceEntry(
                index=len(entries),
                number=raw_entry.number,
                text=text,
                doi=fields["doi"],
                year=fields["year"],
                first_author=fields["first_author"],
                authors=fields["authors"],
                title=fields["title"],
                venue=fields["venue"],
                page=raw_entry.lines[0].page,
                label=raw_entry.label,
            )
        )
    _locate(entries, drafts)
    return entries


def _detect(lines: list[RefLine]) -> list[RawEntry]:
    starts = _heading_starts(lines)
    best, single = _longest_under(lines, starts)  # level 1
    # (the lists' names may be set as plain lines, as LaTeX's \section* in a book without an outline entry)
    chapters = _chapter_lists(lines, starts) or _chapter_lists(lines, _named_starts(lines))
    if len(chapters) > len(best):
        return chapters
    if not best:
        best, named_single = _longest_under(lines, _named_starts(lines))
        single = single or named_single
    return best or _headless(lines) or single  # levels 2 and 3


def _longest_under(lines: list[RefLine], starts: list[int]) -> tuple[list[RawEntry], list[RawEntry]]:
    """The longest list under one of `starts`, and the first list of one entry found."""
    single: list[RawEntry] = []
    best: list[RawEntry] = []
    best_named = False
    for start in starts:
        found = _list_under(lines, start)
        named = is_list_name(lines[start - 1].text)
        if len(found) == 1 and not single:
            single = found  # a list of one ("[1] J. Bruix and M. Sherman, …"), if nothing longer is found
        elif len(found) > len(best) or (len(found) == len(best) > 1 and named and not best_named):
            # The longest list under a References heading: a title ending in "Literature" is read as one too,
            # and its affiliations "¹ Dipartimento …", "² Java Technology Center …" must not win over the list.
            # As long as another, the one under the list's own name: a style guide's examples under "4.4.2 参考文献
            # 引用示例" (a sub-section of one about references) are as many as its bibliography's entries.
            best, best_named = found, named
    return best, single


def _chapter_lists(lines: list[RefLine], starts: list[int]) -> list[RawEntry]:
    """A book's reference list at the end of each chapter (LaTeX Notes: eight lists under "参考文献", each from
    [1]): every list under a heading printed the same way, nothing but the list's name, read in order. A numbered
    list must start at 1, so a list a page break split under a repeated heading is not read twice, and a section
    about references ("6.3 参考文献", numbered where the lists are not) is not one of them."""
    by_name: dict[str, list[list[RawEntry]]] = {}
    for start in starts:
        name = lines[start - 1].text.strip()
        if not is_list_name(name) or not (found := _list_under(lines, start)):
            continue
        if found[0].number not in (None, 1):
            continue
        by_name.setdefault(re.sub(r"\s+", "", name), []).append(found)
    lists = max(by_name.values(), key=len, default=[])
    if len(lists) < 2:
        return []
    seen: set[int] = set()
    out: list[RawEntry] = []
    for found in lists:
        ids = {id(line) for entry in found for line in entry.lines}
        if ids & seen:
            return []  # two headings read one list: not a list per chapter
        seen |= ids
        out += found
    return out


def _list_under(lines: list[RefLine], start: int) -> list[RawEntry]:
    """The entries under one References heading: a numbered chain, an alphabetic-label list or an author-year
    list, whichever reads as references; one numbered entry alone when it is authored; else none."""
    numbered = numbered_entries(lines, start) or _bare_numbered(lines, start)
    if len(numbered) >= _MIN_ENTRIES and _share(numbered, _entry_like) >= 0.5:
        return numbered
    if len(numbered) == 1 and (_authored_entry(text := _entry_text(numbered[0])) or _URL_RE.search(text)):
        return numbered  # one entry under the heading: authored, or a web page ("1. National institute of …")
    if numbered:
        return []  # a numbered start that does not read like references: not an author-year list either
    labelled = alpha_entries(lines, start)
    if len(labelled) >= _MIN_ENTRIES and _share(labelled, _entry_like) >= 0.5:
        return labelled
    author_year = _through_last_reference(author_year_entries(lines, start))
    if len(author_year) >= _MIN_ENTRIES and sum(ok for _, ok in author_year) / len(author_year) >= 0.7:
        first = next(i for i, (_, ok) in enumerate(author_year) if ok)
        return [e for i, (e, ok) in enumerate(author_year) if ok or (i > first and _listed_work(_entry_text(e)))]
    # One entry with a bare number ("1 东南大学研究生院. …[EB/OL]. 2011. http://…"): only now, when the section
    # reads as no list of any kind, and only an entry that is a reference on its own (authors and a year, or a
    # GB/T type code); a footnote or a stray "1 " before a sentence is neither.
    lone = numbered_entries(lines, start, bare=True)
    if len(lone) == 1 and _authored_entry(_entry_text(lone[0])):
        return lone
    return []


def _bare_numbered(lines: list[RefLine], start: int) -> list[RawEntry]:
    """A list labelled with bare numbers ("1 Uniform Requirements …"). A single one is a footnote or a stray
    number, not a list: it must not keep the author-year reading of the section from being tried."""
    entries = numbered_entries(lines, start, bare=True)
    return entries if len(entries) >= _MIN_ENTRIES else []


def _heading_starts(lines: list[RefLine]) -> list[int]:
    """Index of the first line after each References heading block."""
    out = []
    for i, line in enumerate(lines):
        if line.ref_heading and (i + 1 >= len(lines) or lines[i + 1].block != line.block):
            out.append(i + 1)
    return out


def _named_starts(lines: list[RefLine]) -> list[int]:
    """Where nothing under a References heading reads as a list: the list's name on a line of its own with its
    first label right under it, which the section map gave no heading because a section about citing, named
    "References" too, took that (PTPTeX's "§4. References"). Only then: a style guide's examples under "参考文献"
    must not outdo the list its heading opens."""
    return [
        i + 1
        for i, line in enumerate(lines[:-1])
        if not line.ref_heading
        and lines[i + 1].block != line.block
        and is_list_name(line.text)
        and anchor(lines[i + 1]) == 1
    ]


def _headless(lines: list[RefLine]) -> list[RawEntry]:
    """The longest reference-like numbered chain that reaches into the last part of the document."""
    best: list[RawEntry] = []
    n = len(lines)
    position = {id(line): i for i, line in enumerate(lines)}
    for i, line in enumerate(lines):
        if anchor(line) != 1:
            continue
        chain = numbered_entries(lines, i, first_within=1)
        if len(chain) < _LEVEL2_MIN_ENTRIES or _share(chain, _authored_entry) < 0.6:
            continue
        if position[id(chain[-1].lines[-1])] >= 0.6 * n and len(chain) >= len(best):
            best = chain
    return best


def _share(entries: list[RawEntry], test) -> float:
    return sum(1 for e in entries if test(_entry_text(e))) / len(entries) if entries else 0.0


def _entry_like(text: str) -> bool:
    """Under a References heading: a numbered item that reads as a reference. Short CS entries ("S. Roth, M.J.
    Black. Fields of Experts. CVPR 2005.") and web references ("INTEL (2024) What Is a GPU? Available at …")
    carry too few of the signals looks_like_reference counts, so a parsed author list, a URL, or a year with a
    quoted title or a physics venue ("Quantum 123, 123456 (1916)") also does."""
    if looks_like_reference(text) or is_gbt(text) or _URL_RE.search(text):
        return True
    if YEAR_RE.search(text) and (_QUOTED_RE.search(text) or _PHYSICS_VENUE_RE.search(text)):
        return True  # "discussion on “Biblatex: submitting to the arXiv” (2017-01-10)", "Quantum 123, 1 (1916)"
    if YEAR_RE.search(text) and len([p for p in _FIELD_SEP_RE.split(text) if p.strip()]) >= 3:
        return True  # fields and a year, in Chinese punctuation too: "王磊。LATEX 2ε 插图指南，2000。"
    fields = parse_entry(text)
    return bool(fields["authors"]) and (fields["year"] is not None or bool(fields["title"]))


def _authored_entry(text: str) -> bool:
    """With no heading (level 2) the bar is higher: numbered paragraphs of body text also hold years and
    journal words. A reference starts with its authors (or is GB/T), and has a year."""
    if is_gbt(text):
        return True
    fields = parse_entry(text)
    if not fields["authors"] or fields["year"] is None:
        return False
    return looks_like_reference(text) or bool(fields["title"])


def _through_last_reference(entries: list[RawEntry]) -> list[tuple[RawEntry, bool]]:
    """Each entry with whether it reads as an author-year entry, up to the last that does: what the list's region
    ran on into (an index of subjects after the bibliography, "appendixes, 4") is not part of it."""
    marked = [(e, _author_year_like(text) or _web_page(text)) for e in entries for text in [_entry_text(e)]]
    last = max((i for i, (_, ok) in enumerate(marked) if ok), default=-1)
    return marked[: last + 1]


def _author_year_like(text: str) -> bool:
    """One author-year entry: a capital start (or the ditto of the author above, its rule lost in the text layer:
    '. “Pottery, …”') and a year, and not two entries run together (two "(2003)" or "; 2003;" years are what a
    missed split looks like)."""
    merged = _run_together(text)
    if _CJK_RE.match(text):
        start = bool(_CJK_NAMES_YEAR_RE.match(text))
    else:
        start = bool(_NAME_START_RE.match(text) or DITTO_START_RE.match(text) or DITTO_YEAR_RE.match(text))
    return len(text) >= 20 and bool(YEAR_RE.search(text)) and start and not merged


def _run_together(text: str) -> bool:
    """Two "(2003)" or "; 2003;" years: what two entries missed as one look like. A DOI may hold "(2005)", and
    the date a web address was read on follows it ("<www.rz.uni-karlsruhe.de/~gn97/> (2007)."): neither counts."""
    text = _ACCESSED_RE.sub(" ", _DOI_RE.sub(" ", text))
    return len(_YEAR_SLOT_RE.findall(text)) >= 2


def _web_page(text: str) -> bool:
    """An undated web page, cited by who published it, its title and its address: "The Association of Research
    Libraries, New Systems of Scholarly Communication http://www.arl.org/scomm/change.html". One address, at the
    end, after a name or title of some length; no year (a dated entry is judged as author-year) and no DOI (a work
    with a DOI has a date: without one, this is the tail of an entry split in two)."""
    urls = _WEB_ADDRESS_RE.findall(text)
    if len(urls) != 1 or YEAR_RE.search(text) or _DOI_RE.search(text) or len(text) > _MAX_LISTED_WORK:
        return False
    before, _, after = text.partition(urls[0])
    return bool(_LISTED_START_RE.match(text)) and len(before) >= 20 and not after.strip()


def _listed_work(text: str) -> bool:
    """Between two author-year entries, an entry the list's layout set apart that has no "Name, 1999." shape
    but is one of the list's works: a cross-reference ("Ashe, Gordon. See Creasey, John."), a forthcoming or
    undated work, a title or a bracketed author first ("“Ghost Dancing Music.” n.d.", "[Cook, Ebenezer?]. 1730."),
    a work before 1600 ("Stanze in lode della donna brutta. 1547."), a GB/T 7714 entry marked by its type code but
    undated ("萧钰. 出版业信息化迈入快车道[EB/OL]. http://…"). Not two entries run together."""
    if len(text) < 20 or len(text) > _MAX_LISTED_WORK or not _LISTED_START_RE.match(text):
        return False
    dated = bool(YEAR_RE.search(text) or _UNDATED_RE.search(text))
    merged = _run_together(text)
    return (dated or bool(_SEE_RE.search(text)) or is_gbt(text)) and not merged  # GB/T: "…[EB/OL]. http://…"


def _entry_text(entry: RawEntry) -> str:
    parts = [ln.text for ln in entry.lines]
    if entry.number is not None and parts:
        parts[0] = strip_anchor(parts[0])
    elif entry.label and parts:
        parts[0] = strip_alpha_label(parts[0])
    text = join_lines(parts)
    text = _SPACED_URL_RE.sub(lambda m: re.sub(r"\s+", "", m.group()), text)
    return LINK_TAIL_RE.sub("", text).strip()


def _locate(entries: list[ReferenceEntry], drafts: list[ChunkDraft]) -> None:
    """chunk_indices: the chunks whose text holds the entry's start, end or middle (an entry can straddle two
    chunks). Reference-section chunks are searched first; other chunks only when those do not hold it (a list
    the section map did not see as References)."""
    keys = [(d.chunk_index, normalise_for_match(d.text), d.section_key == "References") for d in drafts]
    for entry in entries:
        norm = normalise_for_match(entry.text)
        if not norm:
            continue
        probes = {norm} if len(norm) <= _PROBE else {norm[:_PROBE], norm[-_PROBE:]}
        if len(norm) > 3 * _PROBE:
            mid = len(norm) // 2
            probes.add(norm[mid - _PROBE // 2 : mid + _PROBE // 2])
        for refs_only in (True, False):
            found = sorted(
                {idx for idx, text, is_ref in keys if (is_ref or not refs_only) for p in probes if p in text}
            )
            if found:
                entry.chunk_indices = found
                break
