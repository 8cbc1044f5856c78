"""Celery tasks: thin wrappers that take ids and call a service."""

from __future__ import annotations

import random

from celery import shared_task
from django.db import InterfaceError, OperationalError

from apps.documents.services import ingest

MAX_RETRIES = 5  # with the backoff below about a minute and a half: long enough for a database restart
MAX_BACKOFF = 60  # seconds


def retry_countdown(retries: int) -> float:
    """Seconds before retry number `retries + 1`: doubling, capped, with jitter so that the jobs an outage stopped
    together do not all come back at the same instant."""
    base = min(2 ** (retries + 1), MAX_BACKOFF)
    return base + random.uniform(0, base / 2)


# acks_late + reject_on_worker_lost: a worker that dies mid-job leaves the message to be delivered again, and the
# service makes a second delivery safe (a finished job is left alone, an unfinished one goes on from its last
# committed batch). `step`: the job's step count this message was sent for (a long job sends itself again).
@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def ingest_document(self, job_id: int, step: int = 0) -> None:
    try:
        ingest.document_ingest(job_id=job_id, step=step)
    except (OperationalError, InterfaceError) as exc:
        # Only a lost database connection is worth another try; every other error already failed the job.
        if self.request.retries >= MAX_RETRIES:
            ingest.ingest_give_up(job_id=job_id, reason="The database could not be reached; try re-reading later.")
            return
        raise self.retry(exc=exc, countdown=retry_countdown(self.request.retries)) from exc
