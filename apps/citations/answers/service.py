"""Asking a collection: retrieval → evidence → composer → cleaning and support check → stored message.

`prepare()` checks the question and every access before anything streams (so an API can still answer 400/404),
`run()` yields the events the SSE stream sends — evidence as soon as retrieval ends, text as it is written, finish
with the final answer — and `ask()` is the same without streaming (API, CLI, page without JavaScript, MCP).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext

from apps.citations.access import get_conversation_for_user, get_message_for_user
from apps.citations.answers import lists
from apps.citations.answers.attach import Attachment, LiveAttacher
from apps.citations.answers.citation import CITATION_VERSION, best_quote, from_hit
from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.finalize import Draft, finish
from apps.citations.answers.language import detect, phrase
from apps.citations.answers.list_questions import LIST_EVIDENCE_FACTOR, wants_several
from apps.citations.answers.list_sections import subsections
from apps.citations.answers.markers import neutralise_markers
from apps.citations.answers.prompt import instructions
from apps.citations.answers.question import classify
from apps.citations.answers.streaming import LiveCleaner
from apps.citations.answers.support import claim_of
from apps.citations.answers.types import ComposeRequest, ComposerUnavailable, Conflict, Evidence
from apps.citations.answers.written_gate import written_claims_gate
from apps.citations.models import Conversation, Message
from apps.documents.access import AnyUser, get_collection_for_user, get_document_for_user
from apps.documents.models import Collection, Document
from apps.retrieval.api import disclosed_diagnostics
from apps.retrieval.search.service import query_embedder, search
from apps.retrieval.search.types import DEPTH_PRESETS, DEPTHS, CollectionNotFound, Filters, SearchParams

log = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 2000
HISTORY_TURNS = 3
COMPOSERS = ("extractive", "llm")


class InvalidQuestion(ValueError):
    """Something a person can fix; the message says what."""


@dataclass(frozen=True)
class AskParams:
    question: str
    collection: str = ""  # slug; may be omitted when following up a conversation or regenerating
    depth: str | None = None  # None: deep, or the regenerated message's own depth
    strict: bool | None = None  # None: strict, or the regenerated message's own choice
    conversation: int | None = None  # follow up this conversation
    document: int | None = None  # reading mode: ask within one document
    composer: str = ""  # "extractive" | "llm"; empty: settings.PORTAL_ANSWER_COMPOSER
    regenerate: int | None = None  # a message id: answer its question again and replace its answer whole
    all_collections: bool = False  # ask every collection the user may read (the home page) instead of one


@dataclass
class Event:
    kind: str  # evidence | text | finish | error
    data: dict

    def sse(self) -> str:
        return f"event: {self.kind}\ndata: {json.dumps(self.data, ensure_ascii=False, default=str)}\n\n"


@dataclass
class Prepared:
    user: AnyUser
    question: str
    collection: Collection | None  # None: every collection the user may read
    depth: str
    strict: bool
    composer: str
    conversation: Conversation | None
    document: Document | None
    message: Message | None  # the message being regenerated
    history: list[tuple[str, str]]


def prepare(user: AnyUser, params: AskParams) -> Prepared:
    """Validate and resolve everything; raises InvalidQuestion or Http404 (for anything the user may not read)."""
    if params.depth is not None and params.depth not in DEPTHS:
        raise InvalidQuestion(f"depth must be one of {', '.join(DEPTHS)}.")
    composer = params.composer or settings.PORTAL_ANSWER_COMPOSER
    if composer not in COMPOSERS:
        raise InvalidQuestion(f"composer must be one of {', '.join(COMPOSERS)}.")
    if composer == "llm":
        from apps.citations.answers.llm import llm_configured

        if not llm_configured():
            raise InvalidQuestion(
                "No language model is configured (PORTAL_LLM_BASE_URL and PORTAL_LLM_MODEL); "
                "use the extractive composer."
            )
    conversation = message = None
    if params.regenerate is not None:
        # Another person's message and a missing one get the same answer ("No such message.").
        message, _ = get_message_for_user(user, params.regenerate)
        conversation = message.conversation
    elif params.conversation is not None:
        conversation, _ = get_conversation_for_user(user, params.conversation)
    question = " ".join((message.question if message else params.question).split())
    if not question:
        raise InvalidQuestion(gettext("Type a question."))
    if len(question) > MAX_QUESTION_CHARS:
        too_long = gettext("The question is too long (at most %(n)s characters).")
        raise InvalidQuestion(too_long % {"n": MAX_QUESTION_CHARS})
    collection: Collection | None
    if conversation is not None:
        if conversation.collection is None:
            # A conversation across every readable collection goes on across them (its scope is the user's, now).
            if params.collection:
                raise InvalidQuestion(
                    gettext("This conversation is across all your collections; leave collection out.")
                )
            collection, document = None, None
        else:
            collection, _ = get_collection_for_user(user, conversation.collection.slug)
            if params.collection and params.collection != collection.slug:
                raise InvalidQuestion(gettext("This conversation belongs to another collection."))
            document = conversation.document
    elif params.all_collections:
        if params.collection or params.document is not None:
            raise InvalidQuestion(gettext("Ask all your collections, or name one collection: not both."))
        collection, document = None, None
    else:
        if not params.collection:
            raise InvalidQuestion("Name the collection to ask (collection).")
        collection, _ = get_collection_for_user(user, params.collection)
        document = None
        if params.document is not None:
            document, _ = get_document_for_user(user, params.document)
            if document.collection_id != collection.pk:
                raise Http404("No such document.")
    history = []
    if conversation is not None:
        earlier = conversation.messages.order_by("-id")
        if message is not None:
            earlier = earlier.filter(id__lt=message.pk)
        history = [(m.question, claim_of(m.answer)) for m in reversed(earlier[:HISTORY_TURNS])]
    return Prepared(
        user=user,
        question=question,
        collection=collection,
        depth=params.depth or (message.depth if message else "deep"),
        strict=params.strict if params.strict is not None else (message.strict if message else True),
        composer=composer,
        conversation=conversation,
        document=document,
        message=message,
        history=history,
    )


def _composer(name: str, depth: str):
    if name == "llm":
        from apps.citations.answers.llm import LLMComposer

        return LLMComposer.from_settings()
    return ExtractiveComposer(max_sentences=4 if depth == "deep" else 3)


def _evidence_item(evidence: Evidence, question: str) -> dict:
    """An evidence passage as the stream's first event shows it: the citation object it would become."""
    return from_hit(evidence.hit, evidence.number, best_quote(evidence.hit.text, question)).as_dict()


def _scope(p: Prepared) -> tuple[str, ...]:
    return (p.collection.slug,) if p.collection is not None else ()


def run(prepared: Prepared) -> Iterator[Event]:
    """The answer's events: evidence, text…, finish (see the module docstring)."""
    p = prepared
    started = time.perf_counter()
    language = detect(p.question)
    # A follow-up ("and in children?") needs the earlier question's subject to find anything.
    retrieval_query = f"{p.question} {p.history[-1][0]}" if p.history else p.question
    filters = Filters(document=p.document.pk) if p.document else Filters()
    asked = classify(p.question, [q for q, _ in p.history])
    top_k = DEPTH_PRESETS[p.depth].top_k * LIST_EVIDENCE_FACTOR if wants_several(asked.kind, asked.text) else None
    try:
        response = search(
            # No slugs: every collection the user may read, resolved by search's own permission filter (scope.py).
            p.user,
            SearchParams(retrieval_query, _scope(p), filters, depth=p.depth, top_k=top_k),
        )
    except CollectionNotFound:
        raise Http404("No such collection.") from None
    evidence = [Evidence(i + 1, hit) for i, hit in enumerate(response.hits)]
    if top_k is not None:  # a list: the chunks skipped between two retrieved ones of a document may hold it
        evidence += [
            Evidence(len(evidence) + i + 1, hit)
            for i, hit in enumerate(lists.between(evidence, p.user, query=p.question))
        ]
        # … and a section the question names may list its items as subsections, each opening its own chunk.
        evidence += [
            Evidence(len(evidence) + i + 1, hit) for i, hit in enumerate(subsections(evidence, p.user, p.question))
        ]
    # A list's items often go on in the next chunk(s), which retrieval did not return: those chunks join the
    # evidence (only where a list or its lead-in runs to a chunk's end, so most answers fetch nothing).
    evidence += [
        Evidence(len(evidence) + i + 1, hit)
        for i, hit in enumerate(lists.continuations(evidence, p.user, query=p.question))
    ]
    retrieval_ms = (time.perf_counter() - started) * 1000.0
    yield Event(
        "evidence",
        {"question": p.question, "evidence": [_evidence_item(e, p.question) for e in evidence]},
    )
    request = ComposeRequest(
        question=p.question,
        evidence=[
            # A source's own reference markers ("[12]", "【7】") would read as our badges: they become "(ref 12)".
            Evidence(e.number, replace(e.hit, text=neutralise_markers(e.hit.text)))
            for e in evidence
        ],
        language=language,
        strict=p.strict,
        history=p.history,
        document_title=p.document.display_title if p.document else "",
    )
    composer = _composer(p.composer, p.depth)
    fallback = ""
    cleaner = LiveCleaner({e.number for e in evidence}, {e.hit.chunk_id: e.number for e in evidence})
    draft = Draft(raw="")
    # The LLM path: the model's sentences get their citations as each is finished (answers.attach), checked with
    # the embedding model the support check uses.
    attacher = None
    if p.composer == "llm":
        attacher = LiveAttacher(evidence, query_embedder()[0], cleaner.chunk_numbers, instructions(request))
    compose_started = time.perf_counter()
    if evidence:
        try:
            yield from _stream(composer, request, cleaner, draft, attacher)
        except ComposerUnavailable as exc:
            # The answer still comes, from the evidence itself, and says why.
            fallback = f"{composer.name} unavailable ({exc}); answered from the evidence instead"
            log.warning("composer failed: %s", exc)
            composer = _composer("extractive", p.depth)
            cleaner = LiveCleaner(cleaner.valid, cleaner.chunk_numbers)
            draft = Draft(raw="")
            yield Event("text", {"text": ""})
            yield from _stream(composer, request, cleaner, draft)
    compose_ms = (time.perf_counter() - compose_started) * 1000.0
    check_started = time.perf_counter()
    embedder, _ = query_embedder()
    # What the model wrote answers only if a supported sentence passes the question's gate (the extractive composer
    # applies the gate itself, while choosing sentences): the composer's own gate, on each written claim.
    gate = None
    if p.composer == "llm" and not fallback:
        cited = {a.claim.casefold(): a.evidence_number for a in attacher.attached} if attacher else {}
        gate = written_claims_gate(asked, request.evidence, language, cited, embedder)
    done = finish(
        draft, evidence, p.question, language, p.strict, p.depth == "deep", p.document is not None, embedder, gate
    )
    check_ms = (time.perf_counter() - check_started) * 1000.0
    search_diagnostics = disclosed_diagnostics(response, p.user)  # whether the cache answered: staff only
    total_ms = (time.perf_counter() - started) * 1000.0
    reranker = search_diagnostics.get("reranker", {})
    result = {
        "question": p.question,
        "answer": done.answer,
        "answered": done.answered,
        "language": language,
        "depth": p.depth,
        "strict": p.strict,
        "composer": composer.name,
        "sentences": done.sentences,
        "version": CITATION_VERSION,  # of the citations' stored shape (answers.citation)
        "citations": [c.as_dict() for c in done.citations],
        # not answered: the passages on the topic, as cards
        "topic_passages": [c.as_dict() for c in done.topic_passages],
        "conflicts": done.conflicts,
        "chain": done.chain,
        "hint": phrase(language, "deep_offer") if p.depth == "quick" else "",
        "retrieval_note": " · ".join(
            [
                p.depth,
                search_diagnostics.get("mode_used", ""),
                f"reranker {reranker.get('name')}" if reranker.get("used") else "no reranker",
                f"{len(evidence)} passages",
                f"{total_ms / 1000.0:.1f} s",
            ]
        ),
        "diagnostics": {
            "search": search_diagnostics,
            "retrieval_query": retrieval_query,
            "composer": composer.name,
            "composer_fallback": fallback,
            "removed_markers": done.removed_markers,
            "dropped_sentences": done.dropped_sentences,
            "timings_ms": {
                "retrieval": round(retrieval_ms, 1),
                "compose": round(compose_ms, 1),
                "support": round(check_ms, 1),
                "total": round(total_ms, 1),
            },
        },
    }
    message = save(p, result)
    result["conversation"] = message.conversation_id
    result["message"] = message.pk
    yield Event("finish", result)


def _stream(
    composer, request: ComposeRequest, cleaner: LiveCleaner, draft: Draft, attacher: LiveAttacher | None = None
) -> Iterator[Event]:
    """Text events as the composer writes; with an `attacher`, a `citation` event (the whole text so far, its
    order, and what was attached) whenever a finished sentence gets its citation."""
    for part in composer.stream(request):
        if isinstance(part, Conflict):
            draft.conflicts.append(part.text)
            continue
        if attacher is None:
            draft.raw += part
            if (update := cleaner.feed(part)) is not None:
                yield Event("text", update)
            continue
        attached = attacher.feed(part)
        draft.raw = attacher.raw
        update = cleaner.revise(attacher.raw)  # the attacher may have changed more than the end
        if attached:
            yield _citation_event(cleaner, attached)
        elif update is not None:
            yield Event("text", update)
    attached = attacher.flush() if attacher is not None else []
    if attacher is not None:
        draft.raw = cleaner.raw = attacher.raw
    update = cleaner.flush()
    if attached:
        yield _citation_event(cleaner, attached)
    elif update is not None:
        yield Event("text", update)


def _citation_event(cleaner: LiveCleaner, attached: list[Attachment]) -> Event:
    citations = [{"claim": a.claim, "evidence_number": a.evidence_number, "quote": a.quote} for a in attached]
    return Event("citation", {"text": cleaner.shown, "order": cleaner.order, "citations": citations})


def save(p: Prepared, result: dict) -> Message:
    """Store the question and its answer; a regenerated answer replaces the old one, citations and all."""
    stored = {key: value for key, value in result.items() if key not in ("conversation", "message")}
    with transaction.atomic():
        conversation = p.conversation
        if conversation is None:
            conversation = Conversation.objects.create(
                user=p.user, collection=p.collection, document=p.document, title=p.question[:300]
            )
        fields = {"answer": result["answer"], "depth": p.depth, "strict": p.strict, "composer": result["composer"]}
        if p.message is not None:
            message = Message.objects.select_for_update().get(pk=p.message.pk)
            for name, value in fields.items():
                setattr(message, name, value)
            message.result = stored
            message.regenerations += 1
            message.save()
        else:
            message = Message.objects.create(conversation=conversation, question=p.question, result=stored, **fields)
        if conversation.collection_id is None:
            conversation.sources.add(*Collection.objects.filter(slug__in=_quoted_collections(stored)))
        conversation.save(update_fields=["updated_at"])
    return message


def _quoted_collections(value) -> set[str]:
    """Every collection slug a stored answer names (its citations, topic passages and their extras)."""
    if isinstance(value, dict):
        found = {value["collection"]} if isinstance(value.get("collection"), str) else set()
        return found.union(*(_quoted_collections(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_quoted_collections(item) for item in value))
    return set()


def answer(prepared: Prepared) -> dict:
    """The finished answer without streaming: the finish event's data."""
    result: dict = {}
    for event in run(prepared):
        if event.kind == "finish":
            result = event.data
    return result


def ask(user: AnyUser, params: AskParams) -> dict:
    return answer(prepare(user, params))
