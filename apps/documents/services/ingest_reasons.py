"""Why a job failed, in words that name the stage it failed in (the job row's stage at that moment)."""

from __future__ import annotations

from apps.documents.models import IngestJob, JobStage

# What the job was doing, as the subject of a sentence and as "while ..." after one.
_WHAT = {
    JobStage.QUEUED: ("Reading this file", "reading the file"),
    JobStage.PARSE: ("Reading this file", "reading the file"),
    JobStage.CHUNK: ("Splitting this file into passages", "splitting the file into passages"),
    JobStage.EMBED: ("Embedding the passages", "embedding the passages"),
    JobStage.INDEX: ("Indexing the passages", "indexing the passages"),
}


def doing(stage: str) -> str:
    return _WHAT.get(stage, _WHAT[JobStage.PARSE])[1]


def time_limit(job: IngestJob, limit_s: int) -> str:
    """A task of the job ran past the worker's time limit (a reading past its own, smaller limit is a ParseError
    that says so: apps/documents/parsing/sandbox.py)."""
    what = _WHAT.get(job.stage, _WHAT[JobStage.PARSE])[0]
    where = f", after {job.done:,} of {job.total:,}" if job.stage == JobStage.EMBED and job.total else ""
    return f"{what} took longer than the time limit ({limit_s:,} s){where}; the document may be very large."


def unexpected(job: IngestJob, error_name: str) -> str:
    return (
        f"An unexpected error stopped ingestion ({error_name}) while {doing(job.stage)}; "
        "the administrators can find the details in the worker log."
    )
