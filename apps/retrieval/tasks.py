"""Worker tasks of search: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task

from apps.retrieval.keyword import store


@shared_task(ignore_result=True)
def refresh_keyword_snapshot(collection_id: int) -> None:
    store.refresh_snapshot(collection_id)
