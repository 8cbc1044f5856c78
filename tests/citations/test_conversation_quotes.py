"""A conversation reopened later shows its answers exactly as they were shown when they came (design.md: exact
locators in chat history, issue 15): each claim's badges with that claim's own quotes, each badge of a claim
opening the viewer at that claim's quote, and an unanswered question's passages on the topic with their quotes and
places. Documents are uploaded through the API and read by the real worker; the questions are asked through the
stream the ask page uses, in English and Chinese, as one conversation of follow-ups."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from apps.citations.answers.language import phrase

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

GIR = "The Asiatic lion survives only in the Gir forest of Gujarat in India."
GREW = "Its population grew to about 600 animals by 2017 after decades of protection."
DOCUMENTS = {
    "lions.txt": f"{GIR} {GREW} Lions once ranged from Greece to eastern India.\n",
    "panda.txt": (
        "大熊猫主要生活在四川、陕西和甘肃的山区竹林中。大熊猫以竹子为食，每天要吃十几公斤竹子。"
        "2016年，大熊猫的保护级别由濒危降为易危。\n"
    ),
}
QUESTIONS = [
    ("Where does the Asiatic lion survive and how large is its population?", True),
    ("How many Asiatic lions died of canine distemper in the Gir forest?", False),
    ("大熊猫以什么为食？", True),
    ("大熊猫的平均寿命是多少年？", False),
]
BADGE = re.compile(
    r'<a class="badge cite" href="#cite-(\d+)-(\d+)" data-n="\d+" data-citation-id="[^"]*" title="([^"]*)">'
)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


@pytest.fixture
def library(celery_worker_available, api_client_for, api_upload, wait_for_ingest, collection):
    editor = api_client_for("editor")
    for name, text in DOCUMENTS.items():
        done = wait_for_ingest(editor, api_upload(editor, name, text.encode())["id"])
        assert done["status"] == "ready", done["error"]


def _streamed(client, question: str, conversation: int | None) -> dict:
    """Ask as the ask page's script does (POST /api/v1/ask/stream); the finish event's data: the answer shown."""
    body = {"question": question, "collection": "lab", "depth": "quick"}
    if conversation:
        body["conversation"] = conversation
    response = client.post(
        reverse("api-ask-stream"), json.dumps(body), content_type="application/json", HTTP_ACCEPT="text/event-stream"
    )
    assert response.status_code == 200
    stream = b"".join(response.streaming_content).decode()
    finish = [block for block in stream.strip().split("\n\n") if block.startswith("event: finish")]
    assert len(finish) == 1, stream
    return json.loads(finish[0].split("data: ", 1)[1])


def _block(page: str, message: int) -> str:
    """One message's article of a page, without the per-request CSRF tokens of its forms."""
    start = page.index(f'<article class="message-block" id="message-{message}"')
    return CSRF.sub("", page[start : page.index("</article>", start)])


def _badge_quotes(block: str) -> list[str]:
    answer = block[block.index('<div class="answer') : block.index("</div>", block.index('<div class="answer'))]
    return [html.unescape(title) for _m, _n, title in BADGE.findall(answer)]


def _topic_cards(block: str) -> list[tuple[str, str]]:
    if '<section class="topic-passages">' not in block:
        return []
    section = block[block.index('<section class="topic-passages">') :]
    section = section[: section.index("</section>")]
    quotes = re.findall(r'<blockquote class="card-quote">(.*?)</blockquote>', section, re.S)
    links = re.findall(r'<a class="card-open" href="([^"]*)"', section)
    return [(html.unescape(q), html.unescape(u)) for q, u in zip(quotes, links, strict=True)]


def _card_link(block: str, message: int, n: int) -> str:
    card = block[block.index(f'id="cite-{message}-{n}"') :]
    return html.unescape(re.search(r'<a class="card-open" href="([^"]*)"', card[: card.index("</li>")])[1])


def test_a_reopened_conversation_shows_each_claims_quotes_and_the_passages_on_the_topic_as_shown(
    library, page_client_for
):
    client = page_client_for("viewer")
    conversation, shown = None, []
    for question, answerable in QUESTIONS:
        # given each question asked in turn in one conversation, and the answer the page swapped in for it
        finish = _streamed(client, question, conversation)
        conversation = finish["conversation"]
        assert finish["answered"] is answerable, finish["answer"]
        partial = client.get(reverse("message-detail", args=[conversation, finish["message"]]))
        assert partial.status_code == 200
        shown.append((finish, _block(partial.content.decode(), finish["message"])))
    lions = shown[0][0]
    assert len([row for row in lions["sentences"] if row["citations"] == [1]]) >= 2, lions["sentences"]

    # when the conversation is opened again
    page = client.get(reverse("conversation-detail", args=[conversation])).content.decode()

    for finish, was in shown:
        message, block = finish["message"], _block(page, finish["message"])
        # then each answer is exactly what was shown when it came
        assert block == was
        # each claim's badges with that claim's own quotes, in order
        expected = [row["quotes"][str(n)] for row in finish["sentences"] for n in row["citations"]]
        assert _badge_quotes(block) == expected
        # each claim numbered as the viewer reads it, and its badge opening the viewer at its own quote
        for number, row in enumerate(finish["sentences"], start=1):
            assert (f'<span class="claim-text" data-claim="{number}">' in block) is bool(row["citations"])
            for n in row["citations"]:
                viewer = client.get(f"{_card_link(block, message, n)}&claim={number}").content.decode()
                quote = html.unescape(re.search(r'<span class="cited-quote-text">(.*?)</span>', viewer, re.S)[1])
                assert quote == row["quotes"][str(n)]
        # and an unanswered question's passages on the topic, with their quotes and places
        # (the stream's links are absolute on the request's host, portal/links.py; the page's are site-relative)
        passages = [(p["quote"], p["viewer_url"].removeprefix("http://testserver")) for p in finish["topic_passages"]]
        assert all(p["viewer_url"].startswith("http://testserver/") for p in finish["topic_passages"])
        assert _topic_cards(block) == passages
        assert bool(passages) is (not finish["answered"])
        if passages:
            heading = phrase(finish["language"], "topic_passages")
            assert f'<h3 class="part-heading">{heading}</h3>' in block
    # the two claims citing the lions passage open it with two different quotes
    assert {row["quotes"]["1"] for row in lions["sentences"][:2]} == {GIR, GREW}
