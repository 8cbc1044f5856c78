"""kb_ask over `manage.py mcp --transport http` (issue 15): its JSON carries what POST /api/v1/ask carries, the claims
with their own quotes and, for a question the library is on the topic of but does not answer, the passages on the
topic; its text says the same to a reader: each claim with its quotes, or that the documents do not answer it and
the passages found instead. In English and Chinese."""

from __future__ import annotations

import anyio
import pytest
from django.urls import reverse

from apps.citations.answers.language import phrase
from apps.documents.services.bulk import TextItem, add_texts
from tests.citations.papers import PAPERS
from tests.mcp.clients import call, http_session, text_of

pytestmark = pytest.mark.django_db(transaction=True)

TWO_CLAIMS = "Where does the Asiatic lion survive, and how many are there?"
UNANSWERED = {
    "en": "How many Asiatic lions died of canine distemper in the Gir forest?",
    "zh": "大熊猫的平均寿命是多少年？",
}


@pytest.fixture
def library(collection, personas, embedder):
    """Every paper of the answer tests (the Chinese one too) as ready documents of `lab`, committed."""
    return add_texts(collection, [TextItem(n, t, x) for n, t, x in PAPERS], embedder)


def _kb_ask(url: str, key: str, questions: list[str]) -> list:
    async def session_calls():
        async with http_session(url, f"Token {key}") as session:
            return [await call(session, "kb_ask", question=q, collection="lab", depth="quick") for q in questions]

    return anyio.run(session_calls)


def _claims(body: dict) -> list[tuple[str, list[int], dict]]:
    return [(row["text"], row["citations"], row["quotes"]) for row in body["sentences"]]


def _passages(body: dict) -> list[tuple[int, str, str]]:
    return [(p["chunk_id"], p["quote"], p["viewer_url"]) for p in body["topic_passages"]]


def test_kb_ask_gives_each_claim_its_own_quote_as_the_rest_api_does(http_server, library, token_of, api_client_for):
    rest = api_client_for("viewer").post(
        reverse("api-ask"), {"question": TWO_CLAIMS, "collection": "lab", "depth": "quick"}, format="json"
    )
    (answered,) = _kb_ask(http_server, token_of("viewer"), [TWO_CLAIMS])

    # given an answer whose claims cite the one passage of lions.txt
    assert not answered.is_error, text_of(answered)
    body = answered.structured_content
    citing_one = [row for row in body["sentences"] if row["citations"] == [1]]
    assert len(citing_one) >= 2, body["sentences"]

    # then its JSON has the REST answer's claims, each with its own quote of that passage
    assert _claims(body) == _claims(rest.json())
    assert len({row["quotes"]["1"] for row in citing_one}) == len(citing_one)
    # and its text shows each claim followed by its own quote
    text = text_of(answered)
    assert "Claims and their quotes:" in text
    for row in body["sentences"]:
        quotes = "\n".join(f"    [{n}] “{row['quotes'][str(n)]}”" for n in row["citations"])
        assert f"- {row['text']}\n{quotes}\n" in text


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_unanswered_kb_ask_returns_and_shows_the_passages_on_the_topic(
    http_server, library, token_of, api_client_for, language
):
    question = UNANSWERED[language]
    rest = api_client_for("viewer").post(
        reverse("api-ask"), {"question": question, "collection": "lab", "depth": "quick"}, format="json"
    )
    (result,) = _kb_ask(http_server, token_of("viewer"), [question])

    # given a question the library is on the topic of, but does not answer
    assert not result.is_error, text_of(result)
    body = result.structured_content
    assert body["answered"] is False, body["answer"]

    # then the tool returns the REST answer's passages on the topic, as citation objects
    assert body["topic_passages"], body
    assert _passages(body) == _passages(rest.json())
    # and its text says the documents do not answer it, and names each passage: title, place, ids and quote
    lines = text_of(result).splitlines()
    assert lines[0] == phrase(language, "no_answer")
    heading = lines.index(phrase(language, "topic_passages"))
    for k, passage in enumerate(body["topic_passages"]):
        named = lines[heading + 1 + 2 * k]
        assert named.startswith(f"[{passage['n']}] {passage['title']} — ")
        assert named.endswith(f"(document {passage['document_id']}, chunk {passage['chunk_index']})")
        assert lines[heading + 2 + 2 * k] == f"    “{passage['quote']}”"
