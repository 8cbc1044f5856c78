"""A hidden object and a missing one are told apart by nothing: the same answer, after the same queries.

An object the caller may not read used to cost a second query (the membership) that a missing one never reached,
so it answered measurably later (about 9 ms for a document, 4.75 ms for a collection). Each access helper now asks
for the object and the caller's right to it in one query; these tests compare the queries themselves (their SQL
shapes, numbers and strings blanked), never timings. bench/access/ measures the time.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.citations.access import get_conversation_for_user, get_message_for_user
from apps.citations.models import Conversation, Message
from apps.documents.access import get_collection_for_user, get_document_for_user

pytestmark = pytest.mark.django_db

MISSING = 10**9


def shape(sql: str) -> str:
    """A query with its literals blanked: two lookups of different ids or slugs have the same shape."""
    return re.sub(r"\b\d+\b", "N", re.sub(r"'(?:[^']|'')*'", "'?'", sql))


def queries_of(call: Callable[[], object]) -> tuple[list[str], str]:
    """The shapes of the queries `call` ran, and how it ended (its 404 message, or what it returned)."""
    with CaptureQueriesContext(connection) as captured:
        try:
            outcome = repr(call())
        except Http404 as exc:
            outcome = f"404 {exc}"
    return [shape(q["sql"]) for q in captured.captured_queries], outcome


@pytest.fixture
def others_message(personas, collection):
    """A conversation and a message of the viewer's, in a collection the outsider cannot read either."""
    conversation = Conversation.objects.create(user=personas["viewer"], collection=collection, title="Lions")
    return Message.objects.create(conversation=conversation, question="Where?", answer="India [1].")


def _same(hidden: tuple[list[str], str], missing: tuple[list[str], str]) -> None:
    assert hidden[1] == missing[1] and hidden[1].startswith("404 "), (hidden[1], missing[1])
    assert hidden[0] == missing[0], "a hidden object costs other queries than a missing one"
    assert len(hidden[0]) == 1, f"one query per lookup, not {len(hidden[0])}: {hidden[0]}"


def test_a_hidden_document_and_a_missing_one_run_the_same_query(personas, document):
    outsider = personas["outsider"]
    _same(
        queries_of(lambda: get_document_for_user(outsider, document.pk)),
        queries_of(lambda: get_document_for_user(outsider, MISSING)),
    )


def test_a_hidden_collection_and_a_missing_one_run_the_same_query(personas, collection):
    outsider = personas["outsider"]
    _same(
        queries_of(lambda: get_collection_for_user(outsider, collection.slug)),
        queries_of(lambda: get_collection_for_user(outsider, "no-such-collection")),
    )


def test_someone_elses_conversation_and_a_missing_one_run_the_same_query(personas, others_message):
    outsider = personas["outsider"]
    _same(
        queries_of(lambda: get_conversation_for_user(outsider, others_message.conversation_id)),
        queries_of(lambda: get_conversation_for_user(outsider, MISSING)),
    )


def test_someone_elses_message_and_a_missing_one_run_the_same_query(personas, others_message):
    manager = personas["manager"]  # reads the collection, but the conversation is the viewer's
    _same(
        queries_of(lambda: get_message_for_user(manager, others_message.pk)),
        queries_of(lambda: get_message_for_user(manager, MISSING)),
    )


def test_the_helpers_still_give_readers_their_objects_and_rights(personas, document, others_message):
    found, rights = get_document_for_user(personas["editor"], document.pk)
    assert found == document and rights.can_edit and not rights.can_manage
    assert get_collection_for_user(personas["viewer"], "lab")[1].role == "viewer"
    assert get_collection_for_user(personas["admin"], "other")[1].can_manage  # administrators: every collection
    assert get_message_for_user(personas["viewer"], others_message.pk)[0] == others_message


def _http(client, method: str, url: str, body: dict | None = None) -> tuple[list[str], int, bytes]:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, body, format="json") if body is not None else client.get(url)
    return [shape(q["sql"]) for q in captured.captured_queries], response.status_code, response.content


# A page's CSRF token is masked afresh on every render (the header's log-out and language forms): the same page
# twice differs there and nowhere else.
_CSRF_RE = re.compile(rb'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def _unmasked(result: tuple) -> tuple:
    queries, status, body = result
    return queries, status, _CSRF_RE.sub(rb"\1-", body)


def assert_alike(hidden: tuple, missing: tuple) -> None:
    """Both 404 with the same body, after the same queries: (query shapes, status, body) from `_http`."""
    hidden, missing = _unmasked(hidden), _unmasked(missing)
    assert hidden[1:] == missing[1:] and hidden[1] == 404, (hidden[2], missing[2])
    assert hidden[0] == missing[0], "a hidden object costs other queries than a missing one"


@pytest.mark.parametrize(
    "name,hidden_kwargs,missing_kwargs",
    [
        ("api-document-detail", lambda w: {"document_id": w["document"].pk}, {"document_id": MISSING}),
        ("api-document-preview", lambda w: {"document_id": w["document"].pk}, {"document_id": MISSING}),
        ("api-document-file", lambda w: {"document_id": w["document"].pk}, {"document_id": MISSING}),
        (
            "api-conversation-detail",
            lambda w: {"conversation_id": w["message"].conversation_id},
            {"conversation_id": MISSING},
        ),
    ],
)
def test_the_api_answers_hidden_and_missing_alike_after_the_same_queries(
    api_client_for, personas, document, others_message, name, hidden_kwargs, missing_kwargs
):
    client = api_client_for("outsider")
    world = {"document": document, "message": others_message}
    hidden = _http(client, "get", reverse(name, kwargs=hidden_kwargs(world)))
    missing = _http(client, "get", reverse(name, kwargs=missing_kwargs))
    assert_alike(hidden, missing)


def test_the_api_answers_a_hidden_collection_and_a_missing_one_alike(api_client_for, collection):
    client = api_client_for("outsider")
    url = reverse("api-document-list")
    hidden = _http(client, "get", f"{url}?collection=lab")
    missing = _http(client, "get", f"{url}?collection=no-such")
    assert_alike(hidden, missing)


def test_regenerating_someone_elses_message_answers_like_a_missing_one(api_client_for, others_message):
    # The manager reads the collection; the message is in the viewer's conversation.
    client = api_client_for("manager")
    hidden = _http(client, "post", reverse("api-ask"), {"regenerate": others_message.pk})
    missing = _http(client, "post", reverse("api-ask"), {"regenerate": MISSING})
    assert_alike(hidden, missing)
    assert b"No such message." in hidden[2]
    assert Message.objects.get(pk=others_message.pk).regenerations == 0


@pytest.mark.parametrize(
    "name,hidden_kwargs,missing_kwargs",
    [
        ("collection-detail", lambda w: {"slug": "lab"}, {"slug": "no-such"}),
        ("collection-search", lambda w: {"slug": "lab"}, {"slug": "no-such"}),
        ("document-detail", lambda w: {"document_id": w["document"].pk}, {"document_id": MISSING}),
        ("document-viewer", lambda w: {"document_id": w["document"].pk}, {"document_id": MISSING}),
        (
            "conversation-detail",
            lambda w: {"conversation_id": w["message"].conversation_id},
            {"conversation_id": MISSING},
        ),
    ],
)
def test_the_pages_answer_hidden_and_missing_alike_after_the_same_queries(
    page_client_for, document, others_message, name, hidden_kwargs, missing_kwargs
):
    client = page_client_for("outsider")
    world = {"document": document, "message": others_message}
    hidden = _http(client, "get", reverse(name, kwargs=hidden_kwargs(world)))
    missing = _http(client, "get", reverse(name, kwargs=missing_kwargs))
    assert_alike(hidden, missing)
