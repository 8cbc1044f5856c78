"""The LLM path streams through the real stack: POST /api/v1/ask/stream (what the ask page's ask.js reads) served by
a live WSGI server in a thread, read over a socket event by event, while a loopback fake model writes unmarked
sentences and pauses until the test lets it go on. The pauses make the order provable without timings: the test
sees the first tokens while the model is still paused mid-sentence, and a sentence's `citation` event while the
model is paused right after that sentence, before it has written the next one."""

from __future__ import annotations

import http.client
import json
import re
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from rest_framework.authtoken.models import Token
from test_llm_composer import Reply, chunk, event, fake_llm, url

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "Where does the Asiatic lion survive?"
WHERE = "The Asiatic lion survives only in the Gir forest of Gujarat, India."
HOW_MANY = "By 2017 the population of Asiatic lions had grown to about 600 animals."
INVENTED = "Lions sleep up to twenty hours a day on the African savanna."


def pieces(text: str) -> list[bytes]:
    return [chunk(p) for p in re.findall(r"\s*\S+", text)]  # each word with the space before it


def sse_events(response: http.client.HTTPResponse) -> Iterator[tuple[str, dict]]:
    """(event, data) as each event's closing blank line arrives off the socket."""
    fields: dict[str, str] = {}
    while line := response.readline():
        line = line.decode().rstrip("\r\n")
        if line:
            name, _, value = line.partition(": ")
            fields[name] = value
        elif fields:
            yield fields["event"], json.loads(fields["data"])
            fields = {}


def test_tokens_and_each_citation_reach_the_client_while_the_model_is_still_writing(
    library, personas, settings, live_server
):
    first_words, second_words = threading.Event(), threading.Event()
    # Paused after "The Asiatic lion survives" (mid-sentence), then after " By" (the first sentence is complete,
    # so its citation can be known; the second is not).
    head, rest = WHERE.split(" only ")
    written = [
        chunk(role="assistant"),
        *pieces(head),
        first_words,
        *pieces(f" only {rest} By"),
        second_words,
        *pieces(f"{HOW_MANY.removeprefix('By')} {INVENTED}"),
        chunk(finish="stop"),
        event("[DONE]"),
    ]
    reply = Reply(written)
    token, _ = Token.objects.get_or_create(user=personas["viewer"])
    with fake_llm(reply) as model:
        settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL, settings.PORTAL_LLM_TIMEOUT = url(model), "fake", 60
        address = urlsplit(live_server.url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        body = {"question": QUESTION, "collection": "lab", "composer": "llm", "strict": False}
        connection.request(
            "POST",
            "/api/v1/ask/stream",
            json.dumps(body),
            {"Authorization": f"Token {token.key}", "Content-Type": "application/json", "Accept": "text/event-stream"},
        )
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        kinds: list[str] = []
        shown = ""
        citations: list[dict] = []
        finish: dict = {}
        for kind, data in sse_events(response):
            kinds.append(kind)
            if kind in ("text", "citation"):
                shown = shown + data["delta"] if "delta" in data else data["text"]
            if kind == "text" and "survives" in shown and not first_words.is_set():
                # The model is paused mid-sentence: these tokens came before the end of its answer.
                assert "citation" not in kinds and "only" not in shown
                first_words.set()
            if kind == "citation":
                citations.append(data)
                if len(citations) == 1:
                    # Paused after " By": the citation came before the model wrote its second sentence.
                    assert first_words.is_set() and not second_words.is_set()
                    assert shown.startswith(f"{WHERE[:-1]} [1].") and "population" not in shown
                    second_words.set()
            if kind == "finish":
                finish = data
        connection.close()
    assert reply.stalled == 0, "the model was never let go: the client did not get the events while it waited"
    assert kinds[0] == "evidence" and kinds[-1] == "finish"
    assert first_words.is_set() and second_words.is_set()
    lions = library["lions.txt"].pk
    assert [c["claim"] for data in citations for c in data["citations"]] == [WHERE, HOW_MANY]
    assert finish["composer"] == "llm:fake" and finish["answered"] is True
    assert finish["citations"][0]["document_id"] == lions
    assert shown == finish["answer"]  # what the client put together is the stored answer
