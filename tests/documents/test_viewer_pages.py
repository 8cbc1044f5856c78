"""Bounded rendering (issue 14): the viewer shows one stored page of a long document, drawn by the worker from the
parse that made its chunks, and never parses the original file in the web process; a document that is not READY
has no viewer and no preview."""

from __future__ import annotations

import io
import re
import zlib

import lxml.html
import openpyxl
import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk, Document, DocumentStatus
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.rendering import render_reading
from apps.documents.rendering.pages import PAGE_UNITS

HEADER = ["id", "site", "species", "count"]


def workbook(rows: int) -> bytes:
    """A one-sheet workbook, written as a big export is: a header row, then `rows` rows whose first cell is its
    own number (so a chunk's text says which spreadsheet rows it holds: row = id + 2)."""
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Counts")
    sheet.append(HEADER)
    for i in range(rows):
        sheet.append([i, f"site {i % 97}", f"species {i % 13}", i % 50])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def sheet_rows(text: str) -> list[int]:
    """The spreadsheet rows a chunk of `workbook` holds."""
    return [1 if line.startswith("id |") else int(line.split(" | ")[0]) + 2 for line in text.split("\n")]


def article(body: str):
    return lxml.html.fromstring(body).get_element_by_id("doc-viewer")


def drawn_rows(root) -> list[int]:
    return [int(tr.get("data-row")) for tr in root.iter("tr") if tr.get("data-row")]


# ---- the pages themselves, as the worker draws them ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["xlsx", "txt"])
def test_every_chunk_is_whole_on_its_page_and_no_page_is_long(kind):
    # given a long workbook, or a long text file of many short paragraphs and one very long one
    if kind == "xlsx":
        data, name = workbook(6000), "counts.xlsx"
    else:
        paragraphs = [f"Line {n} of paragraph {p} about reed warblers." for p in range(900) for n in range(3)]
        long_one = "\n".join(f"Long line {n} tells of the shore at dawn." for n in range(3000))
        text = "\n\n".join("\n".join(paragraphs[k : k + 3]) for k in range(0, len(paragraphs), 3))
        data, name = (text + "\n\n" + long_one + "\n").encode(), "notes.txt"
    parsed = parse_document(data, name)
    drafts = chunk_document(parsed)
    # when the worker draws its pages
    rendered = render_reading(parsed, data, drafts)
    # then there are many pages, each a run of whole chunks, none far over the budget
    assert len(rendered.pages) > 10
    assert rendered.ranges[0][0] == 0 and rendered.ranges[-1][1] == len(drafts) - 1
    for (_, last), (first, _) in zip(rendered.ranges, rendered.ranges[1:], strict=False):
        assert first == last + 1
    for number, page in enumerate(rendered.pages):
        root = lxml.html.fragment_fromstring(zlib.decompress(page).decode(), create_parent="div")
        units = root.xpath(".//*[@data-unit]")
        assert len(units) <= PAGE_UNITS + 60, number
        first, last = rendered.ranges[number]
        for draft in drafts[first : last + 1]:
            if kind == "xlsx":
                assert set(sheet_rows(draft.text)) <= set(drawn_rows(root)), (number, draft.chunk_index)
            else:
                lines = {int(el.get("data-line")) for el in units}
                wanted = range(draft.line_start, draft.line_end + 1)
                if draft.piece is None:  # a chunk of whole paragraphs: all its lines are on its page
                    assert all(n in lines for n in wanted if n in _text_lines(data)), draft.chunk_index
                else:  # a piece of the long paragraph: its first words are on its page
                    assert " ".join(draft.text.split()[:4]) in " ".join(root.text_content().split())


def _text_lines(data: bytes) -> set[int]:
    return {n for n, line in enumerate(data.decode().split("\n"), start=1) if line.strip()}


# ---- through the worker: a long workbook ---------------------------------------------------------------------------


@pytest.fixture
def ingested(personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest):
    def run(name: str, content: bytes) -> Document:
        client = api_client_for("editor")
        done = wait_for_ingest(client, api_upload(client, name, content)["id"], timeout=600)
        assert done["status"] == "ready", done["error"]
        return Document.objects.get(pk=done["id"])

    return run


ROWS = 4_000  # about 10 pages of 400 rows (embedding is what takes time); bench/render measures 200,000 rows


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_long_workbook_opens_at_the_page_of_a_far_citation_without_parsing_in_the_web_process(
    ingested, page_client_for, monkeypatch
):
    # given a long workbook read by the real worker
    document = ingested("counts.xlsx", workbook(ROWS))
    chunks = list(Chunk.objects.filter(document=document).order_by("chunk_index"))
    assert len(chunks) > 50
    far = chunks[-5]

    # and a web process in which parsing any file fails
    def no_parsing(*args, **kwargs):
        raise AssertionError("the web process parsed a file")

    from apps.documents.parsing import registry

    monkeypatch.setattr(registry, "parse_document", no_parsing)
    monkeypatch.setattr(registry, "parser_for", no_parsing)
    monkeypatch.setattr("apps.documents.rendering.parse_document", no_parsing)

    # when a citation of a chunk near the end is opened
    client = page_client_for("viewer")
    response = client.get(viewer_url(document.pk, far.chunk_index))

    # then the page is the one that holds it: a bounded number of rows, the cited ones among them
    assert response.status_code == 200
    body = response.content.decode()
    root = article(body)
    rows = drawn_rows(root)
    assert len(rows) <= PAGE_UNITS + 60
    assert set(sheet_rows(far.text)) <= set(rows)
    assert 1 not in rows  # not the first page: the header row is far away
    # the page says which chunks it holds, so the viewer highlights the cited one here (viewer-doc.js)
    place = re.search(r"page (\d+) of (\d+)", body)
    number, count = int(place[1]), int(place[2])
    assert count >= ROWS // PAGE_UNITS - 5 and number > count - 3
    assert 'id="viewer-page"' in body and "doc-section-label" in body  # "Sheet “Counts” (continued)"

    # and the previous page, from its link, holds the rows just before, without the cited ones
    previous = lxml.html.fromstring(body).find_class("pager-previous")[0].get("href")
    assert f"chunk={far.chunk_index}" in previous and f"page={number - 1}" in previous
    before = drawn_rows(article(client.get(reverse("document-viewer", args=[document.pk]) + previous).content))
    assert max(before) < min(rows) and not set(sheet_rows(far.text)) & set(before)

    # and the first chunk opens the first page, header row first
    first = drawn_rows(article(client.get(viewer_url(document.pk, 0)).content))
    assert first[0] == 1 and set(sheet_rows(chunks[0].text)) <= set(first)


# ---- no viewer for a document that is not ready --------------------------------------------------------------------


def _document(collection, status: str) -> Document:
    document = Document(
        collection=collection,
        original_name=f"{status}.md",
        doc_type="md",
        status=status,
        sha256=status[0] * 64,
        error="It could not be read." if status == DocumentStatus.FAILED else "",
    )
    document.file.save(f"{status}.md", ContentFile(b"# Memo\n\nThe lab moves on Monday.\n"), save=False)
    document.save()
    # passages of an earlier reading (a document being read again keeps them until the new ones are in)
    Chunk.objects.create(document=document, chunk_index=0, text="The lab moves on Monday.", line_start=3, line_end=3)
    return document


@pytest.mark.django_db
@pytest.mark.parametrize("status", [DocumentStatus.PENDING, DocumentStatus.PROCESSING, DocumentStatus.FAILED])
def test_a_document_that_is_not_ready_has_no_viewer_and_no_preview(
    collection, personas, page_client_for, api_client_for, status
):
    document = _document(collection, status)
    response = page_client_for("viewer").get(viewer_url(document.pk, 0))
    assert response.status_code == 404
    body = response.content.decode()
    assert "not ready" in body or "could not be read" in body
    assert "The lab moves on Monday." not in body and 'id="doc-viewer"' not in body
    assert reverse("document-detail", args=[document.pk]) in body
    preview = api_client_for("viewer").get(reverse("api-document-preview", args=[document.pk]) + "?chunk_index=0")
    assert preview.status_code == 404 and "The lab moves" not in preview.content.decode()
    # an outsider learns nothing more than for any other document
    assert page_client_for("outsider").get(viewer_url(document.pk, 0)).status_code == 404
    assert "not ready" not in page_client_for("outsider").get(viewer_url(document.pk, 0)).content.decode()


@pytest.mark.django_db
def test_a_ready_document_without_stored_pages_is_drawn_once_then_read_from_its_pages(
    collection, personas, page_client_for, monkeypatch
):
    # given a ready document stored before the worker kept pages (the view draws it, bounded, and stores it)
    document = _document(collection, DocumentStatus.READY)
    client = page_client_for("viewer")
    assert "The lab moves on Monday." in article(client.get(viewer_url(document.pk, 0)).content).text_content()

    # when parsing is no longer possible in the web process, and the cache is away, the next view still shows it:
    # from the stored pages, not from a cached copy
    def no_parsing(*args, **kwargs):
        raise AssertionError("the web process parsed a file")

    def refuse(*args, **kwargs):
        raise ConnectionError("the cache is away")

    from apps.documents.parsing import registry
    from portal import soft_cache

    monkeypatch.setattr(registry, "parse_document", no_parsing)
    monkeypatch.setattr(registry, "parser_for", no_parsing)
    monkeypatch.setattr(soft_cache.cache, "get", refuse)
    monkeypatch.setattr(soft_cache.cache, "set", refuse)
    monkeypatch.setattr("apps.documents.rendering.parse_document", no_parsing)
    response = client.get(viewer_url(document.pk, 0))
    assert response.status_code == 200 and "The lab moves on Monday." in article(response.content).text_content()


# ---- a PDF citation's quote: PyMuPDF opens a bounded number of pages ---------------------------------------------


def test_placing_a_quote_opens_no_more_than_a_few_pages(tmp_path):
    import pymupdf

    from apps.documents.quote_places import MAX_PAGES, quote_rects

    # given a PDF with one sentence on each of eight pages, and a locator whose rectangles name every page
    pdf = pymupdf.open()
    said = [f"Sentence number {n} tells of the reed warblers on page {n}." for n in range(1, 9)]
    for sentence in said:
        pdf.new_page().insert_text((72, 100), sentence, fontsize=11)
    path = tmp_path / "eight.pdf"
    pdf.save(path)
    rects = [{"page": n, "x0": 0, "y0": 0, "x1": 595, "y1": 842} for n in range(1, 9)]
    # when the quote of all eight sentences is placed
    boxes = quote_rects(str(path), rects, " ".join(said))
    # then only the first pages were searched (a chunk spans two pages at most)
    assert boxes and {box["page"] for box in boxes} == set(range(1, MAX_PAGES + 1))


@pytest.mark.django_db(transaction=True)
def test_deleting_a_document_deletes_its_stored_pages(collection, personas, page_client_for):
    from apps.documents.rendering.store import load_index
    from apps.documents.services.documents import document_delete

    # given a document whose pages the viewer stored
    document = _document(collection, DocumentStatus.READY)
    assert page_client_for("viewer").get(viewer_url(document.pk, 0)).status_code == 200
    storage, folder = document.file.storage, f"renders/{document.pk}"
    assert load_index(document) is not None
    # when it is deleted, its pages go with its file
    document_delete(document=Document.objects.get(pk=document.pk))
    assert load_index(document) is None
    assert not any(storage.listdir(f"{folder}/{sub}")[1] for sub in storage.listdir(folder)[0])
