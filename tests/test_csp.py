"""Content-Security-Policy: scripts and styles from this site only, no inline code; and no cache keeps the API
token page. The browser test opens every kind of page in Chromium and fails on any CSP violation."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from apps.documents.models import Document

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
def test_every_page_carries_a_policy_without_inline_scripts_or_styles(client, personas):
    client.force_login(personas["viewer"])
    for url in (reverse("login"), reverse("collection-list"), reverse("api-docs"), "/api/v1/collections/"):
        policy = _policy(client.get(url))
        assert policy["script-src"][0] == "'self'" and policy["style-src"] == ["'self'"], url
        assert "'unsafe-inline'" not in policy["script-src"] + policy["style-src"], url
        assert "'unsafe-eval'" not in policy["script-src"], url
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"], url


# Inline code in a template: an event handler attribute, a style attribute or element, a javascript: link, or a
# <script> that runs and has no src. Data blocks (type="application/json") do not run; the import map runs, so
# it must carry the request's nonce.
_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
_STYLE = re.compile(r"\sstyle\s*=|<style\b|javascript:", re.IGNORECASE)
_SCRIPT = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)


def _inline_code(text: str) -> list[str]:
    found = [m.group(0) for m in _HANDLER.finditer(text)] + [m.group(0) for m in _STYLE.finditer(text)]
    for match in _SCRIPT.finditer(text):
        attributes = match.group(1)
        if "src=" in attributes or 'type="application/json"' in attributes:
            continue
        if 'type="importmap"' in attributes and "csp_nonce" in attributes:
            continue
        found.append(match.group(0))
    return found


def test_no_template_has_inline_handlers_styles_or_scripts():
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted(TEMPLATES.rglob("*.html"))
        if (found := _inline_code(path.read_text(encoding="utf-8")))
    }
    assert not offenders, offenders


def test_the_scan_finds_what_it_looks_for():
    """The scan above would not pass by missing them: each kind of inline code is caught."""
    for snippet in (
        "<form onsubmit=\"return confirm('x')\">",
        '<p style="color:red">',
        "<style>p{}</style>",
        "<script>alert(1)</script>",
        '<script type="importmap">{}</script>',
        '<a href="javascript:go()">',
    ):
        assert _inline_code(snippet), snippet
    assert not _inline_code('<script src="/static/js/a.js" defer></script><script type="application/json">')


@pytest.mark.django_db
def test_the_api_token_page_is_never_cached(client, personas):
    client.force_login(personas["viewer"])
    for response in (client.get(reverse("api-token")), client.post(reverse("api-token"))):
        assert "no-store" in response["Cache-Control"], response.status_code


# --- In Chromium: the pages work under the policy, and it refuses nothing ------------------------------------
# Violations are collected by the page itself (Playwright's init script runs outside the page's policy).
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation",
    (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def _pdf_bytes() -> bytes:
    import pymupdf

    pdf = pymupdf.open()
    for number in (1, 2):
        page = pdf.new_page()
        page.insert_text((72, 90), f"Page {number}: Asiatic lions live in the Gir forest of Gujarat.", fontsize=12)
    return pdf.tobytes()


@pytest.mark.browser
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_pages_work_in_chromium_without_a_csp_violation(
    chromium_path,
    live_server,
    personas,
    collection,
    celery_worker_available,
    api_client_for,
    api_upload,
    wait_for_ingest,
):
    from apps.documents.locators import viewer_url
    from tests.browser import open_page
    from tests.test_browser import _log_in

    editor = api_client_for("editor")
    ids = {}
    for name, content in (("lions.pdf", _pdf_bytes()), ("notes.md", b"# Notes\n\nLions rest in the shade.\n")):
        done = wait_for_ingest(editor, api_upload(editor, name, content)["id"], timeout=240)
        assert done["status"] == "ready", done.get("error")
        ids[name] = done["id"]
    with open_page(chromium_path, timeout_ms=30_000, bypass_csp=False) as page:
        console = []
        page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
        page.add_init_script(WATCH_VIOLATIONS)
        _log_in(page, live_server, "ed", "pw-ed")
        page.wait_for_selector("text=Lab notes")
        violations = {}

        def visit(path: str, ready: str) -> None:
            page.goto(live_server.url + path)
            page.wait_for_selector(ready)
            violations[path] = page.evaluate("window.__cspViolations")

        visit("/c/lab/", "tr.document-row")
        visit(viewer_url(ids["lions.pdf"], 0), "#pdf-viewer[data-state=ready]")
        visit(viewer_url(ids["notes.md"], 0), "#doc-viewer")
        visit(reverse("document-detail", kwargs={"document_id": ids["notes.md"]}), "h1")
        visit("/c/lab/search/?q=lions&mode=keyword", ".search-hits")
        visit(reverse("api-docs"), ".swagger-ui .info")
        visit(reverse("api-token"), "h1")
        visit(reverse("collection-ask", kwargs={"slug": "lab"}), "form.ask-form")
        # An answer streams in (fetch and server-sent events, ask.js) and its badges render.
        page.fill("textarea[name=question]", "Where do Asiatic lions live?")
        page.click("form.ask-form button[type=submit]")
        page.wait_for_selector("article.message-block:not(.is-streaming) .answer", timeout=180_000)
        violations["ask, streamed"] = page.evaluate("window.__cspViolations")
        # The search form swaps its results in through htmx, under the same policy.
        page.goto(f"{live_server.url}/c/lab/search/")
        page.fill("input[type=search]", "shade")
        page.select_option("select[name=mode]", "keyword")
        page.click("form.search-form button[type=submit]")
        page.wait_for_selector("#search-results .search-hits")
        violations["search by htmx"] = page.evaluate("window.__cspViolations")

        # The Delete button asks first (static/js/confirm.js, no inline handler): dismissed, nothing happens.
        page.goto(f"{live_server.url}/c/lab/")
        row = page.locator(f"#document-{ids['notes.md']}")
        questions = []
        page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
        row.locator("button.danger").click()
        page.wait_for_timeout(300)
        assert questions == ["Delete this document and its passages?"]
        assert Document.objects.filter(pk=ids["notes.md"]).exists()
        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            row.locator("button.danger").click()
        assert not Document.objects.filter(pk=ids["notes.md"]).exists()
    assert not {path: found for path, found in violations.items() if found}, violations
    assert not [text for text in console if "Content Security Policy" in text or "Refused to" in text], console
