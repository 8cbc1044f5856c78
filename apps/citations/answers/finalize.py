"""From a composer's raw text to the answer every surface shows: clean markers, check support, apply strict mode,
renumber, and build the citation objects, conflicts and chain block.

Quotes are per claim: each row of `sentences` (and each conflict) carries `quotes`, a JSON object from the display
number it cites (as a string, since JSON keys are strings) to the sentence(s) of that source that back this claim,
e.g. `{"text": "… [1].", "citations": [1], "quotes": {"1": "…"}, …}`. Two claims citing the same passage show
their own quotes; the citation's own `quote` (the card's) is the quote of the first claim that cites it.
Messages stored before per-claim quotes have no `quotes`: surfaces fall back to the citation's quote.

An answer that is not answered offers what was found instead: `topic_passages`, the best evidence passages that
are on the question's topic (they share enough of its terms), as citation objects for cards; empty otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from apps.citations.answers import similarity, support
from apps.citations.answers.chain import chain_block
from apps.citations.answers.citation import QUOTE_CHARS, Citation, best_quote, from_hit
from apps.citations.answers.language import phrase
from apps.citations.answers.markers import clean_markers
from apps.citations.answers.types import Evidence
from apps.documents.parsing.passage_text import sentences, without_heading, without_label
from apps.retrieval.keyword.analyzer import query_terms, terms
from apps.retrieval.search.types import SearchHit

_SEPARATOR = "\n\n\x1e\n\n"  # between the answer and each conflict while they are numbered together
NOT_FROM_LIBRARY = "not from the library"
# A passage is "on the topic" of a question it does not answer when it holds this weighted share of the question's
# terms; at most TOPIC_PASSAGES of them are offered, in retrieval order.
TOPIC_COVERAGE = 0.25
TOPIC_PASSAGES = 3
# A neighbouring sentence joins a claim's quote only when it brings this many of the claim's terms that the best
# sentence lacks (a claim written across two source sentences), never for a stray shared word.
NEIGHBOUR_NEW_TERMS = 2
_STRICT_PASSES = 3


@dataclass
class Draft:
    raw: str
    conflicts: list[str] = field(default_factory=list)


@dataclass
class Finished:
    answer: str
    answered: bool
    sentences: list[dict]
    citations: list[Citation]
    conflicts: list[dict]
    chain: dict
    removed_markers: list[str]
    dropped_sentences: list[str]
    topic_passages: list[Citation] = field(default_factory=list)


def claim_quote(hit: SearchHit, claim: str, max_chars: int = QUOTE_CHARS) -> str:
    """The sentence(s) of `hit` that back `claim`: the sentence sharing most of the claim's terms (the fewest
    others on a tie: the claim's own sentence over a longer one that contains it), with a neighbour only when
    the claim also says what the neighbour says. The chunk's start when nothing is shared, as best_quote."""
    text = without_heading(hit.text, hit.section, hit.heading_path)
    parts = sentences(text)
    wanted = set(query_terms(claim))
    found = [wanted & set(terms(part)) for part in parts]
    if not parts or not any(found):
        return without_label(best_quote(text, claim, max_chars))
    best = max(range(len(parts)), key=lambda i: (len(found[i]), -len(set(terms(parts[i])) - wanted), -i))
    quote = parts[best]
    neighbours = [i for i in (best - 1, best + 1) if 0 <= i < len(parts)]
    for i in sorted(neighbours, key=lambda i: -len(found[i] - found[best])):
        if len(found[i] - found[best]) >= NEIGHBOUR_NEW_TERMS and len(quote) + 1 + len(parts[i]) <= max_chars:
            quote = f"{parts[i]} {quote}" if i < best else f"{quote} {parts[i]}"
        break
    quote = without_label(quote)
    return quote if len(quote) <= max_chars else quote[: max_chars - 1].rstrip() + "…"


def _claim_quotes(numbers: list[int], claim: str, hits: dict[int, SearchHit]) -> dict[str, str]:
    """Display number (as a JSON key) → the quote of that source for this claim."""
    return {str(n): claim_quote(hits[n], claim) for n in dict.fromkeys(numbers) if n in hits}


def topic_passages(evidence: list[Evidence], question: str) -> list[Citation]:
    """The evidence on the question's topic, as citation objects (cards), for an answer that says the documents
    do not answer: a reader still gets the sources. None when nothing shares enough of the question's terms
    (a question about something else entirely gets the plain sentence)."""
    wanted = similarity.question_terms(question)
    weights = similarity.term_weights([e.hit.text for e in evidence])
    on_topic = [
        e
        for e in evidence
        if similarity.coverage(wanted, similarity.content_terms(e.hit.text), weights) >= TOPIC_COVERAGE
    ]
    out = []
    for i, e in enumerate(on_topic[:TOPIC_PASSAGES]):
        passage = from_hit(e.hit, i + 1, "", evidence_number=e.number)
        # The sentence nearest the question: the reader sees at once what the passage does say about it.
        passage.quote = claim_quote(e.hit, question)
        out.append(passage)
    return out


# Markers alone in a paragraph of their own ("…India.\n\n[1]"), as small models often write them.
_LONE_MARKERS = re.compile(r"[ \t]*\n[ \t]*\n\s*((?:\[\d+\][ \t]*)+)(?=\s*(?:\n|$))")


def attach_lone_markers(text: str) -> str:
    """Move markers that stand alone in a paragraph to the end of the paragraph before: they cite what was just
    said. Left alone they would cite nothing, yet count as citations (a card without a claim)."""
    return _LONE_MARKERS.sub(lambda m: " " + " ".join(m.group(1).split()), text)


def _number(draft_text: str, conflicts: list[str], valid: set[int], chunk_numbers: dict[int, int]):
    """Clean and number answer and conflicts together, so a source keeps one number in both."""
    joined = _SEPARATOR.join([draft_text, *conflicts])
    cleaned = clean_markers(joined, valid, chunk_numbers)
    parts = cleaned.text.split(_SEPARATOR.strip("\n"))
    parts = [attach_lone_markers(p).strip() for p in parts]
    return parts[0], [p for p in parts[1:] if p], cleaned


def _without(text: str, checks: list[support.SentenceCheck], drop: Callable[[support.SentenceCheck], bool]) -> str:
    """`text` without the sentences `drop` picks, cut where each sentence is (the checks follow the text in order),
    not at a string's first occurrence: a dropped fragment such as a lone "[" would otherwise be cut out of a kept
    sentence's "[1]", leaving that sentence unmarked in a strict answer."""
    cuts: list[tuple[int, int]] = []
    cursor = 0
    for check in checks:
        at = text.find(check.text, cursor)
        if at < 0:  # split_sentences strips and filters; a sentence is always found, but never cut blindly
            continue
        cursor = at + len(check.text)
        if drop(check):
            cuts.append((at, cursor))
    for start, end in reversed(cuts):
        text = text[:start] + text[end:]
    text = re.sub(r"[ \t]{2,}", " ", text)
    return re.sub(r"\n\s*\n\s*(\n\s*)+", "\n\n", text).strip()


def finish(
    draft: Draft,
    evidence: list[Evidence],
    question: str,
    language: str,
    strict: bool,
    deep: bool,
    reading_mode: bool,
    embedder=None,
    answers: Callable[[str], bool] | None = None,
) -> Finished:
    """`answers`: when given, the answer counts as answered only if a supported sentence (its claim, markers
    removed) also passes it: the question gate the LLM path applies to what the model wrote."""
    valid = {e.number for e in evidence}
    by_number = {e.number: e for e in evidence}
    chunk_numbers = {e.hit.chunk_id: e.number for e in evidence}
    answer, conflicts, cleaned = _number(draft.raw, draft.conflicts, valid, chunk_numbers)
    order = cleaned.order  # display number i+1 → evidence number
    chunk_texts = {i + 1: by_number[number].hit.text for i, number in enumerate(order)}
    checks, _ = support.check(answer, chunk_texts, embedder)
    dropped: list[str] = []
    # Strict: cut what is unsupported until nothing is (what is left is split again, and a cut can join pieces).
    for _ in range(_STRICT_PASSES if strict else 0):
        unsupported = [c.text for c in checks if not c.supported]
        if not unsupported:
            break
        dropped += unsupported
        answer = _without(answer, checks, lambda c: not c.supported)
        # Renumber what is left: a source cited only by a dropped sentence goes.
        evidence_of = {i + 1: number for i, number in enumerate(order)}
        answer, conflicts, again = _number(answer, conflicts, set(evidence_of), {})
        order = [evidence_of[n] for n in again.order]
        chunk_texts = {i + 1: by_number[number].hit.text for i, number in enumerate(order)}
        checks, _ = support.check(answer, chunk_texts, embedder)
    answered = any(c.supported and (answers is None or answers(support.claim_of(c.text))) for c in checks)
    note = ""
    if not answered:
        # Nothing was written with evidence, or (strict) nothing written held up: say so plainly. Non-strict
        # answers keep what was written after the note, every sentence labelled.
        note = phrase(language, "no_answer_document" if reading_mode else "no_answer")
        if strict or not answer:
            answer, checks, order, conflicts = note, [], [], []
        else:
            answer = f"{note}\n\n{answer}"
        checks = [support.SentenceCheck(note, [], None), *checks]
    hits = {n: by_number[number].hit for n, number in enumerate(order, start=1)}
    sentences_out = []
    for check in checks:
        row = check.as_dict()
        if check.text == note:
            row["label"], row["quotes"] = "", {}
        else:
            row["label"] = {None: NOT_FROM_LIBRARY, False: "unsupported", True: ""}[check.supported]
            row["quotes"] = _claim_quotes(check.citations, support.claim_of(check.text), hits)
        sentences_out.append(row)
    conflict_rows = []
    for text in conflicts:
        numbers = list(dict.fromkeys(support.markers_in(text)))
        quotes = _claim_quotes(numbers, support.claim_of(text), hits)
        conflict_rows.append({"text": text, "citations": numbers, "quotes": quotes})
    # The card quotes what the first claim citing it (answer first, then conflicts) is backed by.
    card_quote: dict[int, str] = {}
    for row in [*sentences_out, *conflict_rows]:
        for key, quote in row["quotes"].items():
            card_quote.setdefault(int(key), quote)
    citations = []
    for n, hit in hits.items():
        citation = from_hit(hit, n, best_quote(hit.text, question), evidence_number=order[n - 1])
        citation.quote = card_quote.get(n) or citation.quote  # already cleaned: the very string its badge shows
        citations.append(citation)
    chain = chain_block(citations, {e.hit.document_id: e.hit.related for e in evidence}) if deep else {}
    return Finished(
        answer=answer,
        answered=answered,
        sentences=sentences_out,
        citations=citations,
        conflicts=conflict_rows,
        chain=chain,
        removed_markers=cleaned.removed,
        dropped_sentences=dropped,
        topic_passages=[] if answered else topic_passages(evidence, question),
    )
