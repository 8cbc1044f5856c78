"""POST /api/v1/ask, POST /api/v1/ask/stream (SSE), and the stored conversations with their answers."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, renderer_classes
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apps.citations.access import conversations_for_user, get_conversation_for_user
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

    def ask_params(self) -> AskParams:
        return AskParams(**self.validated_data)


class CitationSerializer(ChunkSourceSerializer):
    """The citation object of design.md (schema only; answers are returned as stored)."""

    n = serializers.IntegerField(help_text="display number, 1.. in order of first use in this answer")
    citation_id = serializers.CharField()
    quote = serializers.CharField(help_text="the sentence(s) of the chunk that support the claim")
    evidence_number = serializers.IntegerField(help_text="the passage's rank among the evidence retrieved")
    status = serializers.ChoiceField(choices=["current", "moved", "changed", "deleted"])
    status_note = serializers.CharField()


class AnswerSerializer(serializers.Serializer):
    question = serializers.CharField()
    answer = serializers.CharField(help_text="the answer with [n] markers")
    answered = serializers.BooleanField(help_text="false: the documents do not answer this")
    language = serializers.CharField()
    depth = serializers.CharField()
    strict = serializers.BooleanField()
    composer = serializers.CharField()
    sentences = serializers.ListField(child=serializers.DictField(), help_text="each sentence and its support check")
    citations = CitationSerializer(many=True)
    conflicts = serializers.ListField(child=serializers.DictField())
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


@extend_schema(request=AskRequestSerializer, responses=AnswerSerializer)
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


def _events(prepared: Prepared) -> Iterator[str]:
    try:
        for event in run(prepared):
            yield event.sse()
    except Exception as exc:  # the stream has started: the status is sent, so the error becomes an event
        yield Event("error", {"detail": f"The answer failed: {type(exc).__name__}."}).sse()
        raise


@extend_schema(
    request=AskRequestSerializer,
    responses={(200, "text/event-stream"): OpenApiResponse(description="evidence, text…, finish events")},
)
@api_view(["POST"])
@renderer_classes([JSONRenderer, EventStreamRenderer])
def ask_stream(request: Request) -> StreamingHttpResponse:
    """The same answer as POST /api/v1/ask, streamed as server-sent events: `evidence` (the passages found, as
    citation objects) as soon as retrieval ends, `text` ({"delta"} to append, or {"text"} to replace), then
    `finish` with exactly the body POST /api/v1/ask returns."""
    prepared = _prepared(request)
    response = StreamingHttpResponse(_events(prepared), content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass events on as they come
    return response


class ConversationSerializer(serializers.ModelSerializer):
    collection = serializers.SlugRelatedField(slug_field="slug", read_only=True)
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

    def get_citations(self, message: Message) -> list[dict]:
        """The stored citations as they stand now: re-ingested or deleted sources say so (answers.store)."""
        return with_status(message.result.get("citations", []))


class ConversationDetailSerializer(ConversationSerializer):
    messages = MessageSerializer(many=True, read_only=True)

    class Meta(ConversationSerializer.Meta):
        fields = ConversationSerializer.Meta.fields


@extend_schema(responses=ConversationSerializer(many=True))
@api_view(["GET"])
def conversation_list(request: Request) -> Response:
    conversations = (
        conversations_for_user(request.user)
        .select_related("collection")
        .annotate(message_count=Count("messages"))
        .order_by("-updated_at", "-id")  # an aggregate drops the model's default ordering
    )
    return Response(ConversationSerializer(conversations, many=True).data)


@extend_schema(responses=ConversationDetailSerializer)
@api_view(["GET"])
def conversation_detail(request: Request, conversation_id: int) -> Response:
    conversation, _rights = get_conversation_for_user(request.user, conversation_id)
    return Response(ConversationDetailSerializer(conversation).data)
