"""The abstention rule applied to what a language model wrote: the extractive composer's own gate judges each
supported claim, as if the claim were a sentence of the passage it rests on.

The extractive composer answers only when an evidence sentence can answer (answers.extractive: the question's key
terms, weighted over the evidence, found in the sentence, its document's title or — at CONTEXT_SHARE — the
sentence before it; the question's anchors named in its passage; an item of the asked kind that the question
does not name; and a score of at least MIN_SCORE). A model's claim gets exactly that test: it becomes one more
candidate of the passage that supports it (the citation attached to it, or the best support among the evidence),
with that passage's title and the sentence before its quote as context, scored among all the evidence's
sentences by the composer's own scoring.

One more condition holds only for written claims: the item of the asked kind must be one the passage states. A
model may write a number or a name of its own into a sentence whose other words match the passage ("Fusarium poae
infected 40 kernels"); the support check, which weighs shared terms and meaning, can accept it, but a number the
evidence never gives does not answer "how many" from the library. (An extractive sentence is the passage's own.)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from apps.citations.answers import similarity
from apps.citations.answers.attach import best_support
from apps.citations.answers.citation import best_quote
from apps.citations.answers.extractive import Candidate, ExtractiveComposer
from apps.citations.answers.language import detect
from apps.citations.answers.question import FACTOID_KINDS, Question, items, new_items
from apps.citations.answers.types import ComposeRequest, Evidence
from apps.documents.parsing.passage_text import sentences, without_heading


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _stated_items(question: Question, claim: str, passage: str) -> bool:
    """Whether an item of the asked kind that the claim gives (and the question does not name) is in the passage."""
    given = new_items(question, claim)
    if not given:
        return False
    stated = {i for part in sentences(passage) for i in items(part, question.kind, detect(part))}
    folded = _fold(passage)
    return any(item in stated or _fold(item) in folded for item in given)


def _before(text: str, quote: str) -> str:
    """The sentence before the quote's first sentence in the passage ('' when it opens the passage)."""
    parts = sentences(text)
    head = sentences(quote)[:1]
    for i, part in enumerate(parts):
        if head and part == head[0]:
            return parts[i - 1] if i else ""
    return ""


def written_claims_gate(
    question: Question,
    evidence: Sequence[Evidence],
    language: str,
    cited: Mapping[str, int] | None = None,
    embedder=None,
    composer: ExtractiveComposer | None = None,
) -> Callable[[str], bool]:
    """A test of one written claim (markers removed): can it answer `question`, by the extractive composer's gate?

    `cited`: claim (casefolded) → the evidence number attached to it while streaming (answers.attach); a claim
    the model cited itself is placed in the passage that best supports it. `composer`: the extractive composer
    whose gate applies (its calibrated min_coverage and min_score); a default one otherwise.
    """
    composer = composer or ExtractiveComposer(embedder=embedder, use_embeddings=embedder is not None)
    request = ComposeRequest(question.text, list(evidence), language)
    base = composer.candidates(request)
    by_number = {e.number: e for e in evidence}
    cited = cited or {}

    def answers(claim: str) -> bool:
        number = cited.get(claim.casefold())
        if number is None:
            support = best_support(claim, evidence, embedder)
            number = support.evidence_number if support is not None else None
        item = by_number.get(number) if number is not None else None
        if item is None:
            return False
        hit = item.hit
        text = without_heading(hit.text, hit.section, hit.heading_path)
        quote = best_quote(text, claim)
        written = Candidate(
            number=item.number,
            document_id=hit.document_id,
            rank=list(by_number).index(item.number),
            position=0,
            text=claim,
            terms=similarity.content_terms(claim),
            context=similarity.content_terms(_before(text, quote)),
            title=similarity.content_terms(hit.title or ""),
            passage=f"{hit.title} {hit.text}",
        )
        composer.score(question, [replace(c) for c in base] + [written], language)
        if not written.answers or written.score < composer.min_score:
            return False
        return question.kind not in FACTOID_KINDS or _stated_items(question, claim, hit.text)

    return answers
