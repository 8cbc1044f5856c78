"""Citations attached after generation: the LLM path's answer to models that write claims without markers.

Small models nearly always do (SmolLM2-135M cited nothing). Each sentence the model finishes without any
marker is matched against the evidence: the passages whose closest sentences share enough of its terms are
scored exactly as the support check scores a citation (answers.support.check: term coverage of the quote plus the
embedding cosine), and the best one that the check accepts is appended as `[n]`. A sentence nothing supports stays
unmarked, so the finishing step drops it (strict) or labels it "not from the library", as it does for any
uncited sentence. Sentences the model cited itself keep their markers: the support check judges those, and a
marker that names no evidence passage is a wrong citation, not re-pointed.

It works sentence by sentence while the model streams (LiveAttacher), so a badge can appear as soon as its
sentence is complete; attach_citations() does the same for a whole text at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from apps.citations.answers import similarity, support
from apps.citations.answers.citation import best_quote, from_hit
from apps.citations.answers.claims import non_claim_reason
from apps.citations.answers.markers import clean_markers, strip_prompt_wrapping, with_marker
from apps.citations.answers.prompt import NOT_ENOUGH, NOT_FROM_LIBRARY
from apps.citations.answers.types import Evidence

CANDIDATES = 3  # passages scored in full per sentence: the best by shared terms (the cosine costs a model call)
# A sentence with at least this share of its terms in the prompt's instructions is the model repeating them
# ("… with the passage number like [1] after each claim …"), not a claim about the documents.
ECHO_SHARE = 0.5
# Bracket groups right after a sentence's full stop ("… India. 【1】", "… India.\n\n[1]"): the model's markers for
# that sentence, whatever their form (clean_markers reads them).
_FOLLOWING = re.compile(r"(?:\s*[\[【][^\[\]【】\n]{0,40}[\]】])+")
_TRAILING_MARKERS = re.compile(r"(?:\s*\[\d+\])+\s*$")
_HOLD = 40  # an opening bracket this close after a sentence may still become its marker: wait for it


@dataclass(frozen=True)
class Attachment:
    """A citation attached to one of the model's sentences."""

    claim: str  # the sentence without markers, whitespace collapsed (answers.support.claim_of)
    evidence_number: int  # the Evidence.number now cited after it
    quote: str  # the passage's sentence(s) that support it, as a card would show them
    score: float  # the support check's score for the pair (>= support.SUPPORT_THRESHOLD)


def _could_pass(lexical: float) -> bool:
    """Whether a perfect cosine could still lift this term coverage to the support threshold."""
    share = support.LEXICAL_SHARE
    return share * lexical + (1 - share) >= support.SUPPORT_THRESHOLD


def best_support(claim: str, evidence: Sequence[Evidence], embedder=None) -> Attachment | None:
    """The evidence passage that best supports `claim` as the support check judges it, or None when none does."""
    wanted = similarity.content_terms(claim)
    if not wanted:
        return None
    scored = []
    for item in evidence:
        quote = best_quote(item.hit.text, claim)
        lexical = similarity.coverage(wanted, similarity.content_terms(quote))
        if _could_pass(lexical):
            scored.append((lexical, item, quote))
    scored.sort(key=lambda s: -s[0])
    scored = scored[:CANDIDATES]
    if not scored:
        return None
    # The check itself decides, on the sentence as it will stand (one paragraph per candidate passage), so a
    # marker is attached only where the finishing step's identical check will accept it.
    probe = "\n\n".join(with_marker(claim, f"[{i + 1}]") for i in range(len(scored)))
    checks, _ = support.check(probe, {i + 1: item.hit.text for i, (_, item, _) in enumerate(scored)}, embedder)
    if len(checks) != len(scored):  # the claim does not read as one sentence: leave it to the finishing step
        return None
    best = max(range(len(checks)), key=lambda i: checks[i].score or 0.0)
    if not checks[best].supported:
        return None
    _, item, quote = scored[best]
    if _non_claim(claim, item):  # e.g. the passage's own title or heading, copied
        return None
    return Attachment(claim, item.number, _shown_quote(item, claim, quote), float(checks[best].score or 0.0))


def _shown_quote(item: Evidence, claim: str, quote: str) -> str:
    """The quote the finished answer will give this claim (finalize.claim_quote, issue 15's per-claim quotes), so
    the streamed badge and the stored one agree; else the support check's quote as a card shows it."""
    try:
        from apps.citations.answers.finalize import claim_quote
    except ImportError:
        return from_hit(item.hit, item.number, quote).quote  # without the chunk's heading or abstract label
    return claim_quote(item.hit, claim)


def _own_words(claim: str) -> bool:
    """The model's use of the prompt's fixed phrases: it says it cannot answer, or labels a sentence itself."""
    lowered = claim.lower()
    phrases = [NOT_FROM_LIBRARY, *NOT_ENOUGH.values()]
    return any(p.lower().strip("()。.") in lowered for p in phrases)


def _non_claim(claim: str, item: Evidence | None = None) -> bool:
    """A heading, title, keyword line, fragment … (answers.claims), judged against `item`'s title and headings."""
    if item is None:
        return non_claim_reason(claim) is not None
    hit = item.hit
    return non_claim_reason(claim, title=hit.title, section=hit.section, heading_path=hit.heading_path) is not None


class LiveAttacher:
    """The model's text as it streams, with a citation attached to each sentence once that sentence is complete.

    `raw` is the text so far with the attached markers inserted (markers in evidence numbers, as the model was
    told to write them; the cleaning step renumbers). A sentence counts as complete when text of a next sentence
    has begun, or at flush(): only then is it known that no marker of the model's own follows its full stop.
    """

    def __init__(
        self,
        evidence: Sequence[Evidence],
        embedder=None,
        chunk_numbers: Mapping[int, int] | None = None,
        instructions: str = "",
    ) -> None:
        """`instructions`: the prompt's own words (answers.prompt.instructions), which a sentence may not echo."""
        self.evidence = list(evidence)
        self.embedder = embedder
        self.echo_terms = similarity.content_terms(instructions) if instructions else set()
        self._claims: set[str] = set()  # the claims cited so far, casefolded: a repeat gets no second citation
        self.valid = {e.number for e in self.evidence}
        self.chunk_numbers = dict(chunk_numbers or {e.hit.chunk_id: e.number for e in self.evidence})
        self.raw = ""
        self.attached: list[Attachment] = []
        self._settled = 0  # raw[:_settled] holds only finished sentences, each already looked at

    def feed(self, delta: str) -> list[Attachment]:
        """Add the model's next piece of text; the citations this attached (sentences it completed)."""
        # Prompt wrapping the model copied ("[kb 2 begin]", "cite as [2]") goes now, not only when cleaning: left
        # in, it would glue a copied evidence sentence to the block's header lines as one "sentence".
        self.raw = self.raw[: self._settled] + strip_prompt_wrapping(self.raw[self._settled :] + delta)
        return self._settle(final=False)

    def flush(self) -> list[Attachment]:
        """The model has finished: its last sentence is complete too."""
        return self._settle(final=True)

    def _settle(self, final: bool) -> list[Attachment]:
        new = []
        while (found := self._next_sentence(final)) is not None:
            start, end = found
            sentence = self.raw[start:end]
            cleaned = clean_markers(sentence, self.valid, self.chunk_numbers)
            claim = support.claim_of(cleaned.text)
            revised = sentence
            if cleaned.order:
                # The model cited it: the support check judges that citation; but the prompt's example "[1]"
                # copied into a repeat of the instructions cites nothing.
                if self._echo(claim):
                    revised = sentence[: len(sentence) - len(sentence.lstrip())] + claim
            elif cleaned.removed:
                # The model cited something that is not evidence ("【7】" planted by a document, "[9]" of five):
                # a wrong citation, not a missing one; it is not re-pointed, so the support check drops it.
                pass
            elif (attachment := self._cite(claim)) is not None:
                revised = _marked_in_place(sentence, f"[{attachment.evidence_number}]")
                self.attached.append(attachment)
                new.append(attachment)
            self.raw = self.raw[:start] + revised + self.raw[end:]
            self._settled = start + len(revised)
        return new

    def _next_sentence(self, final: bool) -> tuple[int, int] | None:
        """(start, end) in `raw` of the first sentence after the settled part, if it is complete."""
        tail = self.raw[self._settled :]
        pieces = support.split_sentences(tail)
        if not pieces or (len(pieces) == 1 and not final):
            return None
        start = tail.find(pieces[0])
        end = start + len(pieces[0])
        if following := _FOLLOWING.match(tail, end):
            end = following.end()
        rest = tail[end:].lstrip()
        if not final:
            if not rest:
                return None
            # "… India. [" : the model may be writing this sentence's marker.
            if rest[0] in "[【" and not re.search(r"[\]】]", rest) and len(rest) < _HOLD:
                return None
        return self._settled + start, self._settled + end

    def _cite(self, claim: str) -> Attachment | None:
        if not claim or claim.casefold() in self._claims or not self._a_claim(claim):
            return None
        attachment = best_support(claim, self.evidence, self.embedder)
        if attachment is not None:
            self._claims.add(claim.casefold())
        return attachment

    def _a_claim(self, claim: str) -> bool:
        """Whether the sentence states something: not a question, not the prompt's words, not a non-claim."""
        if claim.rstrip()[-1:] in "?？" or _own_words(claim) or _non_claim(claim):
            return False
        return not self._echo(claim)

    def _echo(self, claim: str) -> bool:
        terms = similarity.content_terms(claim)
        return bool(self.echo_terms) and similarity.coverage(terms, self.echo_terms) >= ECHO_SHARE


def _marked_in_place(sentence: str, marker: str) -> str:
    """The raw sentence with `marker` before its closing punctuation (after any invalid markers left there,
    which cleaning removes) and its surrounding whitespace kept."""
    core = sentence.rstrip()
    trailing = sentence[len(core) :]
    markers = _TRAILING_MARKERS.search(core)
    head, tail = (core[: markers.start()], core[markers.start() :]) if markers else (core, "")
    return with_marker(head, marker) + tail + trailing


def attach_citations(text: str, evidence: Sequence[Evidence], embedder=None) -> str:
    """`text` with a citation attached to each sentence that has no valid marker and that some evidence passage
    supports (see the module docstring); the markers are in evidence numbers, as the model was told to write."""
    attacher = LiveAttacher(evidence, embedder)
    attacher.feed(text)
    attacher.flush()
    return attacher.raw
