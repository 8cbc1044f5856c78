"""Script payloads in documents stay text on every page that shows them, in the system Chromium.

A Markdown file, a Word file and a web page carry `<script>`, `<img onerror>` and `javascript:` payloads in their
text, title and file name; they are uploaded and read by the real worker, a question about them is asked on the
ask page (streamed), and the collection, document, search, ask, conversation and viewer pages are visited. On each
page no payload ran (window.__pwned stays undefined, no dialog opened), no payload became an element, and the
payload is visible as the characters it is.
"""

from __future__ import annotations

import os
import re

import pytest

from tests.browser import open_page
from tests.hostile.builders import docx_bytes
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
IMG_NAME = "<img src=x onerror=window.__pwned=1>"  # no quotes: a multipart file name carries them badly
JS_URL = "javascript:window.__pwned=1"
ANSWERED = re.compile(r".*/conversations/(\d+)/#message-(\d+)$")

MARKDOWN = f"""# Glacier survey {SCRIPT}

The glacier moraine measurements {IMG} were taken in July, with a [field link]({JS_URL}).

Raw anchor: <a href="{JS_URL}">click the moraine</a> and <svg onload="window.__pwned=1">.
""".encode()
HTML = f"""<html><head><title>Moraine page &lt;script&gt;window.__pwned=1&lt;/script&gt;</title>
<script>window.__pwned=1</script></head><body onload="window.__pwned=1">
<h1>Moraine page</h1><img src=x onerror="window.__pwned=1">
<p>The moraine page shows the payload as text: &lt;img src=x onerror="window.__pwned=1"&gt; and
<a href="{JS_URL}">a javascript link</a>.</p></body></html>""".encode()
WORD = docx_bytes(
    [f"The moraine survey in Word keeps {IMG} and {JS_URL} as plain words."],
    title=f"{SCRIPT} Word survey",
    heading=f"Moraine heading {IMG}",
)

# After every page: nothing ran, no payload became an element or a link target.
INERT = """() => ({
  pwned: typeof window.__pwned,
  payloadElements: document.querySelectorAll('img[src="x"], [onerror], svg[onload], body[onload]').length,
  jsLinks: [...document.querySelectorAll('a[href]')].filter(a => a.protocol === 'javascript:').length,
  // JSON data blocks (json_script) may hold the text; they are never run
  scripts: [...document.querySelectorAll('script:not([type="application/json"])')]
    .filter(s => s.textContent.includes('__pwned')).length,
})"""


@pytest.fixture
def page(chromium_path):
    # an answer reranks on this machine's CPU
    with open_page(chromium_path, timeout_ms=60_000, viewport={"width": 1280, "height": 900}) as page:
        page.dialogs = []
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        yield page


def _visit(page, url: str, *, shows: tuple[str, ...]) -> None:
    if url:
        page.goto(url)
    page.wait_for_load_state("networkidle")
    _assert_inert(page, shows)


def _assert_inert(page, shows: tuple[str, ...]) -> None:
    where = page.url
    assert page.evaluate(INERT) == {"pwned": "undefined", "payloadElements": 0, "jsLinks": 0, "scripts": 0}, where
    assert page.dialogs == [], where
    text = page.inner_text("body")
    for payload in shows:
        assert payload in text, f"{payload!r} is not shown as text on {where}"


def test_script_payloads_stay_text_on_every_page(
    page, live_server, personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    # given three documents with payloads in their text, titles and names, read by the worker
    client = api_client_for("editor")
    documents = {}
    for name, data in ((f"{IMG_NAME}.md", MARKDOWN), ("moraine.html", HTML), ("survey.docx", WORD)):
        done = wait_for_ingest(client, api_upload(client, name, data)["id"])
        assert done["status"] == "ready", (name, done["error"])
        documents[done["doc_type"]] = done
    assert documents["md"]["original_name"] == f"{IMG_NAME}.md"
    assert documents["md"]["title"] == f"Glacier survey {SCRIPT}"
    assert documents["docx"]["title"] == f"{SCRIPT} Word survey"

    # when a member visits every page that shows them, then no payload runs and each is shown as text
    _log_in(page, live_server, "vic", "pw-vic")
    base = live_server.url
    _visit(page, f"{base}/c/lab/", shows=(f"Glacier survey {SCRIPT}", f"{SCRIPT} Word survey"))
    _visit(page, f"{base}/documents/{documents['md']['id']}/", shows=(f"Glacier survey {SCRIPT}", f"{IMG_NAME}.md"))
    _visit(page, f"{base}/documents/{documents['docx']['id']}/", shows=(f"{SCRIPT} Word survey",))
    _visit(page, f"{base}/documents/{documents['html']['id']}/", shows=("moraine.html",))
    _visit(page, f"{base}/c/lab/search/?q=moraine+measurements+survey", shows=(f"Glacier survey {SCRIPT}",))
    _visit(page, f"{base}/documents/{documents['md']['id']}/view/", shows=(f"Glacier survey {SCRIPT}", IMG, JS_URL))
    _visit(page, f"{base}/documents/{documents['docx']['id']}/view/", shows=(f"Moraine heading {IMG}", JS_URL))
    _visit(page, f"{base}/documents/{documents['html']['id']}/view/", shows=(IMG, "a javascript link"))

    # a question with a payload of its own, asked on the page: the streamed answer and its sources stay text
    _visit(page, f"{base}/c/lab/ask/", shows=())
    question = f"When were the glacier moraine measurements taken? {IMG}"
    page.fill("textarea[name=question]", question)
    page.click("form.ask-form button[type=submit]")
    page.wait_for_selector("article.message-block:not(.is-streaming) .answer a.badge.cite")
    page.wait_for_url(ANSWERED)
    _visit(page, "", shows=(question, f"Glacier survey {SCRIPT}"))
    conversation_url = page.url.split("#")[0]
    cards = page.locator("a.card-open")
    assert cards.count() >= 1
    viewer_links = [cards.nth(i).get_attribute("href") for i in range(min(cards.count(), 3))]

    # the stored answer, the conversation list and the viewer opened from a citation
    _visit(page, conversation_url, shows=(question, f"Glacier survey {SCRIPT}"))
    _visit(page, f"{base}/conversations/", shows=(question,))
    for link in viewer_links:
        _visit(page, base + link if link.startswith("/") else link, shows=())
        assert page.locator(".citation-steps .badge.is-active").count() == 1
