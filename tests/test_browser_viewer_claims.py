"""Two claims of one answer citing the same passage, in the system Chromium, on documents read by the real worker:
clicking the badge of each claim and then its card's link opens the viewer at the same passage, highlighted, with
that claim's own quote emphasised inside it (issue 15, "one quote per claim"): a real PDF (the quote's boxes on
PDF.js's text layer), a real DOCX and a Chinese DOCX (the quote's range in the rendered paragraphs)."""

from __future__ import annotations

import io
import os
import re

import docx
import pytest
from django.urls import reverse

import tests.test_browser_viewer_pdf as pdf_viewer
from apps.documents.models import Chunk, Document
from apps.documents.parsing.passage_text import sentences
from tests.test_browser import _log_in
from tests.test_browser_ask_quotes import stored_answer_over
from tests.test_browser_viewer_doc import GUIDE, _quoted
from tests.test_browser_viewer_pdf import _assert_highlights_hold_the_passage, _bbox_chunks
from tests.test_browser_viewer_pdf_quote import _assert_the_quote_is_emphasised

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# The PDF viewer tests' own fixtures: a high-DPI page that fails on script errors, and an upload read by the worker.
page = pdf_viewer.page
ingest = pdf_viewer.ingest

# A Chinese note: one passage of three paragraphs, two of whose sentences an answer cites for two claims.
ZH_PARAGRAPHS = [
    "阿尔德河自北向南流经里弗顿，全长约一百二十公里。",
    "里弗顿的防洪墙由工程师玛格丽特·黑尔设计，于1962年建成。防洪墙沿河修建，长约三公里。",
    "自防洪墙建成以来，低洼城区再也没有被洪水淹没过。每年春天，市政府都会检查防洪墙的状况。",
]


def _chinese_docx() -> bytes:
    document = docx.Document()
    document.add_heading("里弗顿的防洪墙", level=1)
    for paragraph in ZH_PARAGRAPHS:
        document.add_paragraph(paragraph)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _two_claims(user, chunk: Chunk, first: str, second: str, question: str):
    """The answer "first [1] second [1]" over `chunk`, finished and stored as the service does (per-claim quotes
    by finalize.claim_quote); returns the message and each claim's quote, which must differ and hold its claim."""
    mark = (lambda s: f"{s[:-1]} [1]{s[-1]}") if first[-1] in "。！？" else (lambda s: f"{s[:-1]} [1].")
    message = stored_answer_over(user, chunk, f"{mark(first)} {mark(second)}", question)
    rows = message.result["sentences"]
    assert [row["citations"] for row in rows] == [[1], [1]], rows
    quotes = [row["quotes"]["1"] for row in rows]
    assert first in quotes[0] and second not in quotes[0], quotes
    assert second in quotes[1] and first not in quotes[1], quotes
    return message, quotes


def _open_from_badge(page, live_server, message, claim: int) -> str:
    """On the answer's page, click claim `claim`'s badge, then its card's link; returns the quote the card showed."""
    page.goto(live_server.url + reverse("conversation-detail", args=[message.conversation_id]))
    badge = page.locator(f"#message-{message.pk} .answer [data-claim='{claim}'] a.badge.cite")
    assert badge.count() == 1
    badge.click()
    card = page.locator(f"#cite-{message.pk}-1")
    assert "is-active" in card.get_attribute("class")
    shown = card.locator(".card-quote").inner_text()
    card.locator("a.card-open").click()
    page.wait_for_url(re.compile(rf"/view/\?chunk=\d+&message={message.pk}&n=1&claim={claim}$"))
    return shown


def test_two_claims_citing_one_pdf_passage_each_open_it_with_their_own_quote(
    page, live_server, ingest, shared_corpus, personas
):
    # given an answer of vic's whose two claims are two sentences of one passage of the pdf.js paper
    paper = shared_corpus / "sci-pdf-other" / "pdfjs_tracemonkey.pdf"
    document = ingest(paper.name, paper.read_bytes())

    def prose(chunk: Chunk) -> list[str]:
        return [s for s in sentences(chunk.text) if len(s.split()) >= 8 and "[" not in s and s.endswith(".")]

    chunk = next(c for c in _bbox_chunks(document) if c.page >= 5 and c.page == c.page_end and len(prose(c)) >= 5)
    first, second = prose(chunk)[1], prose(chunk)[3]
    message, quotes = _two_claims(personas["viewer"], chunk, first, second, "What does the paper say about traces?")
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")

    for claim, (quote, other) in enumerate([(quotes[0], quotes[1]), (quotes[1], quotes[0])], start=1):
        # when vic clicks the badge of this claim and opens its card
        assert _open_from_badge(page, live_server, message, claim) == quote
        page.wait_for_function("window.portalViewer !== undefined")
        page.evaluate("() => window.portalViewer.ready")

        # then the same page opens with the passage highlighted and this claim's quote emphasised, not the other's
        assert page.inner_text(".cited-quote") == f"Cited for: “{quote}”"
        _assert_highlights_hold_the_passage(page, chunk)
        _assert_the_quote_is_emphasised(page, quote, [other])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_two_claims_citing_one_docx_passage_each_open_it_with_their_own_quote(
    page, live_server, ingest, personas, language
):
    # given an answer of vic's whose two claims are sentences of two paragraphs of one DOCX passage
    if language == "en":
        document = ingest(GUIDE.name, GUIDE.read_bytes())
        chunk = next(c for c in document.chunks.all() if c.text.startswith("Collections\n\n"))
        found = sentences(chunk.text)
        first = next(s for s in found if s.startswith("Every document lives"))
        second = found[-1]
        question = "Where do documents live, and what else does the guide say about collections?"
    else:
        document = ingest("riverton-zh.docx", _chinese_docx())
        chunk = next(c for c in document.chunks.all() if ZH_PARAGRAPHS[1][:10] in c.text)
        first, second = (
            "里弗顿的防洪墙由工程师玛格丽特·黑尔设计，于1962年建成。",
            "每年春天，市政府都会检查防洪墙的状况。",
        )
        question = "里弗顿的防洪墙是谁设计的，多久检查一次？"
    assert Document.objects.get(pk=document.pk).doc_type == "docx"
    message, quotes = _two_claims(personas["viewer"], chunk, first, second, question)
    blocks = [f"para-{pid}" for pid in chunk.locator["para_ids"]]
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")

    emphasised = []
    for claim, quote in enumerate(quotes, start=1):
        # when vic clicks the badge of this claim and opens its card
        assert _open_from_badge(page, live_server, message, claim) == quote
        page.wait_for_selector(f"#doc-viewer[data-highlighted='{chunk.chunk_index}']")

        # then the passage's paragraphs are highlighted and, within them, this claim's quote alone is emphasised
        highlighted = page.evaluate(
            "() => [...document.querySelectorAll('#doc-viewer .doc-highlight')].map(el => el.id)"
        )
        assert highlighted == blocks
        count, ranges = _quoted(page)
        assert count == "1" and len(ranges) == 1, ranges
        assert ranges[0]["text"] == quote and ranges[0]["block"] in blocks
        assert page.inner_text(".cited-quote") == f"Cited for: “{quote}”"
        emphasised.append(ranges[0]["block"])

    # and the two claims' quotes lie in two different paragraphs of the one passage
    assert emphasised[0] != emphasised[1]
