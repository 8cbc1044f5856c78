"""Related documents: shared authors, same journal, close content; the collection's own documents only."""

from __future__ import annotations

import numpy as np
import pytest
from django.urls import reverse

from apps.citations.services.related import related_documents
from apps.documents.models import Chunk, Document

pytestmark = pytest.mark.django_db
MODEL = "test-model@1"


def _doc(collection, name: str, vector, **fields) -> Document:
    document = Document.objects.create(
        collection=collection,
        original_name=name,
        sha256=name.ljust(64, "0"),
        file=f"x/{name}",
        status="ready",
        embedding_model=MODEL,
        **fields,
    )
    unit = np.asarray(vector, dtype=np.float32)
    unit /= np.linalg.norm(unit)
    Chunk.objects.create(document=document, chunk_index=0, text=name, embedding=unit)
    Document.objects.filter(pk=document.pk).update(centroid=unit)  # as ingest keeps it: the mean of one vector
    return document


def test_related_documents_rank_close_content_and_say_why(collection, other_collection):
    this = _doc(collection, "this", [1, 0, 0], authors=["Ada Lovelace"], journal="Nature")
    near = _doc(collection, "near", [0.9, 0.1, 0])
    far = _doc(collection, "far", [0, 0, 1], authors=["A. Lovelace"], journal="nature ")
    _doc(other_collection, "elsewhere", [1, 0, 0], authors=["Ada Lovelace"])
    items = related_documents(this)
    assert [i["document_id"] for i in items] == [near.pk, far.pk]
    assert items[0]["similarity"] > 0.9 and items[0]["shared_authors"] == []
    assert items[1]["similarity"] is None  # content far apart: related only by author and journal
    assert items[1]["shared_authors"] == ["lovelace"] and items[1]["same_journal"]
    assert any("shared author" in reason for reason in items[1]["reasons"])


def test_vectors_of_another_model_are_not_compared(collection):
    this = _doc(collection, "this", [1, 0, 0])
    other = _doc(collection, "other", [1, 0, 0])
    Document.objects.filter(pk=other.pk).update(embedding_model="another-model@2")
    assert related_documents(this) == []


@pytest.mark.parametrize("persona,expected", [("viewer", 200), ("outsider", 404), (None, 401)])
def test_the_related_endpoint_by_persona(api_client_for, document, persona, expected):
    response = api_client_for(persona).get(reverse("api-document-related", kwargs={"document_id": document.pk}))
    assert response.status_code == expected


@pytest.mark.parametrize("persona,expected", [("viewer", 200), ("outsider", 404), (None, 401)])
def test_the_references_endpoint_by_persona(api_client_for, document, persona, expected):
    response = api_client_for(persona).get(reverse("api-document-references", kwargs={"document_id": document.pk}))
    assert response.status_code == expected
    if expected == 200:
        assert response.json() == {"count": 0, "next": None, "previous": None, "results": []}


def test_several_documents_at_once_give_what_each_gives_alone(collection, other_collection):
    from apps.citations.services.related import related_documents_many

    a = _doc(collection, "a", [1, 0, 0], authors=["Ada Lovelace"])
    b = _doc(collection, "b", [0.9, 0.1, 0], journal="Cell")
    _doc(collection, "c", [0, 1, 0], authors=["A. Lovelace"], journal="cell")
    d = _doc(other_collection, "d", [1, 0, 0.1], authors=["Ada Lovelace"])
    _doc(other_collection, "e", [1, 0, 0.2], authors=["Lovelace, A."])
    together = related_documents_many([a, b, d], limit=5)
    assert together == {x.pk: related_documents(x, limit=5) for x in (a, b, d)}
    assert all(together[x.pk] for x in (a, b, d))
    assert {i["document_id"] for i in together[d.pk]} <= set(
        Document.objects.filter(collection=other_collection).values_list("pk", flat=True)
    )
