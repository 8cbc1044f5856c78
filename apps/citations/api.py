"""POST /api/v1/ask, POST /api/v1/ask/stream (SSE), and the stored conversations with their answers."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db.models import Count, QuerySet
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import api_view, renderer_classes
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.citations.access import conversations_for_user, get_conversation_for_user
from apps.citations.answers.citation import STATUSES, stored_citations
from apps.citations.answers.service import (
    COMPOSERS,
    AskParams,
    Event,
    InvalidQuestion,
    Prepared,
    answer,
    prepare,
    run,
)
from apps.citations.answers.store import with_status
from apps.citations.models import Conversation, Message
from apps.retrieval.api import ChunkSourceSerializer
from apps.retrieval.search.types import DEPTHS
from portal.api_errors import error_responses
from portal.links import absolute_links, site_url

# An example request Swagger UI fills in, and the first case schemathesis tries for the ask operations.
_ASK_EXAMPLE = OpenApiExample(
    "A question to one collection",
    value={"question": "Where do Asiatic lions live?", "collection": "lab", "depth": "quick"},
    request_only=True,
)

log = logging.getLogger(__name__)


class AskRequestSerializer(serializers.Serializer):
    question = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=True)
    collection = serializers.SlugField(required=False, default="", allow_blank=True, help_text="the collection's slug")
    depth = serializers.ChoiceField(
        choices=DEPTHS, required=False, allow_null=True, default=None, help_text="deep (default) or quick"
    )
    strict = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="only evidence-backed sentences (default true)"
    )
    conversation = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1)
    document = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, help_text="reading mode: ask one document"
    )
    composer = serializers.ChoiceField(choices=COMPOSERS, required=False, default="", allow_blank=True)
    regenerate = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, help_text="a message id to answer again"
    )
    all_collections = serializers.BooleanField(
        required=False,
        default=False,
        help_text="ask every collection you may read (leave `collection` out); the conversation goes on across them",
    )

    def ask_params(self) -> AskParams:
        return AskParams(**self.validated_data)


class CitationSerializer(ChunkSourceSerializer):
    """The citation object of design.md: answers.citation.Citation's fields, documented for the schema (answers are
    returned as Citation.as_dict() makes them; tests/citations/test_citation_type.py keeps the two the same)."""

    n = serializers.IntegerField(help_text="display number, 1.. in order of first use in this answer")
    citation_id = serializers.CharField()
    quote = serializers.CharField(help_text="the sentence(s) of the chunk that support the claim")
    evidence_number = serializers.IntegerField(help_text="the passage's rank among the evidence retrieved")
    chunk_hash = serializers.CharField(help_text="fingerprint of the chunk text quoted, to find it after a re-read")
    status = serializers.ChoiceField(choices=STATUSES, help_text="where the cited passage is now")
    status_note = serializers.CharField()


class SentenceSerializer(serializers.Serializer):
    """One sentence of the answer and its support check (schema only)."""

    text = serializers.CharField(help_text="the sentence as shown, with its [n] markers")
    citations = serializers.ListField(child=serializers.IntegerField(), help_text="the display numbers it cites")
    supported = serializers.BooleanField(allow_null=True, help_text="null: it cites nothing")
    score = serializers.FloatField(allow_null=True)
    lexical = serializers.FloatField(allow_null=True)
    semantic = serializers.FloatField(allow_null=True)
    label = serializers.CharField(help_text='"", "unsupported" or "not from the library"')
    quotes = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text='display number (a string) → the sentence(s) of that source that back this claim, e.g. {"1": "…"}; '
        "two claims citing one source each have their own. Absent in answers stored before: use the citation's quote",
    )


class ConflictSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="a source's sentence that disagrees with the answer, with its [n]")
    citations = serializers.ListField(child=serializers.IntegerField())
    quotes = serializers.DictField(child=serializers.CharField(), required=False, help_text="as for sentences")


class AnswerSerializer(serializers.Serializer):
    question = serializers.CharField()
    answer = serializers.CharField(help_text="the answer with [n] markers")
    answered = serializers.BooleanField(help_text="false: the documents do not answer this")
    language = serializers.CharField()
    depth = serializers.CharField()
    strict = serializers.BooleanField()
    composer = serializers.CharField()
    sentences = SentenceSerializer(many=True, help_text="each sentence, its support check and its own quotes")
    citations = CitationSerializer(many=True)
    topic_passages = CitationSerializer(
        many=True,
        help_text="not answered: the passages found on the question's topic, as citation objects for cards "
        "(no badge of the answer names them); empty when answered or when nothing found is on the topic",
    )
    conflicts = ConflictSerializer(many=True)
    chain = serializers.DictField(help_text="deep: in_library, suggested, related (each omitted when empty)")
    hint = serializers.CharField()
    retrieval_note = serializers.CharField()
    diagnostics = serializers.DictField()
    conversation = serializers.IntegerField()
    message = serializers.IntegerField()


def _prepared(request: Request) -> Prepared:
    body = AskRequestSerializer(data=request.data)
    if not body.is_valid():
        raise ValidationError(body.errors)
    try:
        return prepare(request.user, body.ask_params())
    except InvalidQuestion as exc:
        raise ValidationError({"detail": str(exc)}) from None


@extend_schema(
    request=AskRequestSerializer,
    examples=[_ASK_EXAMPLE],
    responses={200: AnswerSerializer, **error_responses(400, 401, 404, 413, 415)},
)
@api_view(["POST"])
def ask(request: Request) -> Response:
    """Answer a question from one collection (or one document of it); every claim carries `[n]` and the
    citations say where each one is. The question and answer are stored in a conversation."""
    return Response(answer(_prepared(request)))


class EventStreamRenderer(BaseRenderer):
    """Lets a client ask for text/event-stream; errors before the stream starts come as one `error` event."""

    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return Event("error", data if isinstance(data, dict) else {"detail": data}).sse().encode()


def _events(prepared: Prepared, site: str) -> Iterator[str]:
    events = run(prepared)
    try:
        for event in events:
            # The events carry the links POST /api/v1/ask gives, absolute the same way (portal/links.py).
            yield Event(event.kind, absolute_links(event.data, site)).sse()
    except GeneratorExit:
        # The client left mid-answer (tab closed, connection lost): the answer is finished and stored all the
        # same, so the conversation shows it on the next visit instead of a question without an answer.
        _finish_unheard(events, prepared)
        raise
    except Exception as exc:  # the stream has started: the status is sent, so the error becomes an event
        yield Event("error", {"detail": f"The answer failed: {type(exc).__name__}."}).sse()
        raise


def _finish_unheard(events: Iterator[Event], prepared: Prepared) -> None:
    try:
        for _event in events:
            pass
    except Exception:
        log.exception("the answer to %r failed after its client left", prepared.question[:80])


def _sse_event(*kinds: str) -> dict:
    """One server-sent event as OpenAPI 3.0 describes a text/event-stream (the schema applies to each event)."""
    return {
        "type": "object",
        "properties": {
            "event": {"type": "string", "enum": list(kinds)},
            "data": {"type": "string", "description": "a JSON object"},
        },
        "required": ["event", "data"],
    }


_SSE_ERROR = OpenApiResponse(
    _sse_event("error"),
    description="with `Accept: text/event-stream`: one `error` event whose data is an Error body",
)


def _stream_errors(*codes: int) -> dict:
    """Errors before the stream starts: JSON, or a single SSE `error` event for a client that asked for events."""
    json_errors = {(code, "application/json"): response for code, response in error_responses(*codes).items()}
    return json_errors | {(code, "text/event-stream"): _SSE_ERROR for code in codes}


@extend_schema(
    request=AskRequestSerializer,
    examples=[_ASK_EXAMPLE],
    responses={
        (200, "text/event-stream"): OpenApiResponse(
            _sse_event("evidence", "text", "citation", "finish", "error"),
            description="server-sent events: `evidence` {evidence: [citation objects]}, `text` ({delta} or {text}, "
            "with `order`), `citation` (language-model answers: {text, order, citations: [{claim, evidence_number, "
            "quote}]} as soon as a finished sentence gets its citation), then `finish` with the body POST /api/v1/ask "
            "returns; `error` {detail} if it fails",
        ),
        **_stream_errors(400, 401, 404, 413, 415),
    },
)
@api_view(["POST"])
@renderer_classes([JSONRenderer, EventStreamRenderer])
def ask_stream(request: Request) -> StreamingHttpResponse:
    """The same answer as POST /api/v1/ask, streamed as server-sent events: `evidence` (the passages found, as
    citation objects) as soon as retrieval ends, `text` ({"delta"} to append, or {"text"} to replace), `citation`
    (a language model's finished sentence got its citation: the whole text so far), then `finish` with exactly the
    body POST /api/v1/ask returns."""
    prepared = _prepared(request)
    events = _events(prepared, site_url(request))
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass events on as they come
    return response


class ConversationSerializer(serializers.ModelSerializer):
    collection = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True, help_text="null: asked across all your collections"
    )
    messages = serializers.IntegerField(source="message_count", read_only=True)

    class Meta:
        model = Conversation
        fields = ["id", "collection", "document", "title", "created_at", "updated_at", "messages"]


class MessageSerializer(serializers.ModelSerializer):
    citations = serializers.SerializerMethodField()

    class Meta:
        model = Message
        fields = ["id", "question", "answer", "depth", "strict", "composer", "result", "citations"]
        fields += ["regenerations", "created_at", "updated_at"]

    @extend_schema_field(CitationSerializer(many=True))
    def get_citations(self, message: Message) -> list[dict]:
        """The stored citations as they stand now: re-ingested or deleted sources say so (answers.store)."""
        return [c.as_dict() for c in with_status(stored_citations(message.result))]


class ConversationDetailSerializer(ConversationSerializer):
    messages = MessageSerializer(many=True, read_only=True)

    class Meta(ConversationSerializer.Meta):
        fields = ConversationSerializer.Meta.fields


class ConversationQuerySerializer(serializers.Serializer):
    collection = serializers.CharField(
        required=False, allow_blank=True, max_length=100, help_text="only this collection's (its slug)"
    )


@extend_schema(
    parameters=[ConversationQuerySerializer],
    responses={200: ConversationSerializer(many=True), **error_responses(400, 401)},
)
class ConversationList(ListAPIView):
    """The caller's own conversations, most recently active first."""

    serializer_class = ConversationSerializer

    def get_queryset(self) -> QuerySet[Conversation]:
        params = ConversationQuerySerializer(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        conversations = conversations_for_user(self.request.user)
        if params.validated_data.get("collection"):
            conversations = conversations.filter(collection__slug=params.validated_data["collection"])
        return (
            conversations.select_related("collection")
            .annotate(message_count=Count("messages"))
            .order_by("-updated_at", "-id")  # an aggregate drops the model's default ordering
        )


@extend_schema(responses={200: ConversationDetailSerializer, **error_responses(401, 404)})
@api_view(["GET"])
def conversation_detail(request: Request, conversation_id: int) -> Response:
    """One of the caller's conversations with every question, answer and citation."""
    conversation, _rights = get_conversation_for_user(request.user, conversation_id)
    return Response(ConversationDetailSerializer(conversation).data)
