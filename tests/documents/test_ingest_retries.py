"""A lost database connection is retried; once retries run out the job fails with a reason."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from apps.documents import tasks
from apps.documents.models import IngestJob

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(document):
    return IngestJob.objects.create(document=document)


def _lose_the_database(**_kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def test_a_lost_connection_is_retried_before_the_job_fails(job, monkeypatch):
    calls = []

    def lose_then_count(**kwargs):
        calls.append(kwargs)
        _lose_the_database()

    monkeypatch.setattr(tasks.ingest, "document_ingest", lose_then_count)
    tasks.ingest_document.apply(args=[job.pk])  # eager: Celery runs each retry at once
    assert len(calls) == tasks.MAX_RETRIES + 1
    job.refresh_from_db()
    assert job.stage == "failed"


def test_a_job_survives_when_the_database_comes_back(job, monkeypatch):
    calls = []

    def lose_once(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            _lose_the_database()

    monkeypatch.setattr(tasks.ingest, "document_ingest", lose_once)
    tasks.ingest_document.apply(args=[job.pk])
    job.refresh_from_db()
    assert len(calls) == 2 and not job.finished  # the (stubbed) service ran again and was not failed


def test_after_the_last_retry_the_job_fails_with_a_reason(job, monkeypatch):
    monkeypatch.setattr(tasks.ingest, "document_ingest", _lose_the_database)
    tasks.ingest_document.apply(args=[job.pk], retries=tasks.MAX_RETRIES)
    job.refresh_from_db()
    assert job.stage == "failed" and "database could not be reached" in job.error
    job.document.refresh_from_db()
    assert job.document.status == "failed"
