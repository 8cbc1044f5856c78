"""The quote a citation was made for, in the PDF viewer, in the system Chromium on a real paper read by the worker.

Opened from an answer, the viewer highlights the cited passage and, more strongly, the sentence it is cited for:
boxes the server found with PyMuPDF in the chunk rectangles' own coordinates, drawn through the same transform as
the passage's, so they lie on the quote's words in PDF.js's text layer at any zoom. Checked character by character
against that text layer, and against the passage's other sentences; choosing another passage drops the quote.
"""

from __future__ import annotations

import os
import re
from difflib import SequenceMatcher

import pytest

import tests.test_browser_viewer_pdf as pdf_viewer
from apps.documents.locators import viewer_url
from apps.documents.models import Chunk
from apps.documents.parsing.passage_text import sentences
from tests.citations.cited_answer import cited_message
from tests.test_browser import _log_in
from tests.test_browser_viewer_pdf import (
    _assert_highlights_hold_the_passage,
    _bbox_chunks,
    _norm,
    _overlap,
    _page_boxes,
)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# The PDF viewer tests' own fixtures: a high-DPI page that fails on script errors, and an upload read by the worker.
page = pdf_viewer.page
ingest = pdf_viewer.ingest

# The text-layer characters whose centre lies in one of the quote boxes of a page, box by box: what the quote's
# emphasis covers, as a reader sees it.
UNDER_THE_QUOTE = """number => {
    const page = document.querySelector(`.pdf-page[data-page="${number}"]`);
    const boxes = [...page.querySelectorAll('.pdf-quote')].map(mark => mark.getBoundingClientRect());
    const held = boxes.map(() => '');
    for (const span of page.querySelectorAll('.textLayer span:not(.markedContent)')) {
        const text = span.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) continue;
        for (let i = 0; i < text.data.length; i++) {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            const r = range.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
            const k = boxes.findIndex(b => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom);
            if (r.width && k >= 0) held[k] += text.data[i];
        }
    }
    return held;
}"""


def _quote_pages(page) -> list[int]:
    return sorted({box["page"] for box in page.evaluate("() => window.portalViewer.quotes()")})


def _assert_the_quote_is_emphasised(page, quote: str, far: list[str]) -> None:
    """The quote boxes lie on the text-layer characters of the quote, nearly all of them and little else, and on
    no span of the passage's sentences far from the quote."""
    wanted = _norm(quote)
    pages = _quote_pages(page)
    assert pages and set(pages) <= set(page.evaluate("() => window.portalViewer.rendered()")), pages
    held = [_norm(text) for number in pages for text in page.evaluate(UNDER_THE_QUOTE, number)]
    assert all(held), held  # every box holds words
    # (PDF.js places the characters of a span by its own font's widths: a letter may drift over a box's edge)
    matched = sum(
        block.size for block in SequenceMatcher(None, "".join(held), wanted, autojunk=False).get_matching_blocks()
    )
    assert matched / len(wanted) >= 0.9, ("quote covered", "".join(held), wanted)
    assert matched / len("".join(held)) >= 0.9, ("only the quote", "".join(held), wanted)
    for number in pages:
        quotes = [mark.bounding_box() for mark in page.locator(f".pdf-quote[data-page='{number}']").all()]
        _, spans, _ = _page_boxes(page, number)
        for sentence in far:
            theirs = [s for s in spans if len(_norm(s["text"])) >= 10 and _norm(s["text"]) in _norm(sentence)]
            theirs = [s for s in theirs if _norm(s["text"]) not in wanted]
            assert not any(_overlap(q, s) > 0 for q in quotes for s in theirs), (sentence, quote)


def _quote_in_view(page) -> bool:
    return page.evaluate(
        """() => {
            const view = document.querySelector('.pdf-pages').getBoundingClientRect();
            const box = document.querySelector('.pdf-quote').getBoundingClientRect();
            return box.top >= view.top && box.bottom <= view.bottom;
        }"""
    )


def test_a_citation_emphasises_its_quote_inside_the_passage_until_another_passage_is_chosen(
    page, live_server, ingest, shared_corpus, personas
):
    # given an answer of vic's that cites a long passage of the pdf.js paper for one sentence in its middle
    paper = shared_corpus / "sci-pdf-other" / "pdfjs_tracemonkey.pdf"
    document = ingest(paper.name, paper.read_bytes())

    def prose(chunk: Chunk) -> list[str]:
        return [s for s in sentences(chunk.text) if len(s.split()) >= 8 and "[" not in s]

    chunk = next(c for c in _bbox_chunks(document) if c.page >= 5 and c.page == c.page_end and len(prose(c)) >= 5)
    cited = prose(chunk)[2]
    message = cited_message(personas["viewer"], [(chunk, cited)])
    quote = message.result["citations"][0]["quote"]
    assert quote == cited
    far = [prose(chunk)[0], *prose(chunk)[4:]]

    # when vic opens the citation
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(live_server.url + viewer_url(document.pk, chunk.chunk_index, message.pk, 1))
    page.wait_for_function("window.portalViewer !== undefined")
    page.evaluate("() => window.portalViewer.ready")

    # then the head says what the passage is cited for, the passage is highlighted, and within it the quote more
    # strongly, in view
    assert page.inner_text(".cited-quote") == f"Cited for: “{quote}”"
    _assert_highlights_hold_the_passage(page, chunk)
    _assert_the_quote_is_emphasised(page, quote, far)
    assert _quote_in_view(page)
    colour = page.eval_on_selector(".pdf-quote", "mark => getComputedStyle(mark).backgroundColor")
    assert colour != page.eval_on_selector(".pdf-highlight", "mark => getComputedStyle(mark).backgroundColor")

    # and after zooming in twice, and out, the quote's boxes still lie on its words
    before = page.evaluate("() => window.portalViewer.scale")
    page.click("[data-zoom=in]")
    page.click("[data-zoom=in]")
    page.wait_for_function(f"window.portalViewer.scale > {before * 1.2}")
    page.evaluate("() => window.portalViewer.idle()")
    page.locator(".pdf-quote").first.scroll_into_view_if_needed()
    page.evaluate("() => window.portalViewer.idle()")
    _assert_the_quote_is_emphasised(page, quote, far)
    page.evaluate("() => window.portalViewer.zoom(0.6)")
    page.evaluate("() => window.portalViewer.idle()")
    _assert_the_quote_is_emphasised(page, quote, far)

    # when a neighbouring passage is chosen in the side panel, the quote's emphasis goes with the cited passage
    neighbour = next(c for c in _bbox_chunks(document) if 0 < abs(c.chunk_index - chunk.chunk_index) <= 2)
    page.click(f".panel-chunk[data-chunk-index='{neighbour.chunk_index}']")
    page.wait_for_url(re.compile(rf"[?&]chunk={neighbour.chunk_index}(&|$)"))
    page.wait_for_function("window.portalViewer.quotes().length === 0")
    page.evaluate("() => window.portalViewer.idle()")
    _assert_highlights_hold_the_passage(page, neighbour)
    # and comes back with it
    page.click(f".panel-chunk[data-chunk-index='{chunk.chunk_index}']")
    page.wait_for_function("window.portalViewer.quotes().length > 0")
    page.evaluate("() => window.portalViewer.idle()")
    _assert_the_quote_is_emphasised(page, quote, far)
