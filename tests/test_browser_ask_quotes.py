"""In the system Chromium, against a live server and the real worker: two claims citing the same passage show two
different quotes when their badges are hovered, and a question the library is on the topic of but does not answer
says so and offers the passages on the topic as cards."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests.browser import open_page
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

GIR = "The Asiatic lion survives only in the Gir forest of Gujarat in India."
GREW = "Its population grew to about 600 animals by 2017 after decades of protection."
LIONS = f"{GIR} {GREW} Lions once ranged from Greece to eastern India.\n"


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path, timeout_ms=60_000, viewport={"width": 1280, "height": 900}) as page:
        yield page


@pytest.fixture
def lions(collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest):
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, "lions.txt", LIONS.encode())["id"])
    assert done["status"] == "ready", done["error"]
    return done["id"]


def _stored_answer(user, document_id: int, raw: str, question: str):
    """The answer `raw` (its claims and markers) finished and stored as the service does, over the document's
    real chunk: the support check, the per-claim quotes and the citation objects are the service's own."""
    from apps.documents.models import Chunk

    return stored_answer_over(user, Chunk.objects.get(document_id=document_id), raw, question)


def stored_answer_over(user, chunk, raw: str, question: str):
    """_stored_answer over one given chunk of a document (its evidence [1])."""
    from apps.citations.answers.finalize import Draft, finish
    from apps.citations.answers.service import Prepared, save
    from apps.citations.answers.types import Evidence
    from apps.documents.models import Chunk, Document
    from apps.retrieval.search.hits import make_hit
    from apps.retrieval.search.service import Ranked

    chunk = Chunk.objects.select_related("document__collection").get(pk=chunk.pk)
    document_id = chunk.document_id
    evidence = [Evidence(1, make_hit(chunk, Ranked(chunk.pk, 0.5, "fusion"), question, {}, 80))]
    done = finish(Draft(raw), evidence, question, "en", True, deep=False, reading_mode=False)
    assert done.answered
    document = Document.objects.get(pk=document_id)
    prepared = Prepared(
        user=user,
        question=question,
        collection=document.collection,
        depth="quick",
        strict=True,
        composer="extractive",
        conversation=None,
        document=None,
        message=None,
        history=[],
    )
    result = {
        "question": question,
        "answer": done.answer,
        "answered": True,
        "language": "en",
        "depth": "quick",
        "strict": True,
        "composer": "extractive",
        "sentences": done.sentences,
        "citations": [c.as_dict() for c in done.citations],
        "topic_passages": [c.as_dict() for c in done.topic_passages],
        "conflicts": done.conflicts,
        "chain": {},
        "hint": "",
        "retrieval_note": "quick",
    }
    return save(prepared, result)


def _hover_text(page, badge) -> str:
    badge.hover()
    return page.inner_text(".cite-popover")


def test_two_claims_citing_one_passage_show_their_own_quotes(page, live_server, personas, lions):
    # given a stored answer whose two claims both cite the one passage of the document
    question = "Where does the Asiatic lion survive, and how many are there?"
    message = _stored_answer(personas["viewer"], lions, f"{GIR[:-1]} [1]. {GREW[:-1]} [1].", question)
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(live_server.url + reverse("conversation-detail", args=[message.conversation_id]))

    # when each badge is hovered, then each shows the sentence that backs its own claim
    badges = page.locator(f"#message-{message.pk} .answer a.badge.cite")
    assert badges.count() == 2
    assert [badges.nth(i).get_attribute("data-n") for i in range(2)] == ["1", "1"]
    first, second = _hover_text(page, badges.nth(0)), _hover_text(page, badges.nth(1))
    assert (first, second) == (GIR, GREW)
    # and the card quotes the first claim's sentence
    assert page.inner_text(f"#cite-{message.pk}-1 .card-quote") == GIR


def test_an_unanswered_question_offers_the_passages_on_the_topic(page, live_server, personas, lions):
    _log_in(page, live_server, "vic", "pw-vic")
    page.goto(f"{live_server.url}/c/lab/ask/")
    # given a question on the document's topic that it does not answer, asked with the stream
    page.fill("textarea[name=question]", "How many Asiatic lions died of canine distemper in the Gir forest?")
    page.click("form.ask-form button[type=submit]")
    block = page.wait_for_selector("article.message-block:not(.is-streaming)")

    # then the answer says so, and the passages on the topic follow as cards
    assert (
        block.query_selector(".answer").inner_text().strip() == "The documents in this collection do not answer this."
    )
    assert block.query_selector_all(".answer a.badge.cite") == []
    topic = block.query_selector(".topic-passages")
    assert topic, block.inner_html()
    assert topic.query_selector("h3").inner_text() == "Passages on the topic:"
    cards = topic.query_selector_all(".source-card")
    assert len(cards) == 1 and "Gir forest" in cards[0].query_selector(".card-quote").inner_text()
    assert cards[0].query_selector("a.card-open").get_attribute("href").startswith(f"/documents/{lions}/view/")
