"""The viewer's pages in the system Chromium, on a workbook read by the real worker: a citation of a row far down
the sheet opens its page with that chunk's rows highlighted, the pager moves between pages, and a passage of
another page chosen in the side panel opens that page highlighted."""

from __future__ import annotations

import os

import pytest

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk, Document
from tests.browser import open_page
from tests.documents.test_viewer_pages import sheet_rows, workbook
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

HIGHLIGHTED_ROWS = """() => Array.from(document.querySelectorAll('#doc-viewer tr.doc-highlight-part'))
  .map(tr => Number(tr.dataset.row))"""


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path, viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_a_far_citation_in_a_long_workbook_is_highlighted_on_its_page(
    page, live_server, personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    # given a workbook of 2,000 rows read by the worker (several pages of the viewer)
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, "counts.xlsx", workbook(2000))["id"], timeout=300)
    assert done["status"] == "ready", done["error"]
    document = Document.objects.get(pk=done["id"])
    chunks = list(Chunk.objects.filter(document=document).order_by("chunk_index"))
    far = chunks[-3]
    _log_in(page, live_server, "vic", "pw-vic")

    # when its citation is opened
    response = page.goto(live_server.url + viewer_url(document.pk, far.chunk_index))
    assert response.status == 200
    page.wait_for_selector(f"#doc-viewer[data-highlighted='{far.chunk_index}']")

    # then exactly the chunk's rows stand out, in view, on a page that is not the first
    assert page.evaluate(HIGHLIGHTED_ROWS) == sheet_rows(far.text)
    assert page.locator("#doc-viewer tr.doc-highlight-part").first.is_visible()
    assert page.locator(".pager-previous").count() == 2 and page.locator("#doc-viewer tr[data-row='1']").count() == 0

    # when the previous page is opened from the pager, the cited rows are not on it and nothing is highlighted
    page.locator(".pager-previous").first.click()
    page.wait_for_load_state()
    assert "page=" in page.url
    assert page.evaluate(HIGHLIGHTED_ROWS) == []
    assert page.locator("#doc-locate-note").is_visible()

    # and a passage of another page chosen in the panel opens that page, highlighted
    page.goto(live_server.url + viewer_url(document.pk, far.chunk_index))
    page.wait_for_selector(".panel-chunk.is-target")
    first_on_page = page.evaluate("() => JSON.parse(document.getElementById('viewer-page').textContent).first_chunk")
    assert first_on_page <= far.chunk_index
    page.goto(live_server.url + viewer_url(document.pk, first_on_page))
    page.wait_for_selector(f".panel-chunk[data-chunk-index='{first_on_page - 1}']")
    page.click(f".panel-chunk[data-chunk-index='{first_on_page - 1}']")
    page.wait_for_selector(f"#doc-viewer[data-highlighted='{first_on_page - 1}']")
    assert page.evaluate(HIGHLIGHTED_ROWS) == sheet_rows(chunks[first_on_page - 1].text)
