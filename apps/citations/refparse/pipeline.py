"""One document's references and in-text citations, as ingestion stores them and the evaluation measures them."""

from __future__ import annotations

from apps.citations.refparse.entries import find_reference_entries
from apps.citations.refparse.markers import find_mentions
from apps.citations.refparse.types import CitationMention, ReferenceEntry


def references_and_mentions(parsed, drafts, data: bytes | None) -> tuple[list[ReferenceEntry], list[CitationMention]]:
    # The file's bytes let the PDF reader re-read line structure that paragraph blocks flatten.
    entries = find_reference_entries(parsed, drafts, data=data)
    if not entries:
        return [], []
    # Citations are looked for in retrievable chunks only: the reference list (weight 0) cites nothing. A list the
    # section map did not see (no heading: REVTeX) is retrievable, but its "[12]" labels are not citations either.
    listed = {i for entry in entries for i in entry.chunk_indices}
    body = [(d.chunk_index, d.text) for d in drafts if d.weight > 0 and d.chunk_index not in listed]
    return entries, find_mentions(body, entries)
