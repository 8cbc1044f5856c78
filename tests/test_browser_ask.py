"""Asking in the system Chromium, against a live server and the real worker: the answer to a question about a real
paper streams in, its badges show their quotes and open their source cards, a card opens the passage, a reload
shows the stored answer, a follow-up streams below it, and without the stream the form still posts."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser import open_page
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "demo" / "papers" / "bmc-evolbiol-14-70.pdf"
# A test artefact (docs/ask-page.png is refreshed from it by hand when the page changes).
SCREENSHOT = Path(os.environ.get("PORTAL_TEST_ARTIFACTS", ROOT / "var" / "test" / "artifacts")) / "ask-page.png"
ANSWERED = re.compile(r".*/conversations/(\d+)/#message-(\d+)$")

# Records what the page showed on its way to the final answer; the stream's states are too brief to poll for.
WATCH_STREAM = """() => {
  window.seen = {streaming: false, evidence: false, pendingBadge: false};
  new MutationObserver(() => {
    if (document.querySelector('.message-block.is-streaming')) window.seen.streaming = true;
    if (document.querySelector('.is-streaming .evidence-list li')) window.seen.evidence = true;
    if (document.querySelector('.is-streaming .answer .badge.is-pending')) window.seen.pendingBadge = true;
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


@pytest.fixture
def page(chromium_path):
    # a deep answer reranks on this machine's CPU
    with open_page(chromium_path, timeout_ms=60_000, viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_an_answer_streams_in_and_its_badges_open_their_sources(
    page, live_server, personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, PAPER.name, PAPER.read_bytes())["id"])
    assert done["status"] == "ready", done["error"]
    _log_in(page, live_server, "vic", "pw-vic")
    page.click("text=Lab notes")
    page.click("a.button:has-text('Ask')")
    page.wait_for_selector("h1:has-text('Ask Lab notes')")
    assert page.is_checked("input[name=depth][value=deep]")

    # given a question the paper answers, asked with JavaScript on
    page.evaluate("() => { window.samePage = true; }")
    page.evaluate(WATCH_STREAM)
    page.fill("textarea[name=question]", "What did ancient DNA reveal about the maternal history of lions?")
    with page.expect_response("**/api/v1/ask/stream") as streamed:
        page.click("form.ask-form button[type=submit]")
    assert streamed.value.headers["content-type"].startswith("text/event-stream")
    badge = page.wait_for_selector("article.message-block:not(.is-streaming) .answer a.badge.cite")

    # then it was shown while it was written, and the stored answer replaced it without a page load
    assert page.evaluate("window.seen") == {"streaming": True, "evidence": True, "pendingBadge": True}
    assert page.evaluate("window.samePage") is True
    address = ANSWERED.match(page.url)
    assert address, page.url
    message_id = address[2]
    assert page.locator(".source-card").count() >= 1
    assert page.locator(".history .conversation-links a:has-text('maternal history')").count() == 1
    assert "1 question" in page.locator(".history .conversation-links li").first.inner_text()  # as on a reload

    # hovering a badge shows its quote; clicking it highlights its card
    quote = badge.get_attribute("title")
    n = badge.get_attribute("data-n")
    assert quote
    badge.hover()
    assert page.inner_text(".cite-popover") == quote
    badge.click()
    card = page.locator(f"#cite-{message_id}-{n}")
    assert "is-active" in card.get_attribute("class")
    assert card.locator(".card-quote").inner_text() == quote
    assert re.search(r"(?:§ .+ · )?pp?\. \d+", card.locator(".card-locator").inner_text())
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    # a reload shows the stored answer with the same badges
    badges = page.locator(".answer a.badge.cite").count()
    page.reload()
    page.wait_for_selector(f"#message-{message_id} .answer a.badge.cite")
    assert page.locator(".answer a.badge.cite").count() == badges

    # a follow-up streams in below the first answer, in the same conversation
    page.fill("textarea[name=question]", "Where do Asiatic lions survive today?")
    page.click("form.ask-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('article.message-block:not(.is-streaming)').length === 2")
    assert ANSWERED.match(page.url)[1] == address[1]

    # the card's link opens the passage in the viewer
    page.click(f"#cite-{message_id}-{n} a.card-open")
    page.wait_for_url("**/documents/*/view/?chunk=*&message=*&n=*")
    assert "Panthera leo" in page.locator(".viewer-head").inner_text()
    assert page.locator(".citation-steps .badge.is-active").inner_text() == str(n)  # the viewer knows its answer

    # without the stream, the form posts and the answer page shows the stored answer
    page.route("**/api/v1/ask/stream", lambda route: route.abort())
    page.goto(f"{live_server.url}/c/lab/ask/")
    page.fill("textarea[name=question]", "How many ancient lion samples were sequenced?")
    page.click("form.ask-form button[type=submit]")
    page.wait_for_url(ANSWERED)
    page.wait_for_selector(".message-block .answer")
