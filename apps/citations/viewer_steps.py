"""The viewer opened from an answer (`?chunk=C&message=M&n=K`, and `&claim=C` from one claim's badge): the answer's
citations to step through without leaving the viewer, and the quote the passage was cited for, which the viewer
places on the page. A viewer panel of citations' (apps/documents/extensions.py), registered in
CitationsConfig.ready(); the viewer itself knows nothing of answers."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from apps.citations.access import conversations_for_user
from apps.citations.answers.citation import stored_citations
from apps.citations.answers.store import with_status
from apps.citations.display import claim_quote
from apps.citations.models import Message
from apps.documents.extensions import PanelQuote, ViewerPanel
from apps.documents.locators import viewer_url
from apps.documents.models import Document
from apps.documents.views.viewer import int_param


def answer_steps(request: HttpRequest, document: Document) -> dict | None:
    """The citations of the answer the viewer was opened from, for previous/next, and the one it was opened at
    (`citation`, with its status); None outside an answer."""
    message_id, n = int_param(request.GET.get("message")), int_param(request.GET.get("n"))
    if message_id is None or n is None:
        return None
    message = Message.objects.filter(pk=message_id, conversation__in=conversations_for_user(request.user)).first()
    if message is None:
        return None  # not theirs (or gone): the viewer still opens, without the answer's steps
    steps, cited = [], None
    for citation in with_status(stored_citations(message.result)):
        if citation.status in ("deleted", "changed"):
            continue  # nowhere to step to
        if citation.n == n and citation.document_id == document.pk:
            cited = citation
        steps.append(
            {
                "n": citation.n,
                "title": citation.title or citation.source,
                "url": viewer_url(citation.document_id, citation.chunk_index, message.pk, citation.n),
                "current": citation is cited,
            }
        )
    quote = None
    if cited is not None:
        # Opened from a badge of claim `claim` (ask.js): that claim's own quote of the passage, which two claims
        # citing one passage do not share; the card's quote (the first claim's) otherwise.
        own = claim_quote(message.result, n, int_param(request.GET.get("claim")))
        quote = PanelQuote(cited.chunk_index, own or cited.quote)
    position = next((i for i, step in enumerate(steps) if step["current"]), None)
    return {
        "message": message,
        "citation": cited,
        "quote": quote,  # placed by the viewer on the cited passage
        "steps": steps,
        "previous": steps[position - 1] if position else None,
        "next": steps[position + 1] if position is not None and position + 1 < len(steps) else None,
        "answer_url": reverse("conversation-detail", args=[message.conversation_id]) + f"#message-{message.pk}",
    }


ANSWER_STEPS = ViewerPanel("answer", "citations/_viewer_answer_steps.html", answer_steps)
