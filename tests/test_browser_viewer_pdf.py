"""The PDF viewer in the system Chromium, against a live server and the real worker, on real papers.

Opened at a chunk as a citation's link opens it, the viewer shows the cited page and draws the chunk's rectangles
over the words of the passage: checked geometrically against PDF.js's own text layer (the spans users select),
before and after zooming, on both pages of a passage that crosses a page break, on pages that are rotated or
cropped, and again after a neighbouring passage is chosen in the side panel.
"""

from __future__ import annotations

import os
import re
import unicodedata
from itertools import pairwise
from pathlib import Path

import pytest
from django.db.models import F

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk, Document
from tests.browser import open_page
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]
# A test artefact (docs/viewer-pdf.png is refreshed from it by hand when the page changes).
SCREENSHOT = Path(os.environ.get("PORTAL_TEST_ARTIFACTS", ROOT / "var" / "test" / "artifacts")) / "viewer-pdf.png"
DEVICE_PIXEL_RATIO = 2  # a high-DPI screen: canvases must have two pixels per CSS pixel
# A point inside the span's first long word (on its third letter), in viewport pixels.
INSIDE_A_WORD = """span => {
    const text = span.firstChild, match = /[A-Za-z]{6,}/.exec(text.data), range = document.createRange();
    range.setStart(text, match.index + 2);
    range.setEnd(text, match.index + 3);
    const box = range.getBoundingClientRect();
    return {x: box.x + box.width / 2, y: box.y + box.height / 2};
}"""


@pytest.fixture
def page(chromium_path):
    options = {"viewport": {"width": 1280, "height": 900}, "device_scale_factor": DEVICE_PIXEL_RATIO}
    with open_page(chromium_path, timeout_ms=30_000, **options) as page:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page
    assert not errors, errors


@pytest.fixture
def ingest(personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest):
    """Upload a PDF as the editor and let the real worker read it; returns the Document."""

    def run(name: str, content: bytes) -> Document:
        client = api_client_for("editor")
        done = wait_for_ingest(client, api_upload(client, name, content)["id"], timeout=240)
        assert done["status"] == "ready", done.get("error")
        return Document.objects.get(pk=done["id"])

    return run


def _open_viewer(page, live_server, chunk: Chunk, *, log_in: bool = True) -> None:
    if log_in:
        _log_in(page, live_server, "vic", "pw-vic")
        page.wait_for_selector("text=Lab notes")
    page.goto(live_server.url + viewer_url(chunk.document_id, chunk.chunk_index))  # as a hit or a citation links
    page.wait_for_function("window.portalViewer !== undefined")
    page.evaluate("() => window.portalViewer.ready")
    assert page.get_attribute("#pdf-viewer", "data-state") == "ready"


def _bbox_chunks(document: Document):
    return document.chunks.filter(locator_precision="bbox", weight__gt=0).order_by("chunk_index")


def _norm(text: str) -> str:
    """Letters and digits only: PyMuPDF and PDF.js split lines, hyphens, ligatures and spaces differently."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


def _overlap(a: dict, b: dict) -> float:
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(width, 0) * max(height, 0)


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _holds(box: dict, span: dict) -> bool:
    """The span's centre lies in the box: the span is highlighted."""
    x, y = _centre(span)
    return box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]


def _page_boxes(page, number: int) -> tuple[list[dict], list[dict], int]:
    """The highlight boxes (Playwright's boundingBox, in the order of the chunk's rectangles), the text-layer spans
    of one page, in viewport pixels, and the page's rotation."""
    highlights = [mark.bounding_box() for mark in page.locator(f".pdf-highlight[data-page='{number}']").all()]
    layer = page.locator(f".pdf-page[data-page='{number}'] .textLayer")
    spans = layer.locator("span:not(.markedContent)").evaluate_all(
        """spans => spans.map(span => {
            const box = span.getBoundingClientRect();
            return {text: span.textContent, x: box.x, y: box.y, width: box.width, height: box.height};
        })"""
    )
    spans = [span for span in spans if _norm(span["text"]) and span["width"] and span["height"]]
    return highlights, spans, int(layer.get_attribute("data-main-rotation") or 0)


def _edge_line(box: dict, spans: list[dict], rotation: int, *, last: bool) -> str:
    """The text of the first (or last) line of the spans highlighted by one box, as the page is read: on a page
    turned by 90 degrees the lines run down the screen and follow each other from right to left."""

    def frame(span: dict) -> tuple[float, float, float]:  # along the line, across the lines, line thickness
        x, y = _centre(span)
        return {
            90: (y, -x, span["width"]),
            180: (-x, -y, span["height"]),
            270: (-y, x, span["width"]),
        }.get(rotation, (x, y, span["height"]))

    held = [(*frame(span), span["text"]) for span in spans if _holds(box, span)]
    if not held:
        return ""
    thickness = sorted(h[2] for h in held)[len(held) // 2]
    edge = (max if last else min)(h[1] for h in held)
    return _norm("".join(h[3] for h in sorted(h for h in held if abs(h[1] - edge) <= thickness / 2)))


def _assert_highlights_hold_the_passage(page, chunk: Chunk) -> None:
    """The highlight boxes lie on the text-layer spans that hold the chunk's words, and only on those: the
    passage's first line is the first highlighted line and its last line the last one (a box one line off fails
    here), and what the boxes hold is, as a whole, the passage."""
    passage = _norm(chunk.text)
    pages = sorted({rect["page"] for rect in chunk.locator["rects"]})
    rendered = page.evaluate("() => window.portalViewer.rendered()")
    assert set(pages) <= set(rendered), (pages, rendered)
    boxes = on_passage = inside = inside_in_passage = 0
    for number in pages:
        highlights, spans, rotation = _page_boxes(page, number)
        assert highlights, f"no highlight on page {number}"
        assert spans, f"no text layer on page {number}"
        # (a box over a table cell holding only "—" has no line to speak of: the next box in is used)
        if number == pages[0]:
            first = next(filter(None, (_edge_line(box, spans, rotation, last=False) for box in highlights)), "")
            assert first and 0 <= passage.find(first[:12]) <= 3, ("first line", first, passage[:60])
        if number == pages[-1]:
            last = next(filter(None, (_edge_line(box, spans, rotation, last=True) for box in highlights[::-1])), "")
            assert last and passage.rfind(last[-12:]) + len(last[-12:]) >= len(passage) - 3, (
                "last line",
                last,
                passage[-60:],
            )
        for box in highlights:
            boxes += 1
            on_passage += any(_overlap(box, s) > 0 and _norm(s["text"]) in passage for s in spans)
        for span in spans:
            if any(_holds(box, span) for box in highlights):
                inside += len(_norm(span["text"]))
                inside_in_passage += len(_norm(span["text"])) * (_norm(span["text"]) in passage)
    # most boxes sit on words of the passage
    assert on_passage / boxes >= 0.8, (on_passage, boxes)
    # what is highlighted is the passage ...
    assert inside and inside_in_passage / inside >= 0.9, (inside_in_passage, inside)
    # ... and nearly all of it
    assert inside_in_passage / len(passage) >= 0.85, (inside_in_passage, len(passage))


def _in_view(page, number: int) -> bool:
    return page.evaluate(
        """number => {
            const view = document.querySelector('.pdf-pages').getBoundingClientRect();
            const mark = document.querySelector(`.pdf-highlight[data-page="${number}"]`)
                || document.querySelector(`.pdf-page[data-page="${number}"]`);
            const box = mark.getBoundingClientRect();
            return box.bottom > view.top && box.top < view.bottom;
        }""",
        number,
    )


def test_a_citation_opens_the_cited_page_with_the_passage_highlighted_at_any_zoom(
    page, live_server, ingest, shared_corpus
):
    # given the pdf.js demo paper (14 pages), read by the worker, and a body passage well inside it
    paper = shared_corpus / "sci-pdf-other" / "pdfjs_tracemonkey.pdf"
    document = ingest(paper.name, paper.read_bytes())
    chunk = next(c for c in _bbox_chunks(document) if c.page >= 5 and c.page == c.page_end and len(c.text) > 300)
    file_responses = []
    page.on("response", lambda r: file_responses.append(r.status) if "/file" in r.url else None)

    # when it is opened as a citation's link opens it
    _open_viewer(page, live_server, chunk)

    # then the PDF came in byte ranges from the file endpoint
    assert 206 in file_responses, file_responses
    # and the cited page is on screen, drawn sharp for the screen, with the passage highlighted over its words
    assert page.evaluate("() => window.portalViewer.pageCount") == 14
    assert _in_view(page, chunk.page)
    rendered = page.evaluate("() => window.portalViewer.rendered()")
    assert chunk.page in rendered and len(rendered) <= 4, rendered  # only pages near the view are drawn
    canvas = page.locator(f".pdf-page[data-page='{chunk.page}'] canvas")
    css_width = canvas.bounding_box()["width"]
    assert canvas.evaluate("c => c.width") == pytest.approx(css_width * DEVICE_PIXEL_RATIO, abs=2)
    _assert_highlights_hold_the_passage(page, chunk)
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), scale="css")  # one pixel per CSS pixel keeps the file small

    # and after zooming in twice with the toolbar, the boxes grew with the page and still hold the passage
    before = page.evaluate("() => [window.portalViewer.scale, window.portalViewer.highlights()[0].width]")
    page.click("[data-zoom=in]")
    page.click("[data-zoom=in]")
    page.wait_for_function(f"window.portalViewer.scale > {before[0] * 1.2}")
    page.evaluate("() => window.portalViewer.idle()")
    after = page.evaluate("() => [window.portalViewer.scale, window.portalViewer.highlights()[0].width]")
    assert after[1] / before[1] == pytest.approx(after[0] / before[0], rel=0.02)
    assert _in_view(page, chunk.page)  # the zoom kept the place
    _assert_highlights_hold_the_passage(page, chunk)

    # and zoomed out below the fit width, too
    page.evaluate("() => window.portalViewer.zoom(0.6)")
    page.evaluate("() => window.portalViewer.idle()")
    _assert_highlights_hold_the_passage(page, chunk)

    # and a reader can select the passage's words: a drag from inside a word to the end of the line
    line = page.locator(f".pdf-page[data-page='{chunk.page}'] .textLayer span:not(.markedContent)")
    line = line.filter(has_text=re.compile(r"[A-Za-z]{6,}")).first
    line.scroll_into_view_if_needed()
    word, end = line.evaluate(INSIDE_A_WORD), line.bounding_box()
    # Whole pixels, as a mouse reports them: Chromium starts no drag selection from a press at a fractional point.
    page.mouse.move(round(word["x"]), round(word["y"]))
    page.mouse.down()
    page.mouse.move(round(end["x"] + end["width"] - 1), round(word["y"]), steps=10)
    page.mouse.up()
    selected = _norm(page.evaluate("() => document.getSelection().toString()"))
    assert len(selected) >= 6 and selected in _norm(line.inner_text()), (selected, line.inner_text())


def test_a_passage_that_crosses_a_page_break_is_highlighted_on_both_pages(page, live_server, ingest, shared_corpus):
    # given a paper with a body passage that starts at the foot of one page and ends on the next
    paper = shared_corpus / "sci-pdf-jats" / "papers" / "hindawi-PMC4736773" / "paper.pdf"
    document = ingest("hindawi-PMC4736773.pdf", paper.read_bytes())
    chunk = next(
        c
        for c in _bbox_chunks(document).filter(page_end__gt=F("page"))
        if {r["page"] for r in c.locator["rects"]} == {c.page, c.page_end}
    )

    # when it is opened
    _open_viewer(page, live_server, chunk)

    # then both pages carry highlights over the passage's words
    assert {box["page"] for box in page.evaluate("() => window.portalViewer.highlights()")} == {
        chunk.page,
        chunk.page_end,
    }
    assert _in_view(page, chunk.page)
    _assert_highlights_hold_the_passage(page, chunk)


def test_choosing_a_neighbour_in_the_side_panel_moves_the_highlight(page, live_server, ingest, shared_corpus):
    # given a paper open at one passage, its neighbours listed in the side panel
    paper = shared_corpus / "sci-pdf-jats" / "papers" / "hindawi-PMC4736773" / "paper.pdf"
    document = ingest("hindawi-PMC4736773.pdf", paper.read_bytes())
    chunks = list(_bbox_chunks(document))
    first, neighbour = next((a, b) for a, b in pairwise(chunks) if b.chunk_index == a.chunk_index + 1 and a.page >= 2)
    _open_viewer(page, live_server, first)
    _assert_highlights_hold_the_passage(page, first)
    before = page.evaluate("() => (window.before = JSON.stringify(window.portalViewer.highlights()))")

    # when the next passage is clicked in the panel
    page.click(f".panel-chunk[data-chunk-index='{neighbour.chunk_index}']")

    # then the address names it and the highlight has moved onto its words
    page.wait_for_url(re.compile(rf"[?&]chunk={neighbour.chunk_index}(&|$)"))
    page.wait_for_function("JSON.stringify(window.portalViewer.highlights()) !== window.before")
    page.evaluate("() => window.portalViewer.idle()")
    assert page.evaluate("() => JSON.stringify(window.portalViewer.highlights())") != before
    assert "is-target" in page.get_attribute(f".panel-chunk[data-chunk-index='{neighbour.chunk_index}']", "class")
    _assert_highlights_hold_the_passage(page, neighbour)


def _turned_and_cropped(paper: Path) -> bytes:
    """The paper with page 2 cropped and turned a quarter clockwise, page 3 upside down and page 4 cropped and
    turned a quarter anticlockwise: the parser's boxes are in the unrotated, cropped page, the viewer's in the
    page as shown."""
    import pymupdf

    doc = pymupdf.open(paper)
    try:
        for number, rotation, (left, top, right, bottom) in (
            (2, 90, (20, 30, 10, 15)),
            (3, 180, (0, 0, 0, 0)),
            (4, 270, (25, 40, 15, 20)),
        ):
            page = doc[number - 1]
            box = page.rect
            page.set_cropbox(pymupdf.Rect(box.x0 + left, box.y0 + top, box.x1 - right, box.y1 - bottom))
            page.set_rotation(rotation)
        return doc.tobytes()
    finally:
        doc.close()


def test_highlights_land_on_the_words_of_rotated_and_cropped_pages(page, live_server, ingest, shared_corpus):
    # given a real paper whose pages 2 to 4 are turned and cropped
    paper = shared_corpus / "sci-pdf-jats" / "papers" / "hindawi-PMC4736773" / "paper.pdf"
    document = ingest("turned.pdf", _turned_and_cropped(paper))
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    for number in (2, 3, 4):
        chunk = max(
            (c for c in _bbox_chunks(document) if {r["page"] for r in c.locator["rects"]} == {number}),
            key=lambda c: len(c.text),
        )

        # when a passage on that page is opened
        _open_viewer(page, live_server, chunk, log_in=False)

        # then its boxes lie on its words, as shown (turned), at the fit width and zoomed in
        assert _in_view(page, number)
        _assert_highlights_hold_the_passage(page, chunk)
        page.evaluate("() => window.portalViewer.zoom(2)")
        page.evaluate("() => window.portalViewer.idle()")
        _assert_highlights_hold_the_passage(page, chunk)
