"""Whether ingestion can run: every Celery worker says it is alive every few seconds, and pages read that.

Why a key in Redis rather than the alternatives: Celery's `ping` is a broadcast that waits for its timeout (a
second or more on every page view), and Celery's worker events need a monitor process to collect them; a row in
PostgreSQL would add a write every few seconds and a migration. Redis is already the broker, so a worker that can
write there can also receive tasks. Each worker's consumer adds itself to one sorted set per queue (member: its
node name; score: the time), from a timer of the consumer, the same as the sweep of apps/documents/worker_steps.py;
no beat process is needed. The timer runs in the worker's main process, so it keeps beating while the pool's child
is busy with a long document, and stops as soon as the consumer loses the broker (Celery stops consumer steps
then), is shut down or is killed. A reader counts the members that beat within HEARTBEAT_STALE seconds: one
ZCOUNT, whatever the number of workers.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from celery import bootsteps
from django.utils.translation import gettext, gettext_noop

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 5.0  # seconds between two beats of a worker
HEARTBEAT_STALE = 20.0  # a worker that has not beaten for this long counts as gone (several beats missed)
# Marked for translation; the pages and the API say them in the request's language (Ingestion.reason).
PAUSED = gettext_noop("Ingestion is paused: no worker is running")
BROKER_AWAY = gettext_noop("Ingestion is paused: the task queue cannot be reached")

_clients: dict[str, object] = {}


def heartbeat_key(queue: str) -> str:
    return f"portal:workers:{queue}"


def redis_client(url: str | None = None):
    """One client per URL and process (redis-py pools are thread-safe and notice a fork), with short timeouts:
    a Redis that is away must cost a page one second, not redis-py's default retries."""
    import redis
    from django.conf import settings

    url = url or settings.REDIS_URL
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    return client


def default_queue() -> str:
    from portal.celery import app

    return app.conf.task_default_queue


def beat(queues: list[str], nodename: str, *, url: str | None = None) -> None:
    """Say that `nodename` consumes `queues` now; never raises (it runs in the worker's consumer loop)."""
    now = time.time()
    try:
        pipe = redis_client(url).pipeline()
        for queue in queues:
            key = heartbeat_key(queue)
            pipe.zadd(key, {nodename: now})
            pipe.zremrangebyscore(key, "-inf", now - HEARTBEAT_STALE)  # workers that died without a word
            pipe.expire(key, int(HEARTBEAT_STALE * 3))
        pipe.execute()
    except Exception as exc:  # the broker is away: the consumer is about to notice, and the beat stops with it
        log.warning("worker heartbeat not written: %s", exc)


def forget(queues: list[str], nodename: str, *, url: str | None = None) -> None:
    """A worker that stops cleanly leaves at once, so pages say "paused" without waiting for the beat to age."""
    try:
        pipe = redis_client(url).pipeline()
        for queue in queues:
            pipe.zrem(heartbeat_key(queue), nodename)
        pipe.execute()
    except Exception as exc:
        log.warning("worker heartbeat not removed: %s", exc)


def alive_workers(queue: str | None = None, *, url: str | None = None) -> int:
    """How many workers consuming `queue` (default: this portal's) beat within HEARTBEAT_STALE seconds.
    Raises the Redis client's error when the broker cannot be reached."""
    key = heartbeat_key(queue or default_queue())
    return int(redis_client(url).zcount(key, time.time() - HEARTBEAT_STALE, "+inf"))


@dataclass(frozen=True)
class Ingestion:
    """What pages say about ingestion: whether it can run now, and if not, why."""

    workers: int
    broker_reachable: bool

    @property
    def paused(self) -> bool:
        return not self.broker_reachable or self.workers == 0

    @property
    def reason(self) -> str:
        if not self.broker_reachable:
            return gettext(BROKER_AWAY)
        return gettext(PAUSED) if self.workers == 0 else ""

    @property
    def hint(self) -> str:
        if not self.broker_reachable:
            return gettext("Uploads are kept, and read once it is back.")
        return gettext("Uploads are kept, and read as soon as a worker runs.") if self.workers == 0 else ""


def ingestion_status(queue: str | None = None) -> Ingestion:
    try:
        return Ingestion(workers=alive_workers(queue), broker_reachable=True)
    except Exception as exc:  # any client or connection error
        log.warning("worker heartbeat unreadable: %s", exc)
        return Ingestion(workers=0, broker_reachable=False)


_recent: dict[str, tuple[float, Ingestion]] = {}
RECENT_SECONDS = 1.0


def recent_ingestion_status() -> Ingestion:
    """`ingestion_status`, reused for a second within this process: a list of fifty documents in the API asks
    Redis once, not fifty times. (Heartbeats age in seconds, so a second-old answer is as good.)"""
    queue = default_queue()
    now = time.monotonic()
    seen = _recent.get(queue)
    if seen is None or now - seen[0] > RECENT_SECONDS:
        seen = _recent[queue] = (now, ingestion_status(queue))
    return seen[1]


def ingestion_context(request) -> dict:
    """Template context processor: `ingestion`, read from Redis only by a template that uses it."""
    from django.utils.functional import SimpleLazyObject

    return {"ingestion": SimpleLazyObject(ingestion_status)}


def _consumed_queues(consumer) -> list[str]:
    try:
        names = list(consumer.app.amqp.queues.consume_from)
    except Exception:
        names = []
    return names or [consumer.app.conf.task_default_queue]


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Consumer step: beat at once when connected to the broker, then every HEARTBEAT_INTERVAL seconds."""

    requires = ("celery.worker.consumer.tasks:Tasks",)  # started once the consumer is connected

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.timer_entry = None
        self.queues: list[str] = []

    def start(self, parent) -> None:
        self.queues = _consumed_queues(parent)
        hostname = parent.hostname
        beat(self.queues, hostname)
        self.timer_entry = parent.timer.call_repeatedly(HEARTBEAT_INTERVAL, beat, (self.queues, hostname))

    def stop(self, parent) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None
            forget(self.queues, parent.hostname)

    def shutdown(self, parent) -> None:
        self.stop(parent)
