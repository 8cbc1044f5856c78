"""Questions that ask for several things, and sentences that name several (issue 15).

`question.classify` calls a question a list question on its explicit cues ("有哪些", "list", "what are the … s").
English asks for a list far more often by its noun alone: "Which PDFs are filtered out …?", "What components do …
contain?", "In which patients is … contraindicated?", "What are examples of …?" ask for every PDF, component or
patient, in the plural. `asks_for_several` reads that: a wh-word whose noun phrase ends in a plural noun before
any verb. The composer then first looks for a list on the question (extractive.list_answer), and answers as the
question's own kind when there is none, so a question read wrongly here loses nothing but the look.

`enumerates` tells a sentence that names three or more things in a row ("US, CT, MRI, and PET/CT are …",
"\\toprule、\\midrule 和\\bottomrule"): the shape of a list written inside a sentence.
"""

from __future__ import annotations

import re

# Words that may stand between the wh-word and its noun: determiners, numbers, adjectives, noun modifiers; an
# auxiliary or a verb there means the wh-word is not asking about that noun ("which is …", "what does …").
_AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "can",
        "could",
        "should",
        "shall",
        "may",
        "might",
        "must",
        "will",
        "would",
    ]
)
# A plural English noun: ends in "s" but not "ss" (process), "us" (status, focus) or "is" (analysis, his).
_PLURAL = re.compile(r"^(?:[a-z][a-z-]*[^siu\W]s|[A-Z][A-Za-z0-9]*[a-z0-9]s|[A-Z]{2,}s)$")
_WORD = re.compile(r"[A-Za-z][\w-]*")
_PREPOSITIONS = frozenset(
    [
        "in",
        "to",
        "by",
        "into",
        "from",
        "for",
        "of",
        "on",
        "with",
        "at",
        "under",
        "among",
        "between",
        "through",
        "during",
    ]
)
# "What are (the|some) … <plural>", "What are examples of …": the plural after the copula is what is asked for.
_COPULA = frozenset({"are", "were"})
_DETERMINERS = frozenset(["the", "some", "all", "any", "main", "key", "other"])
NOUN_WORDS = 5  # at most this many words from the wh-word to its noun ("which five major dispersal barriers")
# Kinds whose answer is one thing of a shape (a number, a date), a cause or a means, or yes or no: a plural noun
# in them ("how many patients", "what causes …") does not ask for a list.
_NOT_LISTS = frozenset({"number", "date", "why", "how", "yesno"})


def asks_for_several(text: str, kind: str = "other") -> bool:
    """`text` (an English question whose kind `classify` read as `kind`) asks for several things of one kind."""
    if kind in _NOT_LISTS:
        return False
    words = _WORD.findall(text)
    for i, word in enumerate(words):
        if word.lower() not in ("which", "what"):
            continue
        # Only the question's own wh-word: first, after a preposition ("In which patients"), or after a clause
        # ("Besides the threats to …, what other threats …").
        if i and words[i - 1].lower() not in _PREPOSITIONS and not _after_clause(text, word, i, words):
            continue
        rest = words[i + 1 : i + 1 + NOUN_WORDS + 1]
        if rest and rest[0].lower() in _COPULA:
            rest = rest[1:]
            if rest and rest[0].lower() in _DETERMINERS:
                rest = rest[1:]
        elif rest and rest[0].lower() in _AUXILIARIES:
            continue
        for k, noun in enumerate(rest[:NOUN_WORDS]):
            if noun.lower() in _AUXILIARIES:
                break
            if _PLURAL.match(noun) and _ends_noun_phrase(rest[k + 1 : k + 2]):
                return True
    return False


def _ends_noun_phrase(following: list[str]) -> bool:
    """The word after a plural-looking word closes its noun phrase: a verb form that follows a subject ("are",
    "did", "produced"), a preposition, "and", a relative pronoun, or the question's end. "Which gene regulates X"
    has the verb "regulates" after the noun "gene", and "X" after it: no plural noun is asked for."""
    if not following:
        return True
    word = following[0].lower()
    return (
        word in _AUXILIARIES
        or word in _PREPOSITIONS
        or word in ("and", "or", "that", "which", "who", "whose")
        or word.endswith("ed")
    )


def _after_clause(text: str, word: str, index: int, words: list[str]) -> bool:
    """The wh-word `words[index]` follows a comma or a semicolon in `text`."""
    position = -1
    for _ in range(words[: index + 1].count(word)):
        position = text.find(word, position + 1)
    return position > 0 and text[:position].rstrip().endswith((",", ";"))


# Three or more things in a row, each of a few words: "A, B, C", "A, B, and C" / "A, B or C" (the serial comma
# optional; not at the sentence's start, where "However, X and Y" has the same shape), "A、B 和 C", "A、B、C",
# "(./image/, ./img/, ./fig/)".
_ITEM = r"(?:[^\s,;:.()]+\s){0,5}[^\s,;:.()]+"
_EN_COMMAS = re.compile(rf"{_ITEM}(?:,\s+{_ITEM}){{2,}}")
_EN_AND = re.compile(rf"(?<=\w\s){_ITEM},\s+{_ITEM},?\s+(?:and|or)\s+\S", re.I)
_ZH_ITEM = r"[^、，。；：,;:\s][^、，。；：,;:]{0,15}"
_ZH_RUN = re.compile(rf"{_ZH_ITEM}(?:\s*、\s*{_ZH_ITEM}){{2,}}|{_ZH_ITEM}\s*、\s*{_ZH_ITEM}?(?:和|与|及|以及|或)")
_PARENTHESISED = re.compile(r"[(（][^()（）]*(?:[,，、][^()（）,，、]+){2,}[)）]")


def enumerates(sentence: str) -> bool:
    """`sentence` names three or more things in a row, in running text or in brackets."""
    return any(p.search(sentence) for p in (_EN_COMMAS, _EN_AND, _ZH_RUN, _PARENTHESISED))


# A list's items are spread over more passages than one fact is (a lead-in in one chunk, its items in the next, a
# second list elsewhere in the paper that is the one asked for), so a question that asks for several things, or
# for the steps of a procedure, is answered from this many times the depth's passages.
LIST_EVIDENCE_FACTOR = 2


def wants_several(kind: str, text: str) -> bool:
    """A question (`kind` as question.classify reads it) whose answer is a list: a list question, a plural
    which/what question, or a how-question (answered by its steps when the evidence numbers them)."""
    return kind in ("list", "how") or asks_for_several(text, kind)
