"""Lists in the evidence: the items after a lead-in ("… the following assumptions:", "包括以下14个安全要素：") or a
numbered, lettered or bulleted run, each item kept with the evidence number of the chunk it is in (issue 15).

The reader is in four parts:

- `list_enumerators`: the counter or bullet that opens an item, with its style and value;
- `list_lines`: a chunk read as lines (items inside one line split apart, the section heading marked), and the
  lead-ins that announce a list;
- `list_blocks`: lists in the lines of consecutive chunks of one document (`find_lists`);
- `list_continuations`: the chunks a list runs into when retrieval did not return them (`continuations`), and
  those it skipped between two it returned (`between`).

This module keeps the names callers import.
"""

from __future__ import annotations

from apps.citations.answers.list_blocks import BODY_LINES, GAP_LINES, ListBlock, find_lists
from apps.citations.answers.list_continuations import CHUNKS_IN_ALL, CHUNKS_PER_LIST, GAP_CHUNKS, between, continuations
from apps.citations.answers.list_enumerators import Enumerator, enumerator_at, is_list_item
from apps.citations.answers.list_lines import Line, is_lead_in, last_sentence, lines_of

__all__ = [
    "BODY_LINES",
    "CHUNKS_IN_ALL",
    "CHUNKS_PER_LIST",
    "GAP_CHUNKS",
    "GAP_LINES",
    "Enumerator",
    "Line",
    "ListBlock",
    "between",
    "continuations",
    "enumerator_at",
    "find_lists",
    "is_lead_in",
    "is_list_item",
    "last_sentence",
    "lines_of",
]
