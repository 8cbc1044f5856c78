"""The ask page of a collection (or of one document in it), the user's conversations, and one stored answer.

Every page works without JavaScript: the forms post here and the answer is computed synchronously. With
JavaScript (static/js/ask.js) the same forms stream from POST /api/v1/ask/stream instead and then fetch the
stored message's partial from message_detail, so what a reload shows is exactly what was streamed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from apps.citations.access import conversations_for_user, get_conversation_for_user
from apps.citations.answers.service import MAX_QUESTION_CHARS, AskParams, InvalidQuestion, ask
from apps.citations.display import present_messages
from apps.citations.models import Conversation, Message
from apps.documents.access import get_collection_for_user, get_document_for_user
from apps.documents.models import Collection, Document
from apps.retrieval.search.types import DEPTHS

DEPTH_KEY = "ask_depth"  # the session's last depth chosen on an ask form; deep until one is chosen
HISTORY_ON_ASK_PAGE = 30
CONVERSATIONS_PER_PAGE = 50


def _depth_choice(request: HttpRequest) -> str:
    depth = request.session.get(DEPTH_KEY, "deep")
    return depth if depth in DEPTHS else "deep"


def _optional_id(value: str | None) -> int | None:
    """An id from a form field; a value that is not one cannot name anything the user may open."""
    if value is None or not value.strip():
        return None
    try:
        return int(value)
    except ValueError:
        raise Http404("No such object.") from None


def _message_url(conversation_id: int, message_id: int) -> str:
    return f"{reverse('conversation-detail', args=[conversation_id])}#message-{message_id}"


def _reading_document(request: HttpRequest, collection: Collection) -> Document | None:
    """Reading mode: `document` in the query (the link from a document page) or in the form."""
    document_id = _optional_id(request.POST.get("document") or request.GET.get("document"))
    if document_id is None:
        return None
    document, _rights = get_document_for_user(request.user, document_id)
    if document.collection_id != collection.pk:
        raise Http404("No such document.")
    return document


@login_required
@require_http_methods(["GET", "POST"])
def collection_ask(request: HttpRequest, slug: str) -> HttpResponse:
    collection, rights = get_collection_for_user(request.user, slug)
    document = _reading_document(request, collection)
    error = ""
    values = {"question": "", "depth": _depth_choice(request), "conversation": ""}
    if request.method == "POST":
        values = {name: request.POST.get(name, "").strip() for name in values}
        params = AskParams(
            question=values["question"],
            collection=collection.slug,
            depth=values["depth"] or "deep",
            conversation=_optional_id(values["conversation"]),
            document=document.pk if document else None,
        )
        try:
            result = ask(request.user, params)
        except InvalidQuestion as exc:
            if params.conversation is not None:
                # A follow-up came from its conversation's page: say what to fix there.
                messages.error(request, str(exc))
                return redirect("conversation-detail", conversation_id=params.conversation)
            error = str(exc)
        else:
            request.session[DEPTH_KEY] = params.depth
            return redirect(_message_url(result["conversation"], result["message"]))
    history = (
        conversations_for_user(request.user)
        .filter(collection=collection)
        .select_related("document")
        .annotate(message_count=Count("messages"))
        .order_by("-updated_at", "-id")[:HISTORY_ON_ASK_PAGE]
    )
    context = {
        "collection": collection,
        "rights": rights,
        "document": document,
        "values": values,
        "depths": DEPTHS,
        "max_chars": MAX_QUESTION_CHARS,
        "error": error,
        "history": history,
    }
    return render(request, "citations/ask.html", context, status=400 if error else 200)


@login_required
def conversation_list(request: HttpRequest) -> HttpResponse:
    conversations = (
        conversations_for_user(request.user)
        .select_related("collection", "document")
        .annotate(message_count=Count("messages"))
        # Named again: a model's default ordering does not apply to a query with GROUP BY.
        .order_by("-updated_at", "-id")
    )
    page = Paginator(conversations, CONVERSATIONS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "citations/conversation_list.html", {"page": page})


@login_required
def conversation_detail(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation, rights = get_conversation_for_user(request.user, conversation_id)
    items = present_messages(list(conversation.messages.order_by("id")))
    context = {
        "conversation": conversation,
        "collection": conversation.collection,
        "document": conversation.document,
        "rights": rights,
        "items": items,
        "values": {"question": "", "depth": _depth_choice(request), "conversation": conversation.pk},
        "depths": DEPTHS,
        "max_chars": MAX_QUESTION_CHARS,
    }
    return render(request, "citations/conversation_detail.html", context)


def _own_message(request: HttpRequest, conversation_id: int, message_id: int) -> tuple[Conversation, Message]:
    conversation, _rights = get_conversation_for_user(request.user, conversation_id)
    return conversation, get_object_or_404(conversation.messages, pk=message_id)


@login_required
def message_detail(request: HttpRequest, conversation_id: int, message_id: int) -> HttpResponse:
    """The message partial alone, for ask.js to swap in once an answer has streamed."""
    conversation, message = _own_message(request, conversation_id, message_id)
    if request.GET.get("streamed") == "ask":
        # A streamed question went through the API, which keeps no page preferences; this request is the page's
        # first after it, so the depth that question used becomes the ask forms' default here.
        request.session[DEPTH_KEY] = message.depth
    (item,) = present_messages([message])
    return render(request, "citations/_message.html", {"item": item, "conversation": conversation})


@login_required
@require_POST
def message_regenerate(request: HttpRequest, conversation_id: int, message_id: int) -> HttpResponse:
    """Answer the message's question again (optionally at another depth) and replace its answer whole."""
    _conversation, message = _own_message(request, conversation_id, message_id)
    depth = request.POST.get("depth") or message.depth
    try:
        # The composer is today's default: regenerating is asking again with the portal as it is now.
        ask(request.user, AskParams(question="", depth=depth, strict=message.strict, regenerate=message.pk))
    except InvalidQuestion as exc:
        messages.error(request, str(exc))
    return redirect(_message_url(conversation_id, message.pk))
