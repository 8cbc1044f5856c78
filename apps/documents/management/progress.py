"""Terminal progress for ingest jobs, shared by the ingest and load_demo commands."""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.management.base import OutputWrapper

from apps.documents.models import IngestJob

_BAR = 24


def _line(job: IngestJob) -> str:
    filled = _BAR * job.percent // 100
    name = job.document.display_title[:48]
    state = job.progress_text  # "Embedding passages 640 / 9,281": a long document shows that it moves
    if job.stage == "failed":
        state = f"failed: {job.error}"
    return f"  [{'#' * filled}{'.' * (_BAR - filled)}] {job.percent:3d}%  {name}  {state}"


def wait_for_jobs(job_ids: Iterable[int], out: OutputWrapper, *, timeout: float = 3600) -> list[IngestJob]:
    """Print one line per job whenever it changes, until all have finished. Returns the final rows."""
    pending = set(job_ids)
    shown: dict[int, str] = {}
    deadline = time.monotonic() + timeout
    jobs: list[IngestJob] = []
    while True:
        jobs = list(IngestJob.objects.filter(pk__in=pending | set(shown)).select_related("document"))
        for job in sorted(jobs, key=lambda j: j.pk):
            line = _line(job)
            if shown.get(job.pk) != line:
                out.write(line)
                shown[job.pk] = line
        pending = {job.pk for job in jobs if not job.finished}
        if not pending:
            return jobs
        if time.monotonic() > deadline:
            out.write(f"  gave up waiting after {timeout:.0f} s; the worker goes on in the background")
            return jobs
        time.sleep(0.5)
