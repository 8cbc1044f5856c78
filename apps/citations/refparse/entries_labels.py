"""Reference lists labelled with letters and years ("[Cop87] D. Cope, …", "[KMN+02]"): the alpha, amsalpha and
IEEEtran "alpha" styles. There is no number chain to follow, so the labels' alphabetical order stands in for
it: each entry's label sorts at or after the one before (a label out of order is text, not an entry start).
"""

from __future__ import annotations

import re

from .entries_lines import RefLine
from .entries_split import LINK_RE, RawEntry, is_stop, trim_last

ALPHA_LABEL_RE = re.compile(r"^\s*\[([A-Za-z][A-Za-z+\-]{0,9}\d{0,4}[a-z]?)\]\s*(?=\S)")
# Bracketed words that start lines of entries without being labels.
_NOT_LABELS = {"online", "internet", "accessed", "available", "electronic", "abstract", "cited", "pdf", "en", "in"}
_MAX_SKIP = 15


def alpha_label(line: RefLine) -> str | None:
    m = ALPHA_LABEL_RE.match(line.text)
    if not m or m.group(1).lower() in _NOT_LABELS:
        return None
    return m.group(1)


def strip_alpha_label(text: str) -> str:
    return ALPHA_LABEL_RE.sub("", text, count=1)


def _key(label: str) -> str:
    """The letters before the year: "Joh15b" sorts as "joh" (its suffix letter does not order it after "Joh16")."""
    return re.sub(r"[^a-z]", "", re.match(r"[A-Za-z+\-]*", label).group(0).lower())


def alpha_entries(lines: list[RefLine], start: int, first_within: int = 8) -> list[RawEntry]:
    n = len(lines)
    first = next((j for j in range(start, min(start + first_within, n)) if alpha_label(lines[j])), None)
    if first is None:
        return []
    size = lines[first].size
    entries: list[RawEntry] = []
    last_key = ""
    skipped = 0
    for i in range(first, n):
        line = lines[i]
        label = alpha_label(line)
        same_size = not (line.size and size) or abs(line.size - size) <= 0.6
        if label and same_size and _key(label) >= last_key:
            entries.append(RawEntry(None, [line], label=label))
            last_key, skipped = _key(label), 0
            continue
        if not same_size:
            skipped += 1
            continue
        if is_stop(line) or (skipped > _MAX_SKIP and line.page != entries[-1].lines[-1].page):
            break
        if not LINK_RE.match(line.text):
            entries[-1].lines.append(line)
        skipped = 0
    trim_last(entries)
    return entries
