"""Every page in the system Chromium at a desktop and two phone widths, in light and dark colour schemes: the page
never scrolls sideways (document.documentElement.scrollWidth <= innerWidth), and axe-core (static/vendor/axe-core,
injected by the test, never served to users' pages) finds no violation of impact "serious" or "critical".

One browser, one log-in per colour scheme and many pages per test: these machines have two cores."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk, Document
from tests.browser import open_page
from tests.citations.cited_answer import cited_message

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
PAPER = ROOT / "demo" / "papers" / "bmc-evolbiol-14-70.pdf"
GUIDE = ROOT / "demo" / "portal-guide.docx"
DESKTOP, PHONE, SMALL_PHONE = 1280, 390, 360
# Test artefacts: a few pages as a phone shows them, in both schemes, to look at after a run.
ARTIFACTS = Path(os.environ.get("PORTAL_TEST_ARTIFACTS", ROOT / "var" / "test" / "artifacts"))
SCREENSHOTS = ("collection detail", "viewer pdf", "quote popover")
SERIOUS = ("serious", "critical")

# Why a page scrolls sideways: the outermost elements that reach past the viewport's right edge and are not inside
# a box that scrolls or clips them (those are fine: a wide table in its own scrolling box).
OVERFLOW = """() => {
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth <= width) return null;
  const clipped = el => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    }
    return false;
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  // how far right an element reaches, or its own content does (a long unbroken word)
  const reach = el => {
    const box = el.getBoundingClientRect();
    return box.width ? Math.max(box.right, box.left + el.scrollWidth) : 0;
  };
  const beyond = el => reach(el) > width + 0.5 && !clipped(el);
  const boxBeyond = el => beyond(el) && el.getBoundingClientRect().right > width + 0.5;
  // the outermost boxes past the edge, and the innermost elements whose text is
  const culprits = [...document.body.querySelectorAll('*')].filter(el => boxBeyond(el)
    ? !boxBeyond(el.parentElement) : beyond(el) && ![...el.children].some(beyond));
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width,
          culprits: culprits.slice(0, 6).map(el => name(el) + ' reaches ' + Math.round(reach(el)))};
}"""

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => ({target: n.target.join(' '), summary: n.failureSummary}))}));
}"""


def overflow(page) -> dict | None:
    return page.evaluate(OVERFLOW)


def serious_violations(page) -> list[dict]:
    """axe-core's violations of impact serious or critical on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(AXE_RUN) if v["impact"] in SERIOUS]


def _log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Collections')")


def _pages(base: str, pdf: Document, docx: Document, text: Document, conversation, message) -> list[tuple]:
    """(name, address, what shows the page is ready) for every kind of page a manager of `lab` sees."""
    pdf_chunk = pdf.chunks.filter(locator_precision="bbox").order_by("chunk_index").first()
    docx_chunk = docx.chunks.order_by("chunk_index").first()
    text_chunk = text.chunks.order_by("chunk_index").first()
    panel = "document.querySelector('.panel-chunk')"
    viewer = f"window.portalViewer && {panel}"  # and its `ready` promise, awaited by _open
    document_viewer = f"document.querySelector('#doc-viewer[data-highlighted]') && {panel}"
    return [
        ("collection list", "/", "h1"),
        ("collection detail", "/c/lab/", "table.documents"),
        ("document detail", f"/documents/{pdf.pk}/", ".chunks li"),
        ("viewer pdf", viewer_url(pdf.pk, pdf_chunk.chunk_index, message.pk, 1), viewer),
        ("viewer docx", viewer_url(docx.pk, docx_chunk.chunk_index), document_viewer),
        ("viewer text", viewer_url(text.pk, text_chunk.chunk_index), document_viewer),
        ("search", "/c/lab/search/?q=ancient+DNA+of+cave+lions&mode=keyword", ".search-hit"),
        ("ask", "/c/lab/ask/", ".history"),
        ("conversation list", "/conversations/", "table.conversations"),
        ("conversation detail", f"/conversations/{conversation.pk}/", ".answer a.badge.cite"),
        ("members", "/c/lab/members/", "h1"),
        ("api token", "/accounts/token/", "code.token"),
        ("api docs", "/api/docs/", ".swagger-ui .opblock"),
    ]


def _open(page, base: str, address: str, ready: str) -> None:
    response = page.goto(base + address)
    assert response.status == 200, (address, response.status)
    if ready.startswith(("window.", "document.")):
        page.wait_for_function(ready)
    else:
        page.wait_for_selector(ready)
    if ready.startswith("window.portalViewer"):
        page.evaluate("() => window.portalViewer.ready")  # the PDF drawn, its passage highlighted
        assert page.get_attribute("#pdf-viewer", "data-state") == "ready"


@pytest.fixture
def library(personas, collection, document, celery_worker_available, api_client_for, api_upload, wait_for_ingest):
    """The lab collection with a paper (PDF), the demo guide (DOCX) and a text file, read by the real worker, and
    an answer of the manager's citing the paper."""
    client = api_client_for("editor")
    ingested = []
    for path in (PAPER, GUIDE):
        done = wait_for_ingest(client, api_upload(client, path.name, path.read_bytes())["id"], timeout=240)
        assert done["status"] == "ready", done.get("error")
        ingested.append(Document.objects.get(pk=done["id"]))
    pdf, docx = ingested
    cited = [c for c in Chunk.objects.filter(document=pdf, locator_precision="bbox").order_by("chunk_index")][:2]
    message = cited_message(personas["manager"], [(c, c.text.split(". ")[0]) for c in cited])
    Token.objects.get_or_create(user=personas["manager"])
    return {"pdf": pdf, "docx": docx, "text": document, "conversation": message.conversation, "message": message}


def test_every_page_fits_phones_and_passes_axe_in_light_and_dark(chromium_path, live_server, library):
    base = live_server.url
    pages = _pages(base, library["pdf"], library["docx"], library["text"], library["conversation"], library["message"])
    problems: list[tuple] = []

    def check(name: str, scheme: str, width: int, page) -> None:
        """No sideways scrolling at any width; axe at the desktop and the common phone width (360 px lays out
        the same elements as 390 px, narrower)."""
        if wide := overflow(page):
            problems.append((name, scheme, width, "overflow", wide))
        if width != SMALL_PHONE and (found := serious_violations(page)):
            problems.append((name, scheme, width, "axe", found))
        if width == PHONE and name in SCREENSHOTS:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"layout-{name.replace(' ', '-')}-{scheme}-{width}.png"))

    with open_page(chromium_path, timeout_ms=30_000, viewport={"width": DESKTOP, "height": 900}) as light:
        browser = light.context.browser
        dark_context = browser.new_context(
            bypass_csp=True, color_scheme="dark", viewport={"width": DESKTOP, "height": 900}
        )
        dark_context.set_default_timeout(30_000)
        dark = dark_context.new_page()
        for scheme, page in (("light", light), ("dark", dark)):
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is (scheme == "dark")
            # the log-in page, before logging in
            for width in (DESKTOP, PHONE, SMALL_PHONE):
                page.set_viewport_size({"width": width, "height": 800})
                _open(page, base, "/accounts/login/", "input[name=username]")
                check("login", scheme, width, page)
            page.set_viewport_size({"width": DESKTOP, "height": 900})
            _log_in(page, base, "mia")
            for width in (DESKTOP, PHONE, SMALL_PHONE):
                page.set_viewport_size({"width": width, "height": 800})
                for name, address, ready in pages:
                    _open(page, base, address, ready)
                    check(name, scheme, width, page)
                    if name == "conversation detail":
                        # with a badge's quote popover open: it fits the window, and reads in both schemes
                        page.focus(".answer a.badge.cite >> nth=-1")
                        page.wait_for_selector(".cite-popover")
                        check("quote popover", scheme, width, page)
    assert not problems, "\n".join(map(repr, problems))


def test_the_checks_catch_what_they_look_for(chromium_path, live_server, personas):
    """A page made to scroll sideways and to break a serious axe rule fails both checks."""
    with open_page(chromium_path, viewport={"width": PHONE, "height": 800}) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        assert overflow(page) is None
        assert serious_violations(page) == []
        page.evaluate(
            """() => {
              const wide = document.createElement('div');
              wide.className = 'made-wide';
              wide.style.width = '600px';
              wide.textContent = 'wide';
              document.querySelector('main').append(wide);
              document.querySelector('input[name=username]').closest('label').replaceWith(
                  Object.assign(document.createElement('input'), {type: 'text', name: 'unlabelled'}));
            }"""
        )
        wide = overflow(page)
        assert wide and wide["scrollWidth"] > PHONE and any("made-wide" in c for c in wide["culprits"]), wide
        assert "label" in {v["id"] for v in serious_violations(page)}
