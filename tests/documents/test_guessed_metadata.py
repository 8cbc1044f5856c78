"""Title and authors read off a paper's first page (the file's metadata names none) are marked as guessed, through
the worker; the document page tells the reader to check them, and a person's correction clears the mark."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from apps.documents.models import Document

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PAPERS = ("sci-pdf-jats", "papers")


def test_a_title_and_authors_read_from_the_page_are_marked_until_a_person_corrects_them(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest, page_client_for, personas, shared_corpus
):
    client = api_client_for("editor")
    papers = shared_corpus.joinpath(*PAPERS)
    # a BMC paper, whose PDF names no author and only a job number as its title; an MDPI paper, whose PDF names both
    bmc = api_upload(client, "bmc.pdf", (papers / "bmc-evolbiol-14-70" / "paper.pdf").read_bytes())
    mdpi = api_upload(client, "mdpi.pdf", (papers / "mdpi-metabolites-04-00932" / "paper.pdf").read_bytes())
    for uploaded in (bmc, mdpi):
        assert wait_for_ingest(client, uploaded["id"], timeout=240)["status"] == "ready"

    guessed = Document.objects.get(pk=bmc["id"])
    assert guessed.guessed == ["authors", "title"]
    assert guessed.authors[:2] == ["Ross Barnett", "Nobuyuki Yamaguchi"] and "Panthera leo" in guessed.title
    assert Document.objects.get(pk=mdpi["id"]).guessed == []
    # programs see the same through the API
    shown = client.get(reverse("api-document-detail", args=[bmc["id"]])).json()
    assert shown["guessed"] == ["authors", "title"] and shown["authors"][:2] == ["Ross Barnett", "Nobuyuki Yamaguchi"]
    assert shown["year"] == 2014 and shown["journal"]

    reader = page_client_for("viewer")
    page = reader.get(reverse("document-detail", args=[bmc["id"]])).content.decode()
    assert "The title and the authors were read from the first page" in page
    assert "read from the first page" not in reader.get(reverse("document-detail", args=[mdpi["id"]])).content.decode()

    # an administrator corrects the authors in the admin: the title stays marked, the authors no longer
    document_admin = admin.site._registry[Document]
    request = RequestFactory().post("/admin/")
    request.user = personas["admin"]
    guessed.authors = ["R. Barnett", "N. Yamaguchi"]
    document_admin.save_model(request, guessed, SimpleNamespace(changed_data=["authors"]), change=True)
    guessed.refresh_from_db()
    assert guessed.guessed == ["title"] and guessed.authors == ["R. Barnett", "N. Yamaguchi"]
    assert (
        "The title was read from the first page"
        in reader.get(reverse("document-detail", args=[bmc["id"]])).content.decode()
    )

    # Reading the file again (after a parser fix, say) guesses the title again, since nobody corrected it; the
    # authors a person corrected stay as they are. (Before, a re-read kept whatever the old parser had guessed.)
    Document.objects.filter(pk=bmc["id"]).update(title="10.1186/1471-2148-14-70")  # what an older parser read
    assert client.post(reverse("api-document-reingest", args=[bmc["id"]])).status_code in (200, 202)
    assert wait_for_ingest(client, bmc["id"], timeout=240)["status"] == "ready"
    guessed.refresh_from_db()
    assert "Panthera leo" in guessed.title and guessed.guessed == ["title"]
    assert guessed.authors == ["R. Barnett", "N. Yamaguchi"]
