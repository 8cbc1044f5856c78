"""Celery tasks: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from apps.documents.services import ingest

MAX_RETRIES = 3


@shared_task(bind=True, acks_late=True, max_retries=MAX_RETRIES)
def ingest_document(self, job_id: int) -> None:
    try:
        ingest.document_ingest(job_id=job_id)
    except (OperationalError, InterfaceError) as exc:
        # Only a lost database connection is worth another try; every other error already failed the job.
        if self.request.retries >= MAX_RETRIES:
            ingest.ingest_give_up(job_id=job_id, reason="The database could not be reached; try re-reading later.")
            return
        raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc
