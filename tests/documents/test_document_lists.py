"""A collection's document list: sort, filter and pages, on the collection page (with and without htmx) and in
the API; and the queue position of queued uploads. Every path takes the collection through the access helper."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from apps.documents.models import Document, DocumentStatus, IngestJob, JobStage
from portal import heartbeat

pytestmark = pytest.mark.django_db

# (file name, title, year, type, status)
ROWS = [
    ("zebra.pdf", "Zebra stripes", 2019, "pdf", DocumentStatus.READY),
    ("apple.docx", "apple orchards", 2021, "docx", DocumentStatus.READY),
    ("notes.txt", "", None, "txt", DocumentStatus.FAILED),
    ("mango.md", "Mango trade", 2005, "md", DocumentStatus.PENDING),
]


def _document(collection, name, title, year, doc_type, status, n):
    doc = Document(
        collection=collection,
        original_name=name,
        title=title,
        year=year,
        doc_type=doc_type,
        size=1,
        sha256=f"{n:064x}",
        status=status,
    )
    doc.file.save(name, ContentFile(b"x"), save=False)
    doc.save()
    return doc


@pytest.fixture
def shelf(collection, personas):
    """Four documents of `lab`, added in ROWS order."""
    return [_document(collection, *row, n) for n, row in enumerate(ROWS)]


def _api_names(client, **params):
    response = client.get(reverse("api-document-list"), {"collection": "lab", **params})
    assert response.status_code == 200, response.content
    return [row["original_name"] for row in response.json()["results"]]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("", ["mango.md", "notes.txt", "apple.docx", "zebra.pdf"]),  # newest first, as before
        ("added", ["zebra.pdf", "apple.docx", "notes.txt", "mango.md"]),
        ("title", ["apple.docx", "mango.md", "notes.txt", "zebra.pdf"]),  # the shown title, any case
        ("-title", ["zebra.pdf", "notes.txt", "mango.md", "apple.docx"]),
        ("year", ["mango.md", "zebra.pdf", "apple.docx", "notes.txt"]),  # no year last
        ("-year", ["apple.docx", "zebra.pdf", "mango.md", "notes.txt"]),
        ("status", ["notes.txt", "mango.md", "apple.docx", "zebra.pdf"]),  # failed, pending, ready
    ],
)
def test_the_api_sorts_the_list(api_client_for, shelf, sort, expected):
    params = {"sort": sort} if sort else {}
    assert _api_names(api_client_for("viewer"), **params) == expected


def test_the_api_filters_by_type_status_and_words(api_client_for, shelf):
    client = api_client_for("viewer")
    assert _api_names(client, doc_type="pdf") == ["zebra.pdf"]
    assert _api_names(client, status="ready", sort="title") == ["apple.docx", "zebra.pdf"]
    assert _api_names(client, q="ORCHARD") == ["apple.docx"]  # title words, any case
    assert _api_names(client, q="notes") == ["notes.txt"]  # file name
    bad = client.get(reverse("api-document-list"), {"collection": "lab", "sort": "size"})
    assert bad.status_code == 400 and "sort" in bad.json()["errors"]


def test_the_api_list_of_another_collection_is_not_found_for_an_outsider(api_client_for, shelf):
    response = api_client_for("outsider").get(reverse("api-document-list"), {"collection": "lab", "sort": "title"})
    assert response.status_code == 404


def test_the_collection_page_sorts_filters_and_keeps_the_query_in_its_links(page_client_for, shelf, monkeypatch):
    monkeypatch.setattr("apps.documents.views.collections.DOCUMENTS_PER_PAGE", 2)
    client = page_client_for("viewer")
    url = reverse("collection-detail", kwargs={"slug": "lab"})
    first = client.get(url, {"sort": "title"}).content.decode()
    # page 1 of 2 by title: apple, mango; the next page link keeps the sort
    assert first.index("apple orchards") < first.index("Mango trade") and "Zebra stripes" not in first
    assert f'href="{url}?sort=title&amp;page=2"' in first
    second = client.get(url, {"sort": "title", "page": 2}).content.decode()
    assert "Zebra stripes" in second and "apple orchards" not in second
    assert f'href="{url}?sort=title&amp;page=1"' in second
    filtered = client.get(url, {"doc_type": "md"}).content.decode()
    assert "Mango trade" in filtered and "Zebra stripes" not in filtered
    assert '<option value="md" selected>' in filtered  # the form shows what the list is filtered by


def test_the_collection_page_answers_htmx_with_the_list_in_it(page_client_for, shelf):
    client = page_client_for("viewer")
    url = reverse("collection-detail", kwargs={"slug": "lab"})
    html = client.get(url, {"q": "zebra"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="document-list"' in html and "Zebra stripes" in html and "Mango trade" not in html
    assert 'hx-select="#document-list"' in html


def test_a_bad_sort_on_the_page_falls_back_to_newest_first(page_client_for, shelf):
    html = page_client_for("viewer").get(reverse("collection-detail", kwargs={"slug": "lab"}), {"sort": "x"})
    assert html.status_code == 200
    text = html.content.decode()
    assert text.index("Mango trade") < text.index("Zebra stripes")


def test_the_collection_page_is_not_found_for_an_outsider_whatever_the_query(page_client_for, shelf):
    response = page_client_for("outsider").get(reverse("collection-detail", kwargs={"slug": "lab"}), {"sort": "title"})
    assert response.status_code == 404


# ---- queue position ----------------------------------------------------------------------------------------------
@pytest.fixture
def queue(collection, other_collection, personas):
    """Jobs in the order they were sent: one in `other` queued, one of `lab` already being read, then three of
    `lab` queued (the worker's queue is shared by every collection)."""
    other = _document(other_collection, "other.txt", "", None, "txt", DocumentStatus.PENDING, 10)
    IngestJob.objects.create(document=other)
    reading = _document(collection, "reading.txt", "", None, "txt", DocumentStatus.PENDING, 11)
    IngestJob.objects.create(document=reading, stage=JobStage.EMBED, done=1, total=4)
    waiting = []
    for n in range(3):
        doc = _document(collection, f"wait-{n}.txt", "", None, "txt", DocumentStatus.PENDING, 12 + n)
        IngestJob.objects.create(document=doc)
        waiting.append(doc)
    return {"reading": reading, "waiting": waiting}


def test_the_api_gives_each_queued_document_the_jobs_ahead_of_it(api_client_for, queue):
    client = api_client_for("viewer")
    rows = client.get(reverse("api-document-list"), {"collection": "lab", "sort": "added"}).json()["results"]
    ahead = {row["original_name"]: row["job"]["queued_ahead"] for row in rows}
    # the job being read is not queued; the other collection's queued job is ahead of lab's
    assert ahead == {"reading.txt": None, "wait-0.txt": 1, "wait-1.txt": 2, "wait-2.txt": 3}
    one = client.get(reverse("api-document-detail", kwargs={"document_id": queue["waiting"][2].pk})).json()
    assert one["job"]["queued_ahead"] == 3


def test_the_queue_moves_up_when_a_job_ahead_starts(api_client_for, queue):
    IngestJob.objects.filter(document=queue["waiting"][0]).update(stage=JobStage.PARSE)
    data = (
        api_client_for("viewer")
        .get(reverse("api-document-detail", kwargs={"document_id": queue["waiting"][2].pk}))
        .json()
    )
    assert data["job"]["queued_ahead"] == 2


def test_the_collection_row_says_how_many_are_ahead(page_client_for, queue, monkeypatch):
    monkeypatch.setattr(heartbeat, "ingestion_status", lambda queue=None: heartbeat.Ingestion(1, True))
    client = page_client_for("viewer")
    html = client.get(reverse("collection-detail", kwargs={"slug": "lab"})).content.decode()
    assert '<span class="stage">Queued</span><span class="queue-position">, 3 ahead of it' in html
    row = client.get(reverse("document-status", kwargs={"document_id": queue["waiting"][0].pk})).content.decode()
    assert ", 1 ahead of it" in row


def test_a_paused_queue_still_says_how_many_are_ahead(page_client_for, queue, monkeypatch):
    monkeypatch.setattr(heartbeat, "ingestion_status", lambda queue=None: heartbeat.Ingestion(0, True))
    html = page_client_for("viewer").get(reverse("collection-detail", kwargs={"slug": "lab"})).content.decode()
    assert 'no worker is running</span><span class="queue-position">, 3 ahead of it' in html


def test_the_page_lists_all_queued_rows_in_a_fixed_number_of_queries(
    page_client_for, queue, django_assert_max_num_queries
):
    client = page_client_for("viewer")
    url = reverse("collection-detail", kwargs={"slug": "lab"})
    client.get(url)  # warm: session, heartbeat cache
    # session, user, collection with role, count, page of documents, their jobs, the queue positions (one query)
    with django_assert_max_num_queries(7):
        client.get(url)
