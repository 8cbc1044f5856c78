"""Spaces OCR dropped between English words ("Fieldnotesfromtheriversurvey"), put back from a word list.

The recogniser (PP-OCRv4's Chinese+English model) reads letters well but often loses the narrow space between two
Latin words, most of all in short lines and headings (measured on rasterised pages: about one space in twenty), and
a glued run is neither searchable nor quotable. A run of letters that is not an English word is split into the most
probable sequence of words (Norvig's segmentation: word probabilities from pyspellchecker's English word counts,
MIT), and only when every piece is a common enough word; anything else (names, terms, acronyms, mixed case such as
"LEEk", and words the same document spells elsewhere) is left as it was read.
"""

from __future__ import annotations

import math
import re
import threading
from functools import lru_cache

MIN_RUN = 6  # shorter runs are nearly always one word
MAX_WORD = 20
MIN_COUNT = 200  # a piece must be at least this common in the word counts (two letters: SHORT_COUNT)
SHORT_COUNT = 200_000  # "of", "to", "in", "on", "at"... not "hn" or "ek"
_RUN = re.compile(rf"[A-Za-z]{{{MIN_RUN},}}")
_LOCK = threading.Lock()
_counts: dict[str, int] | None = None
_total = 1


def restore_spaces(text: str, known: frozenset[str] = frozenset()) -> str:
    """`text` with glued English words spaced; `known`: lower-case words the document itself uses (kept whole)."""
    return _RUN.sub(lambda m: m.group() if m.group().lower() in known else split_run(m.group()), text)


@lru_cache(maxsize=8192)
def split_run(run: str) -> str:
    if not (run.islower() or run.istitle()):
        return run  # "LEEk", "RNA", "McDonald": not glued prose
    counts = _word_counts()
    lower = run.lower()
    if lower in counts:
        return run  # a word, however rare ("intergovernmental", "subsistent")
    pieces = _segment(lower, counts)
    if pieces is None or len(pieces) < 2:
        return run
    out, at = [], 0
    for piece in pieces:
        out.append(run[at : at + len(piece)])
        at += len(piece)
    return " ".join(out)


def _segment(text: str, counts: dict[str, int]) -> list[str] | None:
    """The most probable split of `text` into common words (least total -log p), or None."""
    best: list[tuple[float, int] | None] = [None] * (len(text) + 1)
    best[0] = (0.0, 0)
    for end in range(1, len(text) + 1):
        for start in range(max(0, end - MAX_WORD), end):
            if best[start] is None:
                continue
            cost = _cost(text[start:end], counts)
            if cost is not None and (best[end] is None or best[start][0] + cost < best[end][0]):
                best[end] = (best[start][0] + cost, start)
    if best[-1] is None:
        return None
    pieces, end = [], len(text)
    while end:
        start = best[end][1]
        pieces.append(text[start:end])
        end = start
    return pieces[::-1]


def _cost(word: str, counts: dict[str, int]) -> float | None:
    count = counts.get(word, 0)
    floor = SHORT_COUNT if len(word) <= 2 and word not in ("a", "i") else MIN_COUNT
    if len(word) == 1 and word not in ("a", "i"):
        return None
    if count < floor:
        return None
    return math.log(_total / count)


def _word_counts() -> dict[str, int]:
    global _counts, _total
    if _counts is None:
        with _LOCK:
            if _counts is None:
                from spellchecker import SpellChecker  # its English word counts (MIT), loaded on first use

                counts = dict(SpellChecker(language="en", distance=1).word_frequency.dictionary)
                _total = sum(counts.values()) or 1
                _counts = counts
    return _counts
