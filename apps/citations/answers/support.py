"""The support check: is each answer sentence really backed by the passage it cites?

Every sentence that carries `[n]` is compared with the quote it cites (the cited chunk's sentences closest to the
claim, answers.citation.best_quote): the share of the claim's terms found in the quote (lexical) and the
embedding model's cosine between the two (semantic, which catches paraphrase). The sentence's score is the best
over its citations; below SUPPORT_THRESHOLD it is unsupported. A sentence with no marker is "not from the
library". The page and the API show both; strict mode (answers.service) keeps only supported sentences.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from apps.citations.answers import similarity
from apps.citations.answers.citation import best_quote
from apps.citations.answers.markers import markers_in
from apps.documents.parsing.passage_text import ABBREVIATION
from apps.documents.parsing.sentences import cannot_start_sentence, is_list_item

SUPPORT_THRESHOLD = 0.5
LEXICAL_SHARE = 0.6  # of the score; the rest is the rescaled cosine

# A sentence ends at . ! ? (followed by space or the end) or at a CJK full stop, with any markers after it.
_END = re.compile(r"(?:[.!?](?=\s|$|\[)|[。！？；])(?:\s*\[\d+\])*")
_MARKER = re.compile(r"\s*\[\d+\]")
_MARKED_END = re.compile(r"\[\d+\]\s*$")  # "… [1]." ends its sentence whatever follows


@dataclass
class SentenceCheck:
    text: str  # the sentence as shown, with its [n] markers
    citations: list[int]  # the display numbers it cites
    supported: bool | None  # None: it cites nothing
    score: float | None = None
    lexical: float | None = None
    semantic: float | None = None  # the rescaled cosine; None without the embedding model

    def as_dict(self) -> dict:
        return asdict(self)


def _decided(lexical: float) -> bool | None:
    """The verdict lexical overlap alone settles, or None when the embedding cosine could still change it."""
    if LEXICAL_SHARE * lexical >= SUPPORT_THRESHOLD:
        return True
    if LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) < SUPPORT_THRESHOLD:
        return False
    return None


# A list answer puts each item on its own line ("- item [2]", "1. item [1]", "a) …", "一、…"): each is a claim.
# The composer writes them and this reads them with one definition of an item (documents' is_list_item).
# The "1" of "1. item" (or the "1)" of "1). item"): not a sentence of its own.
_ENUMERATOR_ONLY = re.compile(r"\s*\(?[0-9A-Za-z]{1,3}\)?")


def _item_lines(block: str) -> list[str]:
    """`block` cut before each line that starts a list item."""
    pieces: list[str] = []
    for line in block.split("\n"):
        if pieces and not is_list_item(line):
            pieces[-1] += "\n" + line
        else:
            pieces.append(line)
    return pieces


def split_sentences(text: str) -> list[str]:
    """Answer text → sentences, each keeping the markers written right after its full stop; paragraph breaks
    always end a sentence, and so does a line break before a list item. Abbreviations ("et al.", "Fig.",
    initials), an item's enumerator ("1.") and a stop before a lower-case word ("U.K. hospital") do not."""
    out: list[str] = []
    for paragraph in (line for block in re.split(r"\n\s*\n", text) for line in _item_lines(block)):
        start = 0
        for match in _END.finditer(paragraph):
            head = paragraph[start : match.start()]
            if (
                match.group(0)[0] == "."
                and (
                    ABBREVIATION.search(head + ".")
                    or _ENUMERATOR_ONLY.fullmatch(head)
                    # "in a U.K. hospital": what follows a stop in lower case goes on the sentence, as in the sources'
                    # own sentences (documents' splitter), unless the stop carried a marker ("… [1]. then …").
                    or (
                        match.group(0) == "."
                        and not _MARKED_END.search(head)
                        and cannot_start_sentence(paragraph[match.end() :].lstrip())
                    )
                )
            ):
                continue
            out.append(paragraph[start : match.end()].strip())
            start = match.end()
        out.append(paragraph[start:].strip())
    return [s for s in out if s and _MARKER.sub("", s).strip(" .") != ""]


def claim_of(sentence: str) -> str:
    return " ".join(_MARKER.sub("", sentence).split())


def check(text: str, chunk_texts: Mapping[int, str], embedder=None) -> tuple[list[SentenceCheck], dict[int, str]]:
    """Check every sentence of `text` against the chunks its markers name (`chunk_texts`: display number → chunk
    text). Returns the checks, and the quote for each display number (from the first sentence that cites it)."""
    checks = [SentenceCheck(s, list(dict.fromkeys(markers_in(s))), None) for s in split_sentences(text)]
    quotes: dict[int, str] = {}
    pairs: list[tuple[int, int, str, str, float]] = []  # (check index, number, claim, quote, lexical)
    for i, item in enumerate(checks):
        claim = claim_of(item.text)
        for number in item.citations:
            if number not in chunk_texts:
                continue
            quote = best_quote(chunk_texts[number], claim)
            quotes.setdefault(number, quote)
            lexical = similarity.coverage(similarity.content_terms(claim), similarity.content_terms(quote))
            pairs.append((i, number, claim, quote, lexical))
    # The cosine is computed only where it can change the verdict: a claim that shares nearly all its terms with
    # its quote is supported, one that shares almost none is not, whatever the model says (and extractive answers,
    # which quote verbatim, skip the model entirely).
    undecided = [k for k, pair in enumerate(pairs) if _decided(pair[4]) is None]
    cosines = similarity.pair_cosines(embedder, [(pairs[k][2], pairs[k][3]) for k in undecided])
    semantic_of = {k: similarity.rescale_cosine(c) for k, c in zip(undecided, cosines or [], strict=False)}
    for k, (i, _number, _claim, _quote, lexical) in enumerate(pairs):
        semantic = semantic_of.get(k)
        # Without a cosine the overlap is the score: decided verdicts keep their side of the threshold.
        score = lexical if semantic is None else LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) * semantic
        item = checks[i]
        if item.score is None or score > item.score:
            item.score, item.lexical = round(score, 3), round(lexical, 3)
            item.semantic = None if semantic is None else round(semantic, 3)
    for item in checks:
        if item.citations:
            item.supported = item.score is not None and item.score >= SUPPORT_THRESHOLD
    return checks, quotes
