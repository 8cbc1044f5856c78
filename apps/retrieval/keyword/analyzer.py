"""Text → BM25 terms for English, Chinese (and other CJK scripts), mixed text and numbers.

Choices, and why:

* Unicode NFKC first, so full-width Latin letters and digits (common in Chinese text: ＤＮＡ, ２０１９) become
  ASCII and match their half-width spelling; then casefold.
* Latin (and any other non-CJK letters: Greek, Cyrillic): runs of letters/digits; accents stripped so "café"
  matches "cafe"; English stop words dropped; Snowball English ("Porter 2") stemmer, as Lucene/bm25s do. Tokens
  mixing letters and digits (p53, h1n1, il6) are kept whole: in scientific text they are names, not two words.
* Numbers are kept (a question about "1998" must match "1998"); "1,000" is read as 1000 and "3.5" stays "3.5",
  so a decimal does not turn into two unrelated integers.
* CJK runs (Han, kana, Hangul) have no spaces to split on, so each run becomes overlapping character bigrams
  (北京大学 → 北京 京大 大学), the standard segmenter-free choice (Lucene's CJKAnalyzer): no dictionary to ship,
  no out-of-vocabulary words, and on CMRC 2018 it already reaches nDCG@10 ≈ 0.98. A run of one character is
  kept as a unigram so a lone character (猫, 水) is still searchable. No word segmenter: measured, bigrams
  alone were as good, and a segmenter would be a dependency plus a dictionary load at start-up.
* A CJK run is cut at any Latin letter, digit or punctuation, so "使用DNA测序" → 使用, dna, 测序.

`terms` keeps duplicates (term frequency matters on the document side); `query_terms` keeps each term once in
first-seen order, so repeating a word in a query does not multiply its weight.
Everything here is a pure function of the input: same text, same terms, on any machine, in any thread.

Threads: a Snowball stemmer object keeps the word it is working on in its own fields between calls (snowballstemmer's
pure-Python stemmers and PyStemmer's alike), so one instance shared by a web process's threads mixed their words up
(measured: "events" came out as "hinde", and calls raised IndexError). Each thread gets its own stemmer; with that,
`_word_term` is a pure function, and `lru_cache` (whose bookkeeping is thread-safe) can only ever hold what a
single-threaded run computes: two threads missing the same word at once both compute the same value.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

# Bump when the output of `terms` changes: a persisted index built with another version must be rebuilt.
ANALYZER_VERSION = "kw-1"

# Han (CJK unified ideographs + extension A + compatibility), kana, Hangul syllables, and the supplementary
# ideograph planes. Characters here never form space-delimited words.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"

_TOKEN = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"
    # A number with decimal/thousands separators, not glued to letters ("3.5" but not "3.5mg" → 3, 5mg).
    rf"|(?P<num>\d+(?:[.,]\d+)+)(?![^\W_])"
    # Letters and digits, excluding CJK (\w minus underscore minus CJK).
    rf"|(?P<word>[^\W_{_CJK}]+)"
)
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")

# NLTK's English list (what bm25s uses). The tokeniser splits at apostrophes, so "don't" arrives as don + t:
# both halves are in the list, and its entries with an apostrophe simply never match.
_NLTK_STOP_WORDS = """
    a about above after again against ain all am an and any are aren aren't as at be because been before being
    below between both but by can couldn couldn't d did didn didn't do does doesn doesn't doing don don't down
    during each few for from further had hadn hadn't has hasn hasn't have haven haven't having he her here hers
    herself him himself his how i if in into is isn isn't it it's its itself just ll m ma me mightn mightn't more
    most mustn mustn't my myself needn needn't no nor not now o of off on once only or other our ours ourselves
    out over own re s same shan shan't she she's should should've shouldn shouldn't so some such t than that
    that'll the their theirs them themselves then there these they this those through to too under until up ve
    very was wasn wasn't we were weren weren't what when where which while who whom why will with won won't
    wouldn wouldn't y you you'd you'll you're you've your yours yourself yourselves
"""
STOP_WORDS: frozenset[str] = frozenset(_NLTK_STOP_WORDS.split())

_per_thread = threading.local()


def _stem(word: str) -> str:
    """Snowball English stem of `word`, by this thread's own stemmer (see the module docstring for why)."""
    stemmer = getattr(_per_thread, "stemmer", None)
    if stemmer is None:
        stemmer = _per_thread.stemmer = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


@lru_cache(maxsize=500_000)
def _word_term(word: str) -> str | None:
    """One casefolded non-CJK word → its term, or None for a stop word. Cached: corpora repeat words a lot."""
    if word in STOP_WORDS:
        return None
    if not word.isascii():
        # Strip accents (é → e) but keep letters without an ASCII decomposition (β, ж) as they are.
        word = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    if word.isdigit():
        return word
    return _stem(word)


def _cjk_terms(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def terms(text: str) -> list[str]:
    """Document-side terms of `text`, in order, with repeats (see the module docstring for the rules)."""
    out: list[str] = []
    text = unicodedata.normalize("NFKC", text).casefold()
    # findall gives (cjk, num, word) with exactly one non-empty; words come first as the common case.
    for cjk, num, word in _TOKEN.findall(text):
        if word:
            term = _word_term(word)
            if term:
                out.append(term)
        elif cjk:
            out.extend(_cjk_terms(cjk))
        elif _THOUSANDS.fullmatch(num):
            out.append(num.replace(",", ""))
        elif "," in num:
            # "1,2" or "1.5,2.5" is a list, not one number: keep the parts.
            out.extend(num.split(","))
        else:
            out.append(num)
    return out


def query_terms(text: str) -> list[str]:
    """Query-side terms: the same analysis as `terms`, each term once, in first-seen order."""
    return list(dict.fromkeys(terms(text)))


# Conjoining Hangul vowels and final consonants: NFKC composes them with the character before, so they must stay
# in the same normalisation piece as it (see _normalize_mapped).
_JAMO_CONTINUATION = re.compile("[\u1160-\u11ff\ud7b0-\ud7ff]")


def _normalize_mapped(text: str) -> tuple[str, list[int], list[int]]:
    """NFKC + casefold of `text`, plus for each output character the [start, end) of the input it came from.

    Normalised piece by piece (a character with the combining marks after it), because NFKC and casefold can
    change lengths (ﬁ → fi, ß → ss, e + ◌́ → é) and only whole pieces map back to the original unambiguously."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        while j < n and (unicodedata.combining(text[j]) or _JAMO_CONTINUATION.match(text[j])):
            j += 1
        piece = unicodedata.normalize("NFKC", text[i:j]).casefold()
        parts.append(piece)
        starts.extend([i] * len(piece))
        ends.extend([j] * len(piece))
        i = j
    return "".join(parts), starts, ends


def term_spans(text: str) -> list[tuple[int, int, str]]:
    """`terms(text)` with where each term stands in `text`: (start, end, term), end exclusive, in order.

    For highlighting: offsets are in the original (un-normalised) `text`, so ＤＮＡ or "cafe\\u0301" are covered
    whole. A CJK run yields one span per bigram (two characters each, overlapping by one)."""
    if text.isascii():
        # ASCII is its own NFKC and casefolds character for character: offsets need no map.
        norm, starts, ends = text.lower(), None, None
    else:
        norm, starts, ends = _normalize_mapped(text)
    out: list[tuple[int, int, str]] = []

    def add(start: int, end: int, term: str) -> None:
        if starts is None or ends is None:
            out.append((start, end, term))
        else:
            out.append((starts[start], ends[end - 1], term))

    # The same rules, in the same order, as `terms`.
    for match in _TOKEN.finditer(norm):
        token, (start, end) = match.group(), match.span()
        kind = match.lastgroup
        if kind == "word":
            term = _word_term(token)
            if term:
                add(start, end, term)
        elif kind == "cjk":
            if len(token) == 1:
                add(start, end, token)
            else:
                for k in range(len(token) - 1):
                    add(start + k, start + k + 2, token[k : k + 2])
        elif _THOUSANDS.fullmatch(token):
            add(start, end, token.replace(",", ""))
        elif "," in token:
            for part in token.split(","):
                add(start, start + len(part), part)
                start += len(part) + 1
        else:
            add(start, end, token)
    return out
