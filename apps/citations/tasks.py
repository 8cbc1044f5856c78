"""Celery tasks for citations: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from apps.citations.services.linking import collection_relink


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def relink_collection(collection_id: int) -> int:
    return collection_relink(collection_id=collection_id)
