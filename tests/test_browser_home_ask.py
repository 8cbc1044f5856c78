"""Asking every readable collection from the home page, in the system Chromium against a live server and the real
worker: the answer streams in below the form (POST /api/v1/ask/stream with all_collections), its sources name the
paper of the collection the person reads, the conversation is listed, and a follow-up goes on across collections."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from apps.citations.models import Conversation
from tests.browser import open_page
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PAPER = Path(__file__).resolve().parents[1] / "demo" / "papers" / "bmc-evolbiol-14-70.pdf"
ANSWERED = re.compile(r".*/conversations/(\d+)/#message-(\d+)$")


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path, timeout_ms=60_000, viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_the_home_page_streams_an_answer_from_every_readable_collection(
    page, live_server, personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, PAPER.name, PAPER.read_bytes())["id"])
    assert done["status"] == "ready", done["error"]
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("form.home-ask-form")
    page.evaluate("() => { window.samePage = true; }")

    page.check("form.home-ask-form input[name=depth][value=quick]")
    page.fill("form.home-ask-form textarea[name=question]", "What did ancient DNA reveal about lions?")
    with page.expect_response("**/api/v1/ask/stream") as streamed:
        page.click("form.home-ask-form button[type=submit]")
    assert streamed.value.headers["content-type"].startswith("text/event-stream")
    assert json.loads(streamed.value.request.post_data or "{}")["all_collections"] == "true"
    page.wait_for_selector("#home-answers article.message-block:not(.is-streaming) .answer a.badge.cite")

    # streamed in place (no page load), stored as a conversation across collections, and listed as such
    assert page.evaluate("window.samePage") is True
    address = ANSWERED.match(page.url)
    assert address, page.url
    conversation = Conversation.objects.get(pk=address[1])
    assert conversation.collection is None
    assert page.locator("#home-answers .source-card").count() >= 1
    assert page.locator(".history .conversation-links a:has-text('ancient DNA')").count() == 1

    # a follow-up from the same form goes on in that conversation
    page.fill("form.home-ask-form textarea[name=question]", "Which regions did those lions live in?")
    page.click("form.home-ask-form button[type=submit]")
    page.wait_for_function(
        "document.querySelectorAll('#home-answers article.message-block:not(.is-streaming)').length === 2"
    )
    assert conversation.messages.count() == 2
