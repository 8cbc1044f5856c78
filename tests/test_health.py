"""Whether ingestion can run, in every mode: the workers' heartbeat, the "paused" notice of the pages and the
progress JSON, and GET /healthz (database, broker, workers, models)."""

from __future__ import annotations

import contextlib
import time

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from apps.documents.models import IngestJob, JobStage
from portal import heartbeat
from tests.faults.processes import free_port

PAUSED = "Ingestion is paused: no worker is running"


@pytest.fixture
def queued_document(document):
    """The persona fixture's document, with a job that a worker has not taken yet."""
    IngestJob.objects.create(document=document, stage=JobStage.QUEUED)
    return document


@contextlib.contextmanager
def no_worker_on_the_queue():
    """This portal's queue switched to one that no worker consumes: the heartbeat of the real test worker (which
    the other tests need alive) is not seen, as when every worker is gone."""
    from portal.celery import app

    default = app.conf.task_default_queue
    app.conf.task_default_queue = f"nobody-consumes-this-{time.monotonic_ns()}"
    heartbeat._recent.clear()
    try:
        yield
    finally:
        app.conf.task_default_queue = default
        heartbeat._recent.clear()


def _wait_for_beat(timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while (alive := heartbeat.alive_workers()) == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive


def test_the_real_worker_beats(celery_worker_available):
    assert _wait_for_beat() >= 1
    members = heartbeat.redis_client().zrange(heartbeat.heartbeat_key(heartbeat.default_queue()), 0, -1)
    assert any(name.decode() in {str(n) for reply in celery_worker_available for n in reply} for name in members)


def test_a_beat_older_than_the_limit_counts_as_gone_and_a_clean_stop_leaves_at_once():
    queue = f"heartbeat-test-{time.monotonic_ns()}"
    client, key = heartbeat.redis_client(), heartbeat.heartbeat_key(queue)
    try:
        client.zadd(key, {"old@host": time.time() - heartbeat.HEARTBEAT_STALE - 1})
        assert heartbeat.alive_workers(queue) == 0
        heartbeat.beat([queue], "fresh@host")
        assert heartbeat.alive_workers(queue) == 1
        assert client.zscore(key, "old@host") is None  # a beat clears out the workers that died silently
        heartbeat.forget([queue], "fresh@host")
        assert heartbeat.alive_workers(queue) == 0
    finally:
        client.delete(key)


def test_pages_and_progress_say_paused_when_no_worker_beats(page_client_for, api_client_for, queued_document):
    # given a document waiting for a worker, and no worker alive on this portal's queue
    client = page_client_for("viewer")
    with no_worker_on_the_queue():
        # when the collection page, the document page, the progress fragment and the API are asked
        pages = {
            "collection": client.get(reverse("collection-detail", args=[queued_document.collection.slug])),
            "document": client.get(reverse("document-detail", args=[queued_document.pk])),
            "row": client.get(reverse("document-status", args=[queued_document.pk])),
        }
        api = api_client_for("viewer").get(reverse("api-document-detail", args=[queued_document.pk])).json()
    heartbeat._recent.clear()
    # then each says that ingestion is paused, and none shows a progress bar that will never move
    for name, response in pages.items():
        html = response.content.decode()
        assert response.status_code == 200, name
        assert PAUSED in html, name
        assert "<progress" not in html, name
    assert api["job"]["paused"] == PAUSED


def test_with_a_worker_alive_the_progress_bar_shows_and_nothing_says_paused(
    celery_worker_available, page_client_for, api_client_for, queued_document
):
    assert _wait_for_beat() >= 1
    heartbeat._recent.clear()
    client = page_client_for("viewer")
    row = client.get(reverse("document-status", args=[queued_document.pk])).content.decode()
    collection = client.get(reverse("collection-detail", args=[queued_document.collection.slug])).content.decode()
    api = api_client_for("viewer").get(reverse("api-document-detail", args=[queued_document.pk])).json()
    assert "<progress" in row and PAUSED not in row
    assert PAUSED not in collection
    assert api["job"]["paused"] is None


def test_healthz_is_200_with_everything_up_without_a_login(client, db, celery_worker_available):
    assert _wait_for_beat() >= 1
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "broker", "workers", "models"}
    assert body["checks"]["workers"]["alive"] >= 1
    assert body["checks"]["models"]["embedding"]["files_present"] is True
    assert response["Cache-Control"].count("no-store") == 1
    text = response.content.decode()
    for secret in (settings.SECRET_KEY, settings.REDIS_URL, str(settings.DATABASES["default"]["HOST"])):
        assert secret not in text


def test_healthz_is_503_naming_the_broker_when_it_cannot_be_reached(client, db):
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with override_settings(REDIS_URL=closed):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert set(body["failing"]) == {"broker", "workers"}
    assert body["checks"]["database"]["ok"] is True
    assert closed not in response.content.decode()


def test_healthz_reports_missing_model_files_and_never_loads_the_model(client, db, tmp_path, monkeypatch):
    from apps.retrieval.embedding import encoder

    monkeypatch.setattr(encoder, "_cache", {})  # as in a web process that has not embedded a query yet
    with override_settings(PORTAL_MODELS_DIR=tmp_path):
        missing = client.get("/healthz").json()["checks"]["models"]
    present = client.get("/healthz").json()["checks"]["models"]
    assert missing == {
        "ok": False,
        "embedding": {"name": settings.PORTAL_EMBEDDING_MODEL, "files_present": False, "loaded": False},
    }
    assert present["ok"] is True and present["embedding"]["files_present"] is True
    assert encoder._cache == {}  # nothing was loaded to answer
