"""Keyboard and screen-reader behaviour in the system Chromium: a citation badge's quote popover is a tooltip the badge
names (aria-describedby) and Escape closes; the viewer's passages are buttons that Enter and Space choose; the
answer being written is a polite live region, busy until it is complete. No worker: the documents and answers are
made directly, the answer stream is played back by the browser's network layer."""

from __future__ import annotations

import json
import os
import re

import pytest
from django.core.files.base import ContentFile

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from tests.browser import open_page
from tests.citations.cited_answer import cited_message
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINES = ["The first line of the notes.", "The second line says more.", "The third line ends them."]

POPOVER = """() => {
  const popover = document.querySelector('.cite-popover');
  const badge = document.querySelector('.answer a.badge.cite');
  return {popover: popover && {id: popover.id, role: popover.getAttribute('role'), text: popover.textContent},
          describedby: badge.getAttribute('aria-describedby'), title: badge.getAttribute('title'),
          focused: document.activeElement === badge};
}"""

# Records the streaming answer's live-region attributes as they change; the stream is too brief to poll.
WATCH_STREAM = """() => {
  window.seen = {live: [], busy: [], status: []};
  const note = answer => {
    window.seen.live.push(answer.getAttribute('aria-live'));
    window.seen.busy.push(answer.getAttribute('aria-busy'));
  };
  new MutationObserver(records => {
    for (const record of records) {
      if (record.type === 'attributes') { note(record.target); continue; }
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1 || !node.matches('.is-streaming')) continue;
        note(node.querySelector('.answer'));
        window.seen.status.push(node.querySelector('.stream-state').getAttribute('role'));
      }
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy']});
}"""


CHOICES = """() => {
  window.chosen = [];
  window.addEventListener('viewer:select', event => {
    window.chosen.push(event.detail.chunk_index);
    event.stopImmediatePropagation();
  }, {capture: true});
}"""


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path, viewport={"width": 1280, "height": 900}) as page:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page
    assert not errors, errors


@pytest.fixture
def notes(collection, personas) -> Document:
    """A text document of three lines, one passage each, as the worker would have left it."""
    content = "\n".join(LINES).encode()
    doc = Document(
        collection=collection,
        original_name="lines.txt",
        doc_type="txt",
        size=len(content),
        sha256="b" * 64,
        status=DocumentStatus.READY,
        chunk_count=len(LINES),
        title="Three lines",
    )
    doc.file.save("lines.txt", ContentFile(content), save=False)
    doc.save()
    IngestJob.objects.create(document=doc, stage=JobStage.DONE, done=1, total=1)
    for i, line in enumerate(LINES):
        Chunk.objects.create(
            document=doc,
            chunk_index=i,
            text=line,
            locator_precision="paragraph",
            para_start=i,
            para_end=i,
            line_start=i + 1,
            line_end=i + 1,
        )
    return doc


def test_escape_closes_a_badges_quote_and_the_focus_stays_on_the_badge(page, live_server, personas, notes):
    # given vic's answer citing the second line, on its conversation page
    chunk = notes.chunks.get(chunk_index=1)
    message = cited_message(personas["viewer"], [(chunk, LINES[1])])
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(f"{live_server.url}/conversations/{message.conversation_id}/")
    badge = page.locator(".answer a.badge.cite").first

    # when the badge gets the keyboard focus, its quote shows as a tooltip the badge is described by
    page.keyboard.press("Tab")  # the page's first link, then on to the badge
    badge.focus()
    shown = page.evaluate(POPOVER)
    assert shown["popover"] == {"id": shown["describedby"], "role": "tooltip", "text": LINES[1]}, shown
    assert shown["focused"] and shown["title"] is None  # the popover stands in for the title meanwhile

    # when Escape is pressed, the popover closes, the focus stays on the badge and nothing names the popover
    page.keyboard.press("Escape")
    closed = page.evaluate(POPOVER)
    assert closed == {"popover": None, "describedby": None, "title": LINES[1], "focused": True}, closed

    # and it stays closed while the badge keeps the focus; leaving and coming back shows it again
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(POPOVER)["popover"] is None
    page.keyboard.press("Tab")
    again = page.evaluate(POPOVER)
    assert again["focused"] and again["popover"]["text"] == LINES[1], again

    # a popover opened by the pointer closes on Escape too, without taking the focus
    page.locator("h1").click()
    badge.hover()
    assert page.evaluate(POPOVER)["popover"]["text"] == LINES[1]
    page.keyboard.press("Escape")
    after = page.evaluate(POPOVER)
    assert after["popover"] is None and not after["focused"], after


def test_the_viewers_passages_are_buttons_that_enter_and_space_choose(page, live_server, personas, notes):
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(live_server.url + viewer_url(notes.pk, 0))
    page.wait_for_selector("#doc-viewer[data-highlighted='0']")
    page.wait_for_function("document.querySelectorAll('.panel-chunk').length === 3")
    # The panel announces a choice with a viewer:select event; what the document view does with it is tested on real
    # documents (test_browser_viewer_doc.py). These hand-made passages are not the chunker's, so the view would look
    # for them on another page: the choices are recorded here instead of reaching it.
    page.evaluate(CHOICES)

    # each passage is a real button inside its row; the row itself takes no focus
    rows = page.locator(".panel-chunk")
    assert rows.evaluate_all("rows => rows.map(row => row.tabIndex)") == [-1, -1, -1]
    buttons = page.locator(".panel-chunk > button.panel-select[type=button]")
    assert buttons.count() == 3
    assert buttons.nth(0).get_attribute("aria-current") == "true"
    assert buttons.nth(1).get_attribute("aria-current") is None

    # Enter on the second passage moves the highlight there
    buttons.nth(1).focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"[?&]chunk=1(&|$)"))
    assert page.evaluate("window.chosen") == [1]
    assert "is-target" in rows.nth(1).get_attribute("class")
    assert buttons.nth(1).get_attribute("aria-current") == "true"
    assert buttons.nth(0).get_attribute("aria-current") is None

    # Space on the third
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.panel-chunk').dataset.chunkIndex") == "2"
    page.keyboard.press(" ")
    page.wait_for_url(re.compile(r"[?&]chunk=2(&|$)"))
    assert page.evaluate("window.chosen") == [1, 2]
    assert buttons.nth(2).get_attribute("aria-current") == "true"

    # the document's own scrolling box takes the focus, so the keyboard can scroll it
    assert page.get_attribute("#doc-viewer", "tabindex") == "0"


def test_the_answer_being_written_is_a_polite_live_region_busy_until_complete(page, live_server, personas, notes):
    # given a stored answer the stream will finish with, played back by the browser in place of the server
    message = cited_message(personas["viewer"], [(notes.chunks.get(chunk_index=0), LINES[0])], "What comes first?")
    evidence = [{"evidence_number": 1, "title": "Three lines", "source": "lines.txt", "quote": LINES[0]}]
    events = [
        ("evidence", {"evidence": evidence}),
        ("text", {"delta": "It says so ", "order": [1]}),
        ("text", {"delta": "[1].", "order": [1]}),
        ("finish", {"conversation": message.conversation_id, "message": message.pk}),
    ]
    body = "".join(f"event: {kind}\ndata: {json.dumps(data)}\n\n" for kind, data in events)
    page.route(
        "**/api/v1/ask/stream",
        lambda route: route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body),
    )
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(f"{live_server.url}/c/lab/ask/")
    assert page.get_attribute("#answers", "aria-live") == "polite"
    page.evaluate(WATCH_STREAM)

    # when a question is asked
    page.fill("textarea[name=question]", "What comes first?")
    page.click("form.ask-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/conversations/{message.conversation_id}/#message-{message.pk}$"))
    page.wait_for_selector(f"#message-{message.pk} .answer a.badge.cite")

    # then the answer was written in a polite live region, busy while it was written and no longer once complete,
    # under a status line; the stored answer took its place
    seen = page.evaluate("window.seen")
    assert seen["live"] and set(seen["live"]) == {"polite"}, seen
    assert seen["busy"][0] == "true" and seen["busy"][-1] == "false", seen
    assert seen["status"] == ["status"], seen
    assert page.locator(".message-block.is-streaming").count() == 0
