"""Citation markers in generated text: every foreign form becomes `[n]`, numbers not in the evidence go, and the
survivors are renumbered in order of first use (design.md: "Only numbers of evidence that was actually retrieved
for this answer survive").

Forms seen from generators, small local models especially: `[3]`, `[1, 2]`, `[1-3]`, `[1][2]`, `[citation:3]`,
`[ref:1234]` (a chunk id), `【3】` (CJK brackets), `[^3]` (footnote style), `(3)` is NOT read as a citation: it is
too common in ordinary text (list items, equations).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

# One bracketed group: [ … ] or 【 … 】 whose inside is a marker list, e.g. "1, 2", "1-3", "citation:4", "^2".
_GROUP = re.compile(r"(?:\[|【)\s*(?P<inside>(?:\^|citation\s*:\s*|ref\s*:\s*|kb\s*)?[\w ,;:\-–^]+?)\s*(?:\]|】)", re.I)
_ITEM = re.compile(r"^(?:\^|citation\s*:\s*|kb\s*)?(?P<a>\d{1,3})(?:\s*[-–]\s*(?P<b>\d{1,3}))?$", re.I)
_REF = re.compile(r"^ref\s*:\s*(?P<chunk>\d+)$", re.I)
# The prompt's evidence wrapping ("[kb 2 begin]", "[kb 2 end]", "cite as [2]", answers.prompt), which a small model
# may copy into its answer: never a citation of its own. Public: the LLM path (answers.attach) strips it from each
# piece as it streams, cleaning strips it from the whole text, and both must agree on what it is.
PROMPT_WRAPPING = re.compile(r"[\[【]\s*kb\s*\d+\s*(?:begin|end)\s*[\]】]|\bcite as\s*[\[【]\s*\d+\s*[\]】]", re.I)
_PREFIX = re.compile(r"^(?:\^|citation\s*:\s*|ref\s*:\s*|kb\s*)", re.I)
_MAX_RANGE = 20  # "[1-300]" is not a citation range anybody meant
# What neutralise_markers looks at in evidence: _GROUP's brackets plus the full-width ［ ］, which no answer of ours
# is read with but which a model could still copy as a marker.
_ANY_GROUP = re.compile(
    r"(?:\[|【|［)\s*(?P<inside>(?:\^|citation\s*:\s*|ref\s*:\s*|kb\s*)?[\w ,;:\-–^]+?)\s*(?:\]|】|］)", re.I
)


@dataclass
class CleanedText:
    text: str
    order: list[int] = field(default_factory=list)  # the original evidence numbers, in order of first use
    removed: list[str] = field(default_factory=list)  # markers dropped (numbers outside the evidence)


def _numbers(inside: str, chunk_numbers: Mapping[int, int]) -> list[int] | None:
    """The evidence numbers a marker's inside names, or None when it is not a marker at all."""
    out: list[int] = []
    for part in re.split(r"[,;]", inside):
        part = part.strip()
        if not part:
            continue
        if ref := _REF.match(part):
            number = chunk_numbers.get(int(ref["chunk"]))
            out.append(number if number is not None else -1)
            continue
        item = _ITEM.match(part)
        if item is None:
            return None
        a = int(item["a"])
        b = int(item["b"]) if item["b"] else a
        if b < a or b - a > _MAX_RANGE:
            return None
        out.extend(range(a, b + 1))
    return out or None


def clean_markers(text: str, valid: set[int], chunk_numbers: Mapping[int, int] | None = None) -> CleanedText:
    """Normalise, validate and renumber the markers of `text`.

    `valid` holds the evidence numbers the generator was given; `chunk_numbers` maps chunk ids to them (for
    `[ref:chunk_id]`). Returns the text with `[n]` markers numbered 1.. in order of first use, and that order
    in the original numbering (so the caller can order its citations the same way).
    """
    chunk_numbers = chunk_numbers or {}
    order: list[int] = []
    removed: list[str] = []

    def replace(match: re.Match) -> str:
        numbers = _numbers(match["inside"], chunk_numbers)
        if numbers is None:
            return match.group(0)  # an ordinary bracket, e.g. "[sic]" or "[a]"
        kept = []
        for number in numbers:
            if number in valid:
                if number not in order:
                    order.append(number)
                if number not in kept:
                    kept.append(number)
        if len(kept) < len(numbers):
            removed.append(match.group(0))
        return "".join(f"[{order.index(number) + 1}]" for number in kept)

    # A small model may copy the evidence wrapping ("[kb 2 begin]", "cite as [2]") into its answer.
    text = strip_prompt_wrapping(text)
    cleaned = _GROUP.sub(replace, text)
    cleaned = re.sub(r"(\[\d+\])(?:\s*\1)+", r"\1", cleaned)  # "[1][1]" and "[1] [1]" → "[1]"
    # A space left before punctuation ("… India [3] ." with [3] gone); not one before "./img/" or ".5", which is text.
    cleaned = re.sub(r"[ \t]+([。，；：！？]|[.,;:!?](?=\s|$))", r"\1", cleaned)
    cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    return CleanedText(text=cleaned.strip(), order=order, removed=removed)


def strip_prompt_wrapping(text: str) -> str:
    """`text` without the prompt's evidence wrapping (PROMPT_WRAPPING) that a model copied into it."""
    return PROMPT_WRAPPING.sub("", text)


def neutralise_markers(text: str) -> str:
    """`text` (a document's, about to be shown to a generator) with everything clean_markers would read as a
    citation written as plain "(ref …)" instead: a source's own "[12]", "【7】" or "[citation:3]" — or one planted
    to be copied ("cite as [2]") — can then never come back from the model as a badge of ours."""

    def replace(match: re.Match) -> str:
        inside = match["inside"]
        if _REF.match(inside.strip()) is None and _numbers(inside, {}) is None:
            return match.group(0)
        return f"(ref {' '.join(_PREFIX.sub('', inside.strip()).split())})"

    return _ANY_GROUP.sub(replace, text)


def markers_in(text: str) -> list[int]:
    """The `[n]` numbers of already clean text, in order of appearance (repeats kept)."""
    return [int(n) for n in re.findall(r"\[(\d+)\]", text)]


# Where a marker goes: before a closing stop, so "… fractures [2]." reads as one claim (";" too: a list item).
_CLOSING = ".!?。！？；;"


def with_marker(sentence: str, marker: str) -> str:
    """`marker` ("[2]") before the sentence's closing punctuation, "… fractures [2]."; after anything else, a
    lead-in's colon among them, which introduces what follows ("… the following assumptions: [1]")."""
    body = sentence.rstrip()
    if body and body[-1] in _CLOSING:
        return f"{body[:-1]} {marker}{body[-1]}"
    return f"{body} {marker}"
