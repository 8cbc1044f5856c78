"""In-text markers of alphabetic-label lists ("[Cop87]", "[Joh15a, Kar15b]", "[KMN+02]"): each label must be one
of the list's own labels, so a bracketed word ("[Online]", "[sic]") links nothing."""

from __future__ import annotations

import re

from .types import CitationMention, ReferenceEntry

LABEL = "label"
_ONE = r"[A-Za-z][A-Za-z+\-]{0,9}\d{0,4}[a-z]?"
_MARKER_RE = re.compile(rf"\[({_ONE}(?:\s*[,;]\s*{_ONE})*)\]")


def find_label_mentions(chunks: list[tuple[int, str]], entries: list[ReferenceEntry]) -> list[CitationMention]:
    by_label = {e.label: e.index for e in entries if e.label}
    mentions = []
    for chunk_index, text in chunks:
        for m in _MARKER_RE.finditer(text):
            labels = [part.strip() for part in re.split(r"[,;]", m.group(1))]
            if not labels or any(label not in by_label for label in labels):
                continue  # one unknown label: not a citation of this list (or a misread one): no link
            mentions.append(
                CitationMention(
                    chunk_index=chunk_index,
                    start=m.start(),
                    end=m.end(),
                    entry_indices=[by_label[label] for label in labels],
                    style=LABEL,
                )
            )
    return mentions
