"""How well a parse finds a document's reference list: entries against the printed count, titles parsed, and the
first and last entries as printed (ground truth written by hand, pdf-varied/ground_truth.json)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.citations.refparse.types import ReferenceEntry
from apps.evaluation.reference_entries import overlap, tokens

ENDS_MATCH = 0.8  # share of tokens each side must find in the other for a first or last entry to count as read


def reference_scores(truth: dict, entries: Sequence[ReferenceEntry]) -> dict | None:
    """None when the document has no bibliography to count (ref_count null)."""
    expected = truth.get("ref_count")
    if expected is None:
        return None
    found = len(entries)
    titled = [bool(entry.title.strip()) for entry in entries]
    return {
        "expected": expected,
        "found": found,
        "exact": found == expected,
        "within_5pct": abs(found - expected) <= 0.05 * expected,
        "titled": sum(titled),
        # Physics and astronomy styles print no article titles ("Aurière, M. 1982, A&A, 109, 301"): there a
        # parsed title is a wrong one, counted apart instead of in the share of titles parsed.
        "titles_printed": truth.get("titles_printed", True),
        **_title_slots(titled, expected, truth.get("untitled_entries") or []),
        "first_ok": _same(truth.get("first_ref"), entries[0].text if entries else ""),
        "last_ok": _same(truth.get("last_ref"), entries[-1].text if entries else ""),
    }


def _title_slots(titled: list[bool], expected: int, untitled: list[int]) -> dict:
    """Where the truth lists the entries that print no title (1-based: a note, "personal communication", a
    journal and page only), only the others can have one parsed: `title_slots` entries print a title,
    `titled_in_slots` of them got one, `titled_without_slot` got one where none is printed (a wrong title). With
    the whole list read (as many entries as printed) the positions are compared; otherwise counts, the untitled
    ones taken from the found entries first (a bound, not a match)."""
    if len(titled) == expected:
        none_printed = set(untitled)
        slots = [has_title for position, has_title in enumerate(titled, 1) if position not in none_printed]
        return {
            "title_slots": len(slots),
            "titled_in_slots": sum(slots),
            "titled_without_slot": sum(titled) - sum(slots),
        }
    slots = max(len(titled) - len(untitled), 0)
    return {"title_slots": slots, "titled_in_slots": min(sum(titled), slots), "titled_without_slot": 0}


_LABEL_RE = re.compile(r"^\s*(?:\[\d{1,4}\]|\d{1,4}\.(?=\s))\s*")


def _same(expected: str | None, found: str) -> bool | None:
    if not expected:
        return None
    # The truth prints the label ("[1] JACoW, http://www.jacow.org"), an entry's text has none: on an entry of
    # three words the label alone would fail it.
    expected = _LABEL_RE.sub("", expected)
    if not tokens(expected):  # an entry that is a URL alone (its tokens are set aside as an identifier)
        return "".join(expected.split()) == "".join(found.split())
    recall, precision = overlap(expected, found)
    return recall >= ENDS_MATCH and precision >= ENDS_MATCH
