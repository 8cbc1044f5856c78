"""Who may open a conversation or one of its messages: its owner, while they can still read its collection.

Someone else's conversation and a missing one are the same query with the same empty result, so neither the
answer nor its timing tells them apart (apps/documents/access.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from apps.citations.models import Conversation, Message
from apps.documents.access import AnyUser, readable_collections
from apps.documents.models import Collection


@dataclass(frozen=True)
class ConversationRights:
    can_read: bool = True
    can_write: bool = True  # ask follow-ups, rename, delete


def conversations_for_user(user: AnyUser) -> QuerySet[Conversation]:
    if not user.is_authenticated:
        return Conversation.objects.none()
    readable = readable_collections(user)
    # Losing a membership hides one's conversations in that collection too: they quote its documents. A
    # conversation across every readable collection (collection None) is hidden once any collection its answers
    # quote (`sources`) is no longer readable.
    unreadable = Collection.objects.exclude(pk__in=readable.values("pk"))
    return (
        Conversation.objects.filter(user=user)
        .filter(Q(collection__in=readable) | Q(collection__isnull=True))
        .exclude(sources__in=unreadable)
    )


def get_conversation_for_user(user: AnyUser, conversation_id: int | str) -> tuple[Conversation, ConversationRights]:
    try:
        conversation = conversations_for_user(user).select_related("collection").get(pk=int(conversation_id))
    except (Conversation.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such conversation.")) from None
    return conversation, ConversationRights()


def get_message_for_user(user: AnyUser, message_id: int | str) -> tuple[Message, ConversationRights]:
    """A message of one of `user`'s conversations (with its conversation and collection), in one query."""
    try:
        message = (
            Message.objects.select_related("conversation__collection")
            .filter(conversation__in=conversations_for_user(user))
            .get(pk=int(message_id))
        )
    except (Message.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such message.")) from None
    return message, ConversationRights()
