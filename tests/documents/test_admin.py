"""Deletes in the Django admin go through the portal's services: search follows at once, files are removed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.documents.models import Chunk, Collection, Document
from apps.documents.services.bulk import TextItem, add_texts
from apps.retrieval.models import IndexChange
from apps.retrieval.search.service import search
from apps.retrieval.search.types import SearchParams

pytestmark = pytest.mark.django_db(transaction=True)  # deletes commit, their on-commit steps run


@pytest.fixture
def otters(collection, personas, embedder):
    [doc] = add_texts(
        collection, [TextItem("otters.txt", "Otters", "Sea otters hold hands while they sleep.")], embedder
    )
    return doc


def _found(personas) -> list[str]:
    response = search(personas["viewer"], SearchParams(query="otters hold hands", collections=("lab",), mode="keyword"))
    return [hit.source for hit in response.hits]


def test_deleting_a_document_in_the_admin_updates_search_and_removes_its_file(client, personas, otters):
    assert _found(personas) == ["otters.txt"]
    storage, name = otters.file.storage, otters.file.name
    client.force_login(personas["admin"])
    response = client.post(reverse("admin:documents_document_delete", args=[otters.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Document.objects.filter(pk=otters.pk).exists()
    assert IndexChange.objects.filter(document_id=otters.pk).count() == 2  # added, then deleted
    assert _found(personas) == []
    assert not storage.exists(name)


def test_the_admins_bulk_delete_goes_through_the_service_too(client, personas, otters):
    client.force_login(personas["admin"])
    changelist = reverse("admin:documents_document_changelist")
    response = client.post(changelist, {"action": "delete_selected", "_selected_action": [otters.pk], "post": "yes"})
    assert response.status_code == 302
    assert IndexChange.objects.filter(document_id=otters.pk).count() == 2 and _found(personas) == []


def test_deleting_a_collection_in_the_admin_removes_its_files(client, personas, otters, collection):
    storage, name = otters.file.storage, otters.file.name
    client.force_login(personas["admin"])
    response = client.post(reverse("admin:documents_collection_delete", args=[collection.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Collection.objects.filter(pk=collection.pk).exists() and not storage.exists(name)


def test_passages_are_shown_but_not_edited_in_the_admin(client, personas, otters):
    client.force_login(personas["admin"])
    chunk = Chunk.objects.filter(document=otters).first()
    assert client.get(reverse("admin:documents_chunk_change", args=[chunk.pk])).status_code == 200
    response = client.post(reverse("admin:documents_chunk_change", args=[chunk.pk]), {"text": "edited"})
    assert response.status_code == 403
    chunk.refresh_from_db()
    assert chunk.text == "Sea otters hold hands while they sleep."


def test_a_passage_alone_cannot_be_deleted_in_the_admin(client, personas, otters):
    client.force_login(personas["admin"])
    chunk = Chunk.objects.filter(document=otters).first()
    response = client.post(reverse("admin:documents_chunk_delete", args=[chunk.pk]), {"post": "yes"})
    assert response.status_code == 403 and Chunk.objects.filter(pk=chunk.pk).exists()
