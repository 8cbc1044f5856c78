"""A citation of a table row, in the PDF viewer, in the system Chromium (issue 16): the worker reads a landscape
statistics table turned with /Rotate 90; an answer cites one state's row; the citation and the preview carry one box
per row of the passage, and the viewer, opened from the citation, boxes that row's cells and nothing of the rows
beside it, on PDF.js's text layer of the turned page."""

from __future__ import annotations

import os
from difflib import SequenceMatcher

import pytest
from django.urls import reverse

import tests.test_browser_viewer_pdf as pdf_viewer
from apps.documents.locators import viewer_url
from apps.documents.models import Chunk
from tests.citations.cited_answer import cited_message
from tests.test_browser import _log_in
from tests.test_browser_viewer_pdf import _norm
from tests.test_browser_viewer_pdf_quote import UNDER_THE_QUOTE

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

page = pdf_viewer.page
ingest = pdf_viewer.ingest


def test_a_cited_table_row_is_boxed_cell_by_cell_in_the_viewer(
    page, live_server, ingest, shared_corpus, personas, api_client_for
):
    # given the NICS table read by the worker, and an answer of vic's citing Alaska's row
    paper = shared_corpus / "pdf-varied" / "odd_rotated_nics_firearm_checks_2015-11.pdf"
    document = ingest(paper.name, paper.read_bytes())
    chunk = next(
        c
        for c in Chunk.objects.filter(document=document, chunk_type="table").order_by("chunk_index")
        if any(row.startswith("Alaska | ") for row in c.text.split("\n"))
    )
    rows = chunk.text.split("\n")
    row = next(r for r in rows if r.startswith("Alaska | "))
    neighbours = [r for r in rows if r != row and r.split(" | ")[0] in ("Alabama", "Arizona")]
    message = cited_message(personas["viewer"], [(chunk, row)])
    citation = message.result["citations"][0]

    # then the citation and the preview carry the passage's row boxes, one per row, on the page as stored
    assert citation["chunk_type"] == "table" and citation["locator_precision"] == "bbox"
    assert len(citation["rects"]) == len(rows) and {r["page"] for r in citation["rects"]} == {1}
    preview = api_client_for("viewer").get(
        reverse("api-document-preview", kwargs={"document_id": document.pk}), {"chunk_index": chunk.chunk_index}
    )
    assert preview.status_code == 200
    target = next(c for c in preview.json()["chunks"] if c["is_target"])
    assert target["metadata"]["rects"] == citation["rects"]

    # when vic opens the citation
    _log_in(page, live_server, "vic", "pw-vic")
    page.wait_for_selector("text=Lab notes")
    page.goto(live_server.url + viewer_url(document.pk, chunk.chunk_index, message.pk, 1))
    page.wait_for_function("window.portalViewer !== undefined")
    page.evaluate("() => window.portalViewer.ready")
    page.evaluate("() => window.portalViewer.idle()")

    # then each filled cell of the row has its box, and the boxes hold the row's cells and nothing else
    cells = [c for c in row.split(" | ") if c]
    quotes = page.evaluate("() => window.portalViewer.quotes()")
    assert len(quotes) == len(cells) and {q["page"] for q in quotes} == {1}
    held = [_norm(text) for text in page.evaluate(UNDER_THE_QUOTE, 1)]
    assert all(held), held
    wanted = _norm(row)
    got = "".join(held)
    matched = sum(b.size for b in SequenceMatcher(None, got, wanted, autojunk=False).get_matching_blocks())
    assert matched / len(wanted) >= 0.9 and matched / len(got) >= 0.9, (got, wanted)
    assert held[0] == "alaska"
    for other in neighbours:
        assert _norm(other.split(" | ")[0]) not in got
