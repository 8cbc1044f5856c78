"""The queue position of queued uploads, with the real worker taking the jobs one at a time (concurrency 1)."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

DEMO = Path(__file__).resolve().parents[2] / "demo"


def test_a_queued_upload_counts_down_as_the_worker_takes_the_jobs_ahead_of_it(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest, page_client_for
):
    # given: a PDF that keeps the worker busy for a few seconds, then two small notes behind it
    client = api_client_for("editor")
    pdf = api_upload(client, "trial.pdf", (DEMO / "papers" / "bmc-trials-15-1-511.pdf").read_bytes())
    first = api_upload(client, "first.txt", b"Asiatic lions live in the Gir forest.\n")
    last = api_upload(client, "last.txt", b"Wheat yields fell in the dry years.\n")
    url = reverse("api-document-detail", kwargs={"document_id": last["id"]})

    # when: the last note is watched until the worker has read it
    seen: list[int | None] = []
    row = page_client_for("viewer").get(reverse("collection-detail", kwargs={"slug": "lab"})).content.decode()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        data = client.get(url).json()
        seen.append(data["job"]["queued_ahead"])
        if data["status"] in ("ready", "failed"):
            break
        time.sleep(0.1)

    # then: it waited behind at least the first note, counted down without ever going up, and has no position
    # once read
    assert data["status"] == "ready", data["error"]
    waiting = [n for n in seen if n is not None]
    assert waiting and waiting[0] >= 1, seen
    assert all(a >= b for a, b in itertools.pairwise(waiting)), seen
    assert seen[-1] is None
    assert ", 1 ahead of it" in row or ", 2 ahead of it" in row  # the collection page said so while it waited
    for document in (pdf, first):
        assert wait_for_ingest(client, document["id"])["job"]["queued_ahead"] is None
