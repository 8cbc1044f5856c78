"""A citation of a scanned page, in the PDF viewer, in the system Chromium, on a PDF read by the real worker.

The page has no text layer: its passage was recognised by OCR. The viewer opens on that page, highlights the
passage and boxes the cited sentence where the scan shows it (found from the recognised lines, not from a text
layer), and says that the text was recognised.
"""

from __future__ import annotations

import os
import re

import pymupdf
import pytest

import tests.test_browser_viewer_pdf as pdf_viewer
from apps.documents.locators import viewer_url
from apps.documents.models import Chunk
from tests.citations.cited_answer import cited_message
from tests.documents.scanned_pages import ENGLISH, with_scanned_second_page
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

page = pdf_viewer.page
ingest = pdf_viewer.ingest


def _in_points(page, box: dict, size: tuple[float, float]) -> pymupdf.Rect:
    """A box drawn on screen (viewport pixels) in the PDF page's own points."""
    frame = page.locator(f".pdf-page[data-page='{box['page']}'] canvas").first.bounding_box()
    sx, sy = size[0] / frame["width"], size[1] / frame["height"]
    x0, y0 = (box["x"] - frame["x"]) * sx, (box["y"] - frame["y"]) * sy
    return pymupdf.Rect(x0, y0, x0 + box["width"] * sx, y0 + box["height"] * sy)


def test_a_citation_of_a_scanned_page_opens_on_its_page_with_the_quote_boxed(page, live_server, ingest, personas):
    # given a PDF whose second page is a scan, read by the worker, and an answer citing one sentence of it
    data, original = with_scanned_second_page(ENGLISH, "helv")
    document = ingest("river-survey.pdf", data)
    chunk = next(c for c in Chunk.objects.filter(document=document, page_end=2) if "mill" in c.text)
    assert chunk.locator.get("ocr") and chunk.locator_precision == "bbox"
    cited = next(s for s in re.split(r"(?<=\.)\s+", chunk.text) if "mill" in s)
    message = cited_message(personas["viewer"], [(chunk, cited)])

    # when vic opens the citation
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(live_server.url + viewer_url(document.pk, chunk.chunk_index, message.pk, 1))
    page.wait_for_function("window.portalViewer !== undefined")
    page.evaluate("() => window.portalViewer.ready")
    page.evaluate("() => window.portalViewer.idle()")

    # then the viewer says the text was recognised, and the passage is highlighted on page 2
    assert "recognised by OCR" in page.inner_text(".ocr-note")
    highlights = page.evaluate("() => window.portalViewer.highlights()")
    assert highlights and 2 in {box["page"] for box in highlights}
    # and the quote is boxed on page 2, where the scan shows the sentence: the boxes lie on the sentence's words as
    # the original page printed them, inside the passage's highlight, and not on the other paragraph
    quotes = page.evaluate("() => window.portalViewer.quotes()")
    assert quotes and {box["page"] for box in quotes} == {2}
    size = (595.0, 842.0)
    with pymupdf.open(stream=original, filetype="pdf") as doc:
        truth = doc[0].search_for("Stations below the old mill were consistently warmer")
        elsewhere = doc[0].search_for("The survey team measured water temperature")
    boxes = [_in_points(page, box, size) for box in quotes]
    assert any(box.intersects(truth[0]) for box in boxes), (boxes, truth)
    covered = sum((box & truth[0]).get_area() for box in boxes if box.intersects(truth[0]))
    assert covered >= 0.6 * truth[0].get_area(), (boxes, truth)
    assert not any(box.intersects(rect) for box in boxes for rect in elsewhere)
    passage = [_in_points(page, box, size) for box in highlights if box["page"] == 2]
    for box in boxes:
        centre = pymupdf.Point((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
        assert any(centre in pymupdf.Rect(h.x0 - 2, h.y0 - 2, h.x1 + 2, h.y1 + 2) for h in passage)
