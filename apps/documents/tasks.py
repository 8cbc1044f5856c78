"""Celery tasks: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from apps.documents.services import ingest


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),  # the database went away for a moment: try again
    retry_backoff=True,
    retry_jitter=True,
    max_retries=3,
)
def ingest_document(job_id: int) -> None:
    ingest.document_ingest(job_id=job_id)
