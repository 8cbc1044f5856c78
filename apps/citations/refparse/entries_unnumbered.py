"""Cut a reference list without labels (author-year, APA, Chicago, ...) into entries: where each entry starts is
read from the layout (a hanging indent, the first line's left edge per column) when the lines have boxes, else from
the text (a line that opens with a name and has a year soon after).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from .entries_lines import RefLine, same_baseline
from .entries_split import (
    LINK_RE,
    LINK_TEXT_RE,
    MAX_SKIP,
    NAMES_REFERENCES_RE,
    YEAR_RE,
    RawEntry,
    below,
    is_stop,
    names_the_list,
    same_size,
)

_AUTHOR_START_RE = re.compile(
    r"^(?:(?:van|von|de|der|den|da|di|du|la|le|del|dos|St\.)\s)*[A-Z\u00c0-\u00de][\w'\u2019\-]+(?:\s[A-Z][\w'\u2019\-]+)?"
    r"(?:,\s?(?:[A-Z]\.\s?-?){1,4}|\s[A-Z]{1,4}\b[,.:]?|,\s[A-Z][a-z]+\s)"
)
# An entry whose author is the one above, printed as a rule the text layer loses: it starts "——." or with the
# punctuation after the rule (". “Title", ", ed. n.d."); no line of running text starts with a full stop or comma.
DITTO_START_RE = re.compile(r"^(?:[\u2014\u2013_\-]{2,}|[.,](?=\s))")
_DITTO_EXTRA = 12.0  # points beyond the continuation indent that mark a line starting after a ditto rule
# A line that only goes on with the entry above: a URL or DOI set flush left because it is too long to indent.
_CONTINUES_RE = re.compile(r"^(?:https?://|doi:|www\.)", re.IGNORECASE)


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
        ends = region and larger_heading and not NAMES_REFERENCES_RE.search(line.text)
        if ends and (below(line, region[-1]) or (line.page != region[-1].page and not _entries_follow(lines, k + 1))):
            break
        if not same_size(line, size) and not LINK_TEXT_RE.search(line.text):
            skipped += 1
            continue
        if region and region[-1].page == line.page and _same_baseline_after(region[-1], line):
            # A piece of a justified line that the text layer cut at a wide space ("10.1080/… | URL https://…"):
            # in one column of a list, two lines never share a baseline.
            region[-1] = _joined(region[-1], line)
            continue
        if region and skipped > MAX_SKIP and line.page != region[-1].page:
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
