"""A hyphen at a line end: a word the typesetter broke ("perfor-" | "mance") or a compound that happens to end the
line ("worst-" | "performing"). The first is closed up, the second keeps its hyphen.

The evidence, strongest first:
1. the document itself (`Vocabulary`, counted from its lines before they are joined): the word written whole
   elsewhere ("performance") or with its hyphen inside a line ("worst-performing");
2. an acronym before the hyphen ("DNA-" | "binding"): no English word is broken that way;
3. an English word list (pyspellchecker's, MIT): the joined form a known word ("performance") closes up; then a
   prefix that takes a hyphen by the usual rule (before the same vowel, "pre-equilibrated", "anti-inflammatory";
   "self-") keeps it; then both halves known words and the joined form not ("dual" + "encoder") keep it;
4. otherwise the hyphen is closed up, as before: in the papers measured (docs/benchmarks.md, "Line-end hyphens")
   610 of 647 judged line-end hyphens split a word, so an unknown word ("ethnoecologi-" | "cal") most likely is one.

Only hyphens whose next line starts in lower case reach here (textutil.join_lines); no CJK character is lower
case, and a CJK word before the hyphen is in no word list, so Chinese text is joined as before.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

# A word with the hyphens inside it ("state-of-the-art"); U+2010/U+2011 are the typographic and non-breaking hyphens.
_WORD_RE = re.compile(r"[^\W\d_]+(?:[-\u2010\u2011][^\W\d_]+)*")
_INNER_HYPHEN_RE = re.compile(r"[-\u2010\u2011]")
# The last word of a line that ends in a hyphen is half a word (or half a compound): not evidence of anything.
_LINE_END_WORD_RE = re.compile(r"\S*[-\u00ad\u2010]\s*$")
# Prefixes that, by the usual English rule, take a hyphen before the vowel they end with ("intra-arterial") and
# are otherwise closed up ("intrahepatic"). Only used when the joined form is not a known word.
_VOWEL_PREFIXES = frozenset(
    {"anti", "auto", "bio", "co", "de", "extra", "geo", "hydro", "infra", "intra", "macro", "micro", "mono"}
    | {"multi", "neo", "poly", "pre", "pro", "pseudo", "re", "semi", "supra", "tri", "ultra"}
)
_ALWAYS_HYPHENATED = frozenset({"self"})  # "self-governed": English writes every self- compound with its hyphen


@dataclass(frozen=True)
class Vocabulary:
    """Words of one document as written inside its lines, lower-cased: `closed` counts every word and every part
    of a hyphenated one; `hyphenated` counts each pair of adjacent parts joined by a hyphen ("worst-performing",
    and "of-the", "the-art" from "state-of-the-art"). Read-only once built, so threads may share it."""

    closed: Mapping[str, int] = field(default_factory=dict)
    hyphenated: Mapping[str, int] = field(default_factory=dict)


def document_vocabulary(lines: Iterable[str]) -> Vocabulary:
    """The vocabulary of a document's visual lines, before they are joined (a line's hyphenated last word is left
    out: it is the very thing to be decided)."""
    closed: Counter[str] = Counter()
    hyphenated: Counter[str] = Counter()
    for line in lines:
        line = _LINE_END_WORD_RE.sub("", line).replace("\u00ad", "")  # a soft hyphen inside a word marks no compound
        for match in _WORD_RE.finditer(line.lower()):
            parts = _INNER_HYPHEN_RE.split(match.group())
            closed.update(parts)
            hyphenated.update(f"{a}-{b}" for a, b in itertools.pairwise(parts))
    return Vocabulary(closed=dict(closed), hyphenated=dict(hyphenated))


def keep_hyphen(head: str, tail: str, vocabulary: Vocabulary | None = None) -> bool:
    """Whether the hyphen between `head` (the letters before a line-end hyphen) and `tail` (the letters that start
    the next line) is a compound's, to keep, rather than a broken word's, to close up."""
    if vocabulary is not None:
        seen = _document_says(head.lower(), tail.lower(), vocabulary)
        if seen is not None:
            return seen
    if len(head) >= 2 and head.isupper():
        return True  # "DNA-binding", "GPU-based": an acronym is never the first half of a broken word
    return _word_list_says(head.lower(), tail.lower())


def _document_says(head: str, tail: str, vocabulary: Vocabulary) -> bool | None:
    """True/False where the document writes the word one way more often than the other; None where it does not
    tell (neither form seen, or both as often)."""
    with_hyphen = vocabulary.hyphenated.get(f"{head}-{tail}", 0)
    closed_up = vocabulary.closed.get(head + tail, 0)
    if with_hyphen == closed_up:
        return None
    return with_hyphen > closed_up


def _word_list_says(head: str, tail: str) -> bool:
    words = english_words()
    if head + tail in words:
        return False
    if head in _ALWAYS_HYPHENATED or (head in _VOWEL_PREFIXES and tail[:1] == head[-1:]):
        return True
    return head in words and tail in words


_WORDS_LOCK = threading.Lock()
_words: frozenset[str] | None = None


def english_words() -> frozenset[str]:
    """pyspellchecker's English word list (160,000 words from subtitle word counts, lower-case), loaded on first
    use (half a second, 18 MB) and then shared read-only by every thread; the lock makes threads that ask at once
    wait for one load instead of each doing its own."""
    global _words
    if _words is None:
        with _WORDS_LOCK:
            if _words is None:
                from spellchecker import SpellChecker  # imported here: most callers of textutil never need it

                _words = frozenset(SpellChecker(language="en", distance=1).word_frequency.keys())
    return _words
