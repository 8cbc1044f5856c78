"""POST /api/v1/ask, the SSE stream, stored conversations through the API, `manage.py ask`, and stored citations
after a real re-ingest and delete through the worker."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "Where does the Asiatic lion survive?"


def _events(response) -> list[tuple[str, dict]]:
    body = b"".join(response.streaming_content).decode()
    events = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_a_client_that_leaves_mid_stream_still_finds_its_answer_stored(library, api_client_for, personas):
    from apps.citations.models import Message

    client = api_client_for("viewer")
    response = client.post(reverse("api-ask-stream"), {"question": QUESTION, "collection": "lab"}, format="json")
    first = next(iter(response.streaming_content)).decode()
    assert first.startswith("event: evidence")
    assert not Message.objects.exists()  # nothing stored yet: the answer is still being written
    response.close()  # what the server does when the connection drops: the stream is closed mid-answer
    [message] = Message.objects.filter(conversation__user=personas["viewer"])
    assert message.question == QUESTION and "[1]" in message.answer and message.result["citations"]
    listed = client.get(reverse("api-conversation-detail", args=[message.conversation_id])).json()
    assert listed["messages"][0]["answer"] == message.answer


def test_ask_returns_the_answer_with_citations_and_stores_it(library, api_client_for):
    client = api_client_for("viewer")
    response = client.post(reverse("api-ask"), {"question": QUESTION, "collection": "lab"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["answered"] and "[1]" in body["answer"]
    citation = body["citations"][0]
    for key in ("n", "citation_id", "chunk_id", "document_id", "quote", "locator_precision", "viewer_url", "status"):
        assert key in citation
    stored = client.get(reverse("api-conversation-detail", args=[body["conversation"]])).json()
    assert [m["id"] for m in stored["messages"]] == [body["message"]]
    assert stored["messages"][0]["citations"][0]["citation_id"] == citation["citation_id"]
    assert stored["messages"][0]["citations"][0]["status"] == "current"
    listed = client.get(reverse("api-conversation-list")).json()["results"]
    assert [c["id"] for c in listed] == [body["conversation"]] and listed[0]["messages"] == 1


def test_the_stream_sends_evidence_then_text_then_the_same_answer_as_ask(library, api_client_for):
    client = api_client_for("viewer")
    response = client.post(
        reverse("api-ask-stream"),
        {"question": QUESTION, "collection": "lab"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    events = _events(response)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "evidence" and kinds[-1] == "finish" and set(kinds[1:-1]) == {"text"}
    evidence = events[0][1]["evidence"]
    assert evidence and {"evidence_number", "citation_id", "quote", "viewer_url"} <= set(evidence[0])
    streamed = ""
    for _kind, data in events[1:-1]:
        streamed = streamed + data["delta"] if "delta" in data else data["text"]
    finish = events[-1][1]
    assert streamed == finish["answer"]
    # each text event says which evidence passage stands behind each badge so far
    assert events[-2][1]["order"] == [c["evidence_number"] for c in finish["citations"]]
    stored = api_client_for("viewer").get(reverse("api-conversation-detail", args=[finish["conversation"]])).json()
    assert stored["messages"][0]["answer"] == finish["answer"]


def test_bad_requests_and_other_peoples_things_get_clear_errors(library, api_client_for):
    viewer, outsider = api_client_for("viewer"), api_client_for("outsider")
    first = viewer.post(reverse("api-ask"), {"question": QUESTION, "collection": "lab"}, format="json").json()
    cases = [
        (viewer, {"question": "", "collection": "lab"}, 400),
        (viewer, {"question": QUESTION, "collection": "lab", "depth": "deepest"}, 400),
        (viewer, {"question": QUESTION}, 400),
        (outsider, {"question": QUESTION, "collection": "lab"}, 404),
        (outsider, {"question": "And then?", "conversation": first["conversation"]}, 404),
        (outsider, {"regenerate": first["message"]}, 404),
        (api_client_for(None), {"question": QUESTION, "collection": "lab"}, 401),
    ]
    for client, body, status in cases:
        response = client.post(reverse("api-ask"), body, format="json")
        assert response.status_code == status, (body, response.content)
        assert "detail" in response.json() or status == 400
    stream = viewer.post(reverse("api-ask-stream"), {"question": ""}, format="json", HTTP_ACCEPT="text/event-stream")
    assert stream.status_code == 400
    assert stream.content.decode().startswith("event: error\ndata: ")
    hidden = outsider.get(reverse("api-conversation-detail", args=[first["conversation"]]))
    assert hidden.status_code == 404
    assert outsider.get(reverse("api-conversation-list")).json()["results"] == []


def test_manage_py_ask_prints_the_answer_or_the_apis_json(library, personas):
    out = io.StringIO()
    call_command("ask", QUESTION, "--collection", "lab", "--json", "--user", "vic", stdout=out)
    body = json.loads(out.getvalue())
    assert body["answered"] and body["citations"][0]["title"] == "Asiatic lions"
    out = io.StringIO()
    call_command("ask", QUESTION, "--collection", "lab", "--depth", "quick", stdout=out)
    text = out.getvalue()
    assert "Gir forest" in text and "[1] Asiatic lions" in text and "Retrieval note: quick" in text
    with pytest.raises(CommandError, match="may not read"):
        call_command("ask", QUESTION, "--collection", "lab", "--user", "otto", stdout=io.StringIO())


@pytest.mark.worker
def test_after_a_real_reingest_and_delete_old_answers_say_where_their_sources_went(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest, collection
):
    client = api_client_for("editor")
    text = b"Asiatic lions\n\nThe Asiatic lion survives only in the Gir forest of Gujarat in India.\n"
    document = api_upload(client, "lions.txt", text)
    assert wait_for_ingest(client, document["id"])["status"] == "ready"
    answer = client.post(reverse("api-ask"), {"question": QUESTION, "collection": "lab"}, format="json").json()
    assert answer["answered"], answer["answer"]
    old_chunk = answer["citations"][0]["chunk_id"]

    assert client.post(reverse("api-document-reingest", args=[document["id"]])).status_code in (200, 202)
    assert wait_for_ingest(client, document["id"])["status"] == "ready"
    url = reverse("api-conversation-detail", args=[answer["conversation"]])
    citation = client.get(url).json()["messages"][0]["citations"][0]
    assert citation["status"] == "moved" and citation["chunk_id"] != old_chunk
    assert citation["viewer_url"].endswith(f"?chunk={citation['chunk_index']}")

    assert client.delete(reverse("api-document-detail", args=[document["id"]])).status_code == 204
    citation = client.get(url).json()["messages"][0]["citations"][0]
    assert citation["status"] == "deleted" and citation["viewer_url"] == ""
