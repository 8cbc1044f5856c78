"""From a composer's raw text to the answer every surface shows: clean markers, check support, apply strict mode,
renumber, and build the citation objects, conflicts and chain block."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apps.citations.answers import support
from apps.citations.answers.chain import chain_block
from apps.citations.answers.citation import best_quote, from_hit
from apps.citations.answers.language import phrase
from apps.citations.answers.markers import clean_markers
from apps.citations.answers.store import text_hash
from apps.citations.answers.types import Evidence

_SEPARATOR = "\n\n\x1e\n\n"  # between the answer and each conflict while they are numbered together
NOT_FROM_LIBRARY = "not from the library"


@dataclass
class Draft:
    raw: str
    conflicts: list[str] = field(default_factory=list)


@dataclass
class Finished:
    answer: str
    answered: bool
    sentences: list[dict]
    citations: list[dict]
    conflicts: list[dict]
    chain: dict
    removed_markers: list[str]
    dropped_sentences: list[str]


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


def _without(text: str, dropped: list[str]) -> str:
    for sentence in dropped:
        text = text.replace(sentence, "", 1)
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
) -> Finished:
    valid = {e.number for e in evidence}
    by_number = {e.number: e for e in evidence}
    chunk_numbers = {e.hit.chunk_id: e.number for e in evidence}
    answer, conflicts, cleaned = _number(draft.raw, draft.conflicts, valid, chunk_numbers)
    order = cleaned.order  # display number i+1 → evidence number
    chunk_texts = {i + 1: by_number[number].hit.text for i, number in enumerate(order)}
    checks, _ = support.check(answer, chunk_texts, embedder)
    dropped: list[str] = []
    if strict:
        dropped = [c.text for c in checks if not c.supported]
        if dropped:
            answer = _without(answer, dropped)
            # Renumber what is left: a source cited only by a dropped sentence goes.
            evidence_of = {i + 1: number for i, number in enumerate(order)}
            answer, conflicts, again = _number(answer, conflicts, set(evidence_of), {})
            order = [evidence_of[n] for n in again.order]
            chunk_texts = {i + 1: by_number[number].hit.text for i, number in enumerate(order)}
            checks, _ = support.check(answer, chunk_texts, embedder)
    answered = any(c.supported for c in checks)
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
    quotes: dict[int, str] = {}
    claims = [(c.citations, support.claim_of(c.text)) for c in checks]
    claims += [(support.markers_in(text), support.claim_of(text)) for text in conflicts]
    for numbers, claim in claims:
        for n in numbers:
            if n in chunk_texts and n not in quotes:
                quotes[n] = best_quote(chunk_texts[n], claim)
    citations = []
    for i, number in enumerate(order):
        n = i + 1
        hit = by_number[number].hit
        citation = from_hit(hit, n, quotes.get(n) or best_quote(hit.text, question))
        item = citation.as_dict()
        item.update(chunk_hash=text_hash(hit.text), status="current", status_note="", evidence_number=number)
        citations.append((citation, item))
    sentences = []
    for check in checks:
        row = check.as_dict()
        if check.text == note:
            row["label"] = ""
        else:
            row["label"] = {None: NOT_FROM_LIBRARY, False: "unsupported", True: ""}[check.supported]
        sentences.append(row)
    chain = chain_block([c for c, _ in citations], {e.hit.document_id: e.hit.related for e in evidence}) if deep else {}
    return Finished(
        answer=answer,
        answered=answered,
        sentences=sentences,
        citations=[item for _, item in citations],
        conflicts=[{"text": text, "citations": list(dict.fromkeys(support.markers_in(text)))} for text in conflicts],
        chain=chain,
        removed_markers=cleaned.removed,
        dropped_sentences=dropped,
    )
