"""Search follows what the real worker does: ingests and deletes change results at once, through the API and its
cache, and the worker saves each collection's keyword index."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from apps.retrieval.models import IndexChange, KeywordSnapshot

pytestmark = pytest.mark.django_db(transaction=True)


def _sources(client, query: str) -> tuple[list[str], bool]:
    response = client.get(reverse("api-search"), {"q": query, "collection": "lab", "mode": "keyword"})
    assert response.status_code == 200, response.content
    data = response.json()
    return [hit["source"] for hit in data["results"]], data["diagnostics"]["cached"]  # told to staff only


def test_ingest_and_delete_clear_the_cache_and_the_worker_saves_the_index(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest, collection, personas
):
    personas["editor"].is_staff = True  # staff see whether the cache answered
    personas["editor"].save(update_fields=["is_staff"])
    client = api_client_for("editor")
    first = api_upload(client, "tides.md", b"# Tides\n\nSpring tides follow the new and the full moon.\n")
    assert wait_for_ingest(client, first["id"])["status"] == "ready"
    assert _sources(client, "spring tides moon") == (["tides.md"], False)
    assert _sources(client, "spring tides moon") == (["tides.md"], True)

    second = api_upload(client, "neap.md", b"# Neap\n\nNeap tides come at the quarter moon.\n")
    assert wait_for_ingest(client, second["id"])["status"] == "ready"
    sources, cached = _sources(client, "spring tides moon")
    assert not cached and set(sources) == {"tides.md", "neap.md"}

    # The worker saved the index after the ingests (refresh_keyword_snapshot, queued when each change committed).
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        snapshot = KeywordSnapshot.objects.filter(pk=collection.pk).first()
        collection.refresh_from_db()
        if snapshot is not None and snapshot.upto_change == collection.index_version:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the worker did not save the keyword index")
    assert snapshot.chunk_count >= 2
    assert IndexChange.objects.filter(collection=collection).count() == 2

    response = client.delete(reverse("api-document-detail", kwargs={"document_id": first["id"]}))
    assert response.status_code in (200, 204)
    assert _sources(client, "spring tides moon") == (["neap.md"], False)
