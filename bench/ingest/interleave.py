"""How long a small upload waits behind one huge document, with the job split into turns and without.

For each mode the bench starts a Celery worker of its own (one process, like the portal's default), uploads a
generated document of --passages passages, waits until the worker is embedding it, uploads a one-paragraph
note, and measures how long the note took to be ready. Modes:
  one-task  PORTAL_INGEST_BATCHES_PER_TASK=0: the whole job in one task (the mechanism before this change)
  turns     PORTAL_INGEST_BATCHES_PER_TASK as configured (default 4 batches of PORTAL_EMBED_BATCH=32)

Needs PostgreSQL and Redis (DATABASE_URL/REDIS_URL, e.g. the machine's own or a `portalctl.py run` stack); the
bench's queue and collection (`bench-interleave`) are its own, so a running portal is not disturbed.
    .venv/bin/python bench/ingest/interleave.py [--passages 5000] [--modes one-task,turns] [--json]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
QUEUE = f"bench-interleave-{os.getpid()}"
os.environ["PORTAL_QUEUE"] = QUEUE  # this process publishes where the bench's worker listens
MODES = {"one-task": {"PORTAL_INGEST_BATCHES_PER_TASK": "0"}, "turns": {}}


def long_text(passages: int, tag: str) -> bytes:
    """`passages` sections of about 400 characters, each its own passage (a heading opens a new one)."""
    sections = []
    for i in range(passages):
        body = " ".join(
            f"Station {i} recorded {(i * 7 + k) % 101} units of flow at hour {k}, against {(i * 13 + k) % 97} expected."
            for k in range(5)
        )
        sections.append(f"## {tag} log entry {i}\n\n{body}\n")
    return "\n".join(sections).encode()


def start_worker(mode: str) -> tuple[subprocess.Popen, str]:
    name = f"bench-{mode}-{os.getpid()}"
    env = dict(os.environ, **MODES[mode])
    command = [sys.executable, "-m", "celery", "-A", "portal", "--quiet", "worker", "-l", "warning"]
    command += ["--concurrency", "1", "-n", f"{name}@%h"]
    worker = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)
    from portal.celery import app

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if app.control.ping(destination=[f"{name}@{socket.gethostname()}"], timeout=1):
            return worker, name
        if worker.poll() is not None:
            raise SystemExit(f"the {mode} worker exited during start-up")
    raise SystemExit(f"the {mode} worker did not answer within 120 s")


def stop_worker(worker: subprocess.Popen) -> None:
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(60)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def wait_for(predicate, what: str, timeout: float = 3600, every: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise SystemExit(f"gave up waiting for {what}")


def run_mode(mode: str, passages: int, collection) -> dict:
    from django.conf import settings

    from apps.documents.models import Document, IngestJob, JobStage
    from apps.documents.services.documents import document_delete
    from apps.documents.services.uploads import document_add

    per_task = settings.PORTAL_INGEST_BATCHES_PER_TASK
    for document in collection.documents.all():
        document_delete(document=document)
    worker, _name = start_worker(mode)
    try:
        started = time.time()
        big = document_add(collection=collection, name="huge.md", fileobj=io.BytesIO(long_text(passages, mode)))
        big_job = big.document.latest_job()
        # The note arrives while the huge one is being embedded: the case that stalled everyone for half an hour.
        wait_for(lambda: IngestJob.objects.filter(pk=big_job.pk, stage=JobStage.EMBED, done__gt=0).exists(), "embed")
        note_text = f"# A short note ({mode})\n\nIt should not wait for the huge document.\n".encode()
        embedded_before = IngestJob.objects.get(pk=big_job.pk).done
        sent = time.time()
        note = document_add(collection=collection, name="note.md", fileobj=io.BytesIO(note_text))
        note_job = note.document.latest_job()
        wait_for(lambda: IngestJob.objects.filter(pk=note_job.pk, stage=JobStage.DONE).exists(), "the note", every=0.05)
        wait_for(lambda: IngestJob.objects.filter(pk=big_job.pk, stage=JobStage.DONE).exists(), "the huge document")
        note_job.refresh_from_db()
        big_job.refresh_from_db()
        return {
            "mode": mode,
            "batches_per_task": int(MODES[mode].get("PORTAL_INGEST_BATCHES_PER_TASK", per_task)),
            "passages": Document.objects.get(pk=big.document.pk).chunk_count,
            "note_waited_s": round(note_job.started_at.timestamp() - sent, 1),
            "note_ready_after_s": round(note_job.finished_at.timestamp() - sent, 1),
            "huge_total_s": round(big_job.finished_at.timestamp() - started, 1),
            "huge_embed_s": big_job.timings.get("embed"),
            "huge_embedded_at_note_upload": embedded_before,
        }
    finally:
        stop_worker(worker)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=5000)
    parser.add_argument("--modes", default="one-task,turns")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    from apps.documents.models import Collection

    call_command("migrate", "--noinput", verbosity=0)
    collection, _ = Collection.objects.get_or_create(slug="bench-interleave", defaults={"name": "Interleave bench"})
    results = [run_mode(mode, args.passages, collection) for mode in args.modes.split(",")]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    keys = [key for key in results[0] if key != "mode"]
    print(f"{'':>26}" + "".join(f"{r['mode']:>12}" for r in results))
    for key in keys:
        print(f"{key:>26}" + "".join(f"{r[key]!s:>12}" for r in results))


if __name__ == "__main__":
    main()
