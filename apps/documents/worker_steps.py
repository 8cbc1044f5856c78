"""A worker boot step that sends again the tasks whose message never reached the broker.

An upload made while Redis was away is stored with its job marked NOT_QUEUED (services.ingest.ingest_publish); a
change to a collection made then leaves its reference links marked stale (citations.services.linking
.relink_publish, whose sender citations registers: apps/documents/extensions.py). Nobody else would ever send
those: this step does, each time the worker's consumer (re)connects to the broker — Celery restarts the consumer's
steps after a lost connection, so "Redis is back" is exactly when `start` runs — and every REQUEUE_INTERVAL
seconds, which covers a publish that failed while this worker stayed connected. No beat process is needed. Several
workers may run it together: each job or relink is claimed once before it is sent. (Keyword snapshots need no
sweep: search replays the change log past the last snapshot.)
"""

from __future__ import annotations

import logging

from celery import bootsteps

log = logging.getLogger(__name__)

REQUEUE_INTERVAL = 60.0  # seconds


def requeue_unsent_jobs() -> None:
    """Send the NOT_QUEUED jobs and the stale relinks; never raises (it runs in the consumer, whose loop must go
    on)."""
    from django.db import DatabaseError, close_old_connections, connections

    from apps.documents.extensions import unsent_senders
    from apps.documents.services.ingest import ingest_requeue_unsent

    try:
        close_old_connections()
        if sent := ingest_requeue_unsent():
            log.warning("re-sent %d ingest job(s) that could not be queued earlier", sent)
        for sender in unsent_senders():  # other apps' tasks (citations: relinks), registered from their ready()
            if sent := sender.send():
                log.warning("re-sent %d %s that could not be queued earlier", sent, sender.what)
    except DatabaseError as exc:  # the database is away (or not created yet): the next sweep tries again
        log.warning("could not look for unqueued tasks: %s", exc)
    except Exception:
        log.warning("could not re-send unqueued tasks; trying again later", exc_info=True)
    finally:
        # The consumer's process forks the pool's children: it keeps no database connection open between sweeps.
        connections.close_all()


class RequeueUnsentIngest(bootsteps.StartStopStep):
    """Consumer step: sweep at every (re)connection to the broker and then periodically."""

    requires = ("celery.worker.consumer.tasks:Tasks",)  # started once the consumer is connected

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.timer_entry = None

    def start(self, parent) -> None:
        requeue_unsent_jobs()
        self.timer_entry = parent.timer.call_repeatedly(REQUEUE_INTERVAL, requeue_unsent_jobs)

    def stop(self, parent) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None

    def shutdown(self, parent) -> None:
        self.stop(parent)
