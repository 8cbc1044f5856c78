"""/api/docs/: Swagger UI over the schema, public, served from this site alone (no CDN, no inline script), and
working in the system Chromium: every operation listed, and one tried out with an API token."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.browser import open_page

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

OPERATIONS = 15  # every method and path under /api/v1/ (test_api_contract checks the schema has them all)


def test_the_docs_page_is_public_and_loads_only_its_own_static_files(client):
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    body = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', body)
    assert sources and not [s for s in sources if "//" in s]  # no other host, not even protocol-relative
    for static_path in [s for s in sources if s.startswith("/static/")]:
        assert finders.find(static_path.removeprefix("/static/")), static_path
    assert re.findall(r"<script(?![^>]*\bsrc=)", body) == []  # no inline script: a CSP can say script-src 'self'
    assert 'data-schema-url="/api/schema/"' in body


def test_the_docs_page_only_answers_reads(client):
    assert client.post(reverse("api-docs")).status_code == 405


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path, viewport={"width": 1280, "height": 900}) as page:
        yield page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_swagger_ui_lists_every_operation_and_tries_one_with_a_token(page, live_server, personas, collection):
    requested, failures = [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock")
    assert page.locator(".opblock").count() == OPERATIONS

    token = Token.objects.create(user=personas["viewer"]).key
    page.click("button.authorize")
    page.locator(".auth-container", has_text="tokenAuth").locator("input").fill(f"Token {token}")
    page.locator(".auth-container", has_text="tokenAuth").locator("button.authorize").click()
    page.click("button.btn-done")
    operation = page.locator("#operations-collections-collections_list")
    operation.locator(".opblock-summary").click()
    operation.locator("button.try-out__btn").click()
    operation.locator("button.execute").click()
    status = operation.locator(".live-responses-table tr.response td.response-col_status").first
    status.wait_for()
    assert status.inner_text().strip().startswith("200")
    assert '"slug": "lab"' in operation.locator(".live-responses-table .microlight").first.inner_text()

    assert failures == []
    outside = [url for url in requested if not url.startswith((live_server.url, "data:", "blob:"))]
    assert outside == []
