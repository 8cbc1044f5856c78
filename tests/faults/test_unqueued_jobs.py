"""An upload made while the broker is unreachable: stored, marked as not queued, and sent exactly once later.
The publish is made to fail here; test_services_unavailable.py pulls the real cable."""

from __future__ import annotations

import io
from io import StringIO

import pytest
from django.core.management import call_command
from kombu.exceptions import OperationalError as BrokerUnavailable

from apps.citations import tasks as citation_tasks
from apps.citations.services.linking import relink_requeue_stale
from apps.documents import tasks
from apps.documents.models import Collection, DocumentStatus, IngestJob, JobStage
from apps.documents.services.ingest import NOT_QUEUED, ingest_requeue_unsent
from apps.documents.services.uploads import document_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker(monkeypatch):
    """Stands in for ingest_document.delay: records what was sent, or fails while `down` is set."""

    class Broker:
        down = False
        sent: list[int] = []

        def delay(self, job_id: int) -> None:
            if self.down:
                raise BrokerUnavailable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
            self.sent.append(job_id)

    fake = Broker()
    fake.sent = []
    monkeypatch.setattr(tasks.ingest_document, "delay", fake.delay)
    return fake


def _add(collection, name: str, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return document_add(collection=collection, name=name, fileobj=io.BytesIO(name.encode() + b" notes"))


@pytest.mark.django_db(transaction=True)  # committed for real, as in a request: the publish runs inside the call
def test_an_upload_while_the_broker_is_away_is_stored_and_says_it_waits(broker, collection):
    broker.down = True
    result = document_add(collection=collection, name="a.txt", fileobj=io.BytesIO(b"a.txt notes"))
    assert result.outcome == "added" and not result.queued
    assert "task queue cannot be reached" in result.message
    result.document.refresh_from_db()
    assert result.document.status == DocumentStatus.PENDING and result.document.file.read() == b"a.txt notes"
    job = result.document.latest_job()
    assert (job.stage, job.error) == (JobStage.QUEUED, NOT_QUEUED)


def test_unqueued_jobs_are_sent_once_when_the_broker_is_back(broker, collection, django_capture_on_commit_callbacks):
    broker.down = True
    first = _add(collection, "a.txt", django_capture_on_commit_callbacks).document.latest_job()
    second = _add(collection, "b.txt", django_capture_on_commit_callbacks).document.latest_job()
    assert ingest_requeue_unsent() == 0  # still away: both stay marked for the next try
    assert IngestJob.objects.filter(error=NOT_QUEUED).count() == 2

    broker.down = False
    assert ingest_requeue_unsent() == 2
    assert broker.sent == [first.pk, second.pk]
    assert not IngestJob.objects.filter(error=NOT_QUEUED).exists()
    assert ingest_requeue_unsent() == 0 and broker.sent == [first.pk, second.pk]  # never twice


def test_a_job_the_worker_already_started_is_not_sent_again(broker, collection, django_capture_on_commit_callbacks):
    broker.down = True
    job = _add(collection, "a.txt", django_capture_on_commit_callbacks).document.latest_job()
    IngestJob.objects.filter(pk=job.pk).update(stage=JobStage.PARSE)  # e.g. resumed by `resume_ingest` meanwhile
    broker.down = False
    assert ingest_requeue_unsent() == 0 and broker.sent == []


def test_resume_ingest_unsent_sends_them_and_says_how_many(
    broker, collection, django_capture_on_commit_callbacks, monkeypatch
):
    broker.down = True
    _add(collection, "a.txt", django_capture_on_commit_callbacks)
    broker.down = False
    out = StringIO()
    Collection.objects.filter(pk=collection.pk).update(links_stale=True)  # a relink that could not be queued
    sent: list[int] = []
    monkeypatch.setattr(citation_tasks.relink_collection, "delay", sent.append)
    call_command("resume_ingest", unsent=True, stdout=out)
    assert "Sent 1 job(s)" in out.getvalue() and len(broker.sent) == 1
    assert "Sent 1 relink(s)" in out.getvalue() and sent == [collection.pk]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("down", [True, False])
def test_re_reading_while_the_broker_is_away_says_it_waits(broker, document, page_client_for, api_client_for, down):
    from django.urls import reverse

    broker.down = down
    page = page_client_for("editor").post(reverse("document-reingest", args=[document.pk]), follow=True)
    said = " ".join(str(m) for m in page.context["messages"])
    assert ("task queue could not be reached" in said) == down and ("is being read again" in said) != down
    api = api_client_for("editor").post(reverse("api-document-reingest", args=[document.pk]))
    assert api.status_code == 202 and (api.json()["job"]["error"] == NOT_QUEUED) == down
    assert len(broker.sent) == (0 if down else 2)


@pytest.mark.django_db(transaction=True)
def test_a_delete_while_the_broker_is_away_is_done_and_says_so_plainly(monkeypatch, document, api_client_for, caplog):
    """The follow-up tasks (keyword snapshot, relink) cannot be queued: the delete is committed all the same and
    answers 204, the failure is logged; search replays the change log, so nothing reads the deleted document."""
    from django.urls import reverse

    from apps.documents.models import Document
    from apps.retrieval import tasks as retrieval_tasks

    def refuse(*args, **kwargs):
        raise BrokerUnavailable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(retrieval_tasks.refresh_keyword_snapshot, "delay", refuse)
    monkeypatch.setattr(citation_tasks.relink_collection, "delay", refuse)
    response = api_client_for("editor").delete(reverse("api-document-detail", args=[document.pk]))
    assert response.status_code == 204
    assert not Document.objects.filter(pk=document.pk).exists()
    assert "Error 111" in caplog.text  # logged by the robust on-commit callbacks
    # the relink is not lost: the collection's links are marked stale for the worker's sweep
    collection = document.collection
    collection.refresh_from_db()
    assert collection.links_stale
    assert relink_requeue_stale() == 0  # still away: it stays marked
    collection.refresh_from_db()
    assert collection.links_stale

    sent: list[int] = []
    monkeypatch.setattr(citation_tasks.relink_collection, "delay", sent.append)
    assert relink_requeue_stale() == 1 and sent == [collection.pk]
    collection.refresh_from_db()
    assert not collection.links_stale
    assert relink_requeue_stale() == 0 and sent == [collection.pk]  # never twice
