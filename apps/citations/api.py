from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from apps.citations.access import conversations_for_user, get_conversation_for_user
from apps.citations.models import Conversation


class ConversationSerializer(serializers.ModelSerializer):
    collection = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Conversation
        fields = ["id", "collection", "title", "created_at", "updated_at"]


@extend_schema(responses=ConversationSerializer(many=True))
@api_view(["GET"])
def conversation_list(request: Request) -> Response:
    conversations = conversations_for_user(request.user).select_related("collection")
    return Response(ConversationSerializer(conversations, many=True).data)


@extend_schema(responses=ConversationSerializer)
@api_view(["GET"])
def conversation_detail(request: Request, conversation_id: int) -> Response:
    conversation, _rights = get_conversation_for_user(request.user, conversation_id)
    return Response(ConversationSerializer(conversation).data)
