"""Who may open a conversation: its owner, while they can still read its collection."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from apps.citations.models import Conversation
from apps.documents.access import AnyUser, readable_collections


@dataclass(frozen=True)
class ConversationRights:
    can_read: bool = True
    can_write: bool = True  # ask follow-ups, rename, delete


def conversations_for_user(user: AnyUser) -> QuerySet[Conversation]:
    if not user.is_authenticated:
        return Conversation.objects.none()
    # Losing a membership hides one's conversations in that collection too: they quote its documents.
    return Conversation.objects.filter(user=user, collection__in=readable_collections(user))


def get_conversation_for_user(user: AnyUser, conversation_id: int | str) -> tuple[Conversation, ConversationRights]:
    try:
        conversation = conversations_for_user(user).select_related("collection").get(pk=int(conversation_id))
    except (Conversation.DoesNotExist, ValueError, TypeError):
        raise Http404("No such conversation.") from None
    return conversation, ConversationRights()
