"""A Chinese browser (Chromium, locale zh-CN) gets the portal in Simplified Chinese: the login page, a collection's
labels and statuses, and the JavaScript catalog's words; the header's switch turns it to English and keeps it."""

from __future__ import annotations

import os

import pytest

from tests.browser import open_page

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(chromium_path):
    # Playwright's locale sets the browser's Accept-Language and navigator.language, as a Chinese system does.
    with open_page(chromium_path, locale="zh-CN") as page:
        yield page


def test_a_chinese_browser_logs_in_and_sees_a_collection_in_chinese(page, live_server, personas, collection, document):
    page.goto(f"{live_server.url}/")
    assert page.get_attribute("html", "lang") == "zh-hans"
    assert page.inner_text("h1") == "登录"
    page.fill("input[name=username]", "vic")
    page.fill("input[name=password]", "pw-vic")
    page.click("main button[type=submit]")

    page.click("text=Lab notes")
    page.wait_for_selector("h1:has-text('Lab notes')")
    # the collection's labels, its table's headings and the document's status are Chinese
    assert page.inner_text(".heading-row a[href$='/search/']") == "检索"
    assert page.inner_text(".heading-row a[href$='/ask/']") == "提问"
    assert page.inner_text("table.documents thead").split() == ["文档", "类型", "状态", "段落"]
    assert page.inner_text(f"#document-{document.pk} .badge") == "就绪"
    assert page.inner_text(".topbar nav >> text=历史记录") == "历史记录"
    # and the scripts' words come from the JavaScript catalog, loaded as a file under the CSP
    assert page.evaluate("gettext('Searching…')") == "正在检索…"

    # the switch in the header turns the interface to English, for this page and the next ones
    page.click(".language-switch button[value=en]")
    page.wait_for_selector("h1:has-text('Lab notes')")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text(f"#document-{document.pk} .badge") == "Ready"
    page.goto(f"{live_server.url}/")
    assert page.inner_text("h1") == "Search and ask all your collections"
    page.goto(f"{live_server.url}/collections/")
    assert page.inner_text("h1") == "Collections"
