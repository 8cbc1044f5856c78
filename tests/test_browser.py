"""Browser tests: the system Chromium driven by Playwright against a live server and the real worker."""

from __future__ import annotations

import os

import pytest

from tests.browser import open_page

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path) as page:
        yield page


def _log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def test_a_member_logs_in_and_opens_a_collection(page, live_server, personas, collection, document):
    _log_in(page, live_server, "vic", "pw-vic")
    page.click("text=Lab notes")
    page.wait_for_selector("h1:has-text('Lab notes')")
    assert page.is_visible("text=Notes")
    assert page.inner_text(f"#document-{document.pk} .badge") == "Ready"
    # a viewer sees no upload form
    assert page.locator("input[type=file]").count() == 0


def test_an_outsider_cannot_open_it(page, live_server, personas, collection):
    _log_in(page, live_server, "otto", "pw-otto")
    assert page.locator("text=Lab notes").count() == 0
    response = page.goto(f"{live_server.url}/c/lab/")
    assert response.status == 404


def test_an_upload_shows_live_progress_until_ready(
    page, live_server, personas, collection, celery_worker_available, tmp_path
):
    upload = tmp_path / "minutes.md"
    upload.write_text("# Minutes\n\nWe agreed to read the papers.\n\n## Actions\n\nEveryone reads one paper.\n")
    _log_in(page, live_server, "ed", "pw-ed")
    page.goto(f"{live_server.url}/c/lab/")
    page.set_input_files("input[type=file]", str(upload))
    page.click("form.upload button[type=submit]")
    page.wait_for_selector("text=was added and is being read")
    # the row polls (htmx) and ends on Ready without a reload
    page.wait_for_selector("tr.document-row .badge.ready", timeout=60_000)
    assert page.locator("tr.document-row[hx-get]").count() == 0


def test_a_search_shows_highlighted_passages_and_opens_one(
    page, live_server, personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    """A real paper, ingested by the worker; the search page fills in place (htmx) and links to the passage."""
    from pathlib import Path

    paper = Path(__file__).resolve().parents[1] / "demo" / "papers" / "bmc-evolbiol-14-70.pdf"
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, paper.name, paper.read_bytes())["id"])
    assert done["status"] == "ready"
    _log_in(page, live_server, "vic", "pw-vic")
    page.click("text=Lab notes")
    page.click("a:has-text('Search')")
    page.fill("input[name=q]", "ancient DNA of cave lions")
    page.click("form.search-form button[type=submit]")
    page.wait_for_selector(".search-hit")
    assert "q=ancient" in page.url  # the results came in place and the address can be shared
    assert page.locator(".search-hit").count() == 3  # quick: top 3
    assert page.locator(".search-hit .snippet mark").count() > 0
    assert page.locator(".search-hit .hit-locator").first.inner_text().strip()  # § section · p. N
    artifacts = Path(os.environ.get("PORTAL_TEST_ARTIFACTS", "var/test/artifacts"))
    artifacts.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(artifacts / "search-page.png"), full_page=True)
    page.click(".search-hit .hit-title >> nth=0")
    page.wait_for_url("**/documents/*/view/?chunk=*")
    assert "Panthera leo" in page.locator(".viewer-head").inner_text()
