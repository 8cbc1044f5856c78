"""Cleaning a generator's text while it streams, so the page never shows a marker that will not survive.

Each delta is appended to the raw text; everything up to an unfinished bracket is cleaned (markers.clean_markers)
and the difference to what was already shown is sent. Cleaning can occasionally change text already sent (a space
before punctuation disappears once the punctuation arrives); then the whole text is sent again instead of a delta.
The finish event always carries the final text, so a client that missed something still ends right.

On the LLM path a citation attached to a finished sentence (answers.attach) changes text already sent: revise()
takes the whole raw text again, and the caller sends the cleaned result as a replacement.
"""

from __future__ import annotations

from collections.abc import Mapping

from apps.citations.answers.markers import clean_markers

_HOLD = 40  # a bracket still open this far from the end is not a marker; stop holding the text back


class LiveCleaner:
    def __init__(self, valid: set[int], chunk_numbers: Mapping[int, int] | None = None) -> None:
        self.valid = valid
        self.chunk_numbers = chunk_numbers or {}
        self.raw = ""
        self.shown = ""
        self.order: list[int] = []  # the evidence number behind each display number of `shown`

    def _safe(self) -> str:
        opening = max(self.raw.rfind("["), self.raw.rfind("【"))
        closing = max(self.raw.rfind("]"), self.raw.rfind("】"))
        if opening > closing and len(self.raw) - opening < _HOLD:
            return self.raw[:opening]
        return self.raw

    def feed(self, delta: str) -> dict | None:
        """A text event ({"delta": …} or {"text": …} to replace, with "order") for this delta, or None."""
        self.raw += delta
        return self._update(self._safe())

    def revise(self, raw: str) -> dict | None:
        """The raw text changed before its end (a marker inserted): the event for the new text, or None."""
        self.raw = raw
        return self._update(self._safe())

    def flush(self) -> dict | None:
        return self._update(self.raw)

    def _update(self, raw: str) -> dict | None:
        result = clean_markers(raw, self.valid, self.chunk_numbers)
        cleaned = result.text
        self.order = result.order
        if cleaned == self.shown:
            return None
        previous, self.shown = self.shown, cleaned
        # `order`: the evidence number behind each display number so far ([1] is order[0]), so a client can link
        # badges to the evidence event's passages before the finish event arrives.
        if cleaned.startswith(previous):
            # clean_markers strips the end, so a delta may need the space it took off the previous piece.
            return {"delta": cleaned[len(previous) :], "order": result.order}
        return {"text": cleaned, "order": result.order}
