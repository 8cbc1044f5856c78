"""The bounded reading process (apps/documents/parsing/sandbox.py) and the ingest service that uses it, called
directly in this process: limits hit become reasons for the uploader, bugs stay bugs, no child outlives a call."""

from __future__ import annotations

import logging
import os
import signal

import psutil
import pytest
from django.core.files.base import ContentFile
from django.test import override_settings

from apps.documents.models import Document, DocumentStatus, IngestJob
from apps.documents.parsing import ParseError, ReadLimits
from apps.documents.parsing.sandbox import ChildFailed, LimitExceeded, run_bounded
from apps.documents.services import ingest, reading
from tests.hostile import builders

MEMORY_MB = 256


_CHILDREN_BEFORE: set[int] = set()


@pytest.fixture(autouse=True)
def _children_before():
    """The processes this one already had (a session's servers, a browser): only new ones count below."""
    _CHILDREN_BEFORE.clear()
    _CHILDREN_BEFORE.update(child.pid for child in psutil.Process().children())


def _no_children_left() -> bool:
    """No reading child is left, running or as a zombie (children() lists zombies too: unreaped)."""
    return {child.pid for child in psutil.Process().children()} <= _CHILDREN_BEFORE


def _resident_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _allocate(megabytes: int) -> int:
    hoard = [bytearray(1024 * 1024) for _ in range(megabytes)]
    return len(hoard)


def _spin() -> None:
    while True:
        pass


def _fail_to_read() -> None:
    raise ParseError("The file is not a valid PDF (it may be damaged or truncated).", detail="xref broken")


def _bug() -> None:
    raise KeyError("missing")


def test_a_value_comes_back_with_what_the_child_used():
    bounded = run_bounded(_allocate, 50, memory_mb=MEMORY_MB, timeout_s=30)
    assert bounded.value == 50
    assert bounded.usage.peak_rss_mb >= 50  # it really held the memory it allocated
    assert _no_children_left()


def test_allocating_past_the_budget_fails_with_a_memory_reason():
    with pytest.raises(LimitExceeded) as info:
        run_bounded(_allocate, 4 * MEMORY_MB, memory_mb=MEMORY_MB, timeout_s=30)
    assert info.value.kind == "memory"
    assert str(info.value) == (
        f"Reading this file needed more than {MEMORY_MB} MB of memory; "
        "it may be damaged or built to exhaust the reader."
    )
    assert _no_children_left()


def test_a_child_that_runs_too_long_is_killed_and_reaped():
    with pytest.raises(LimitExceeded) as info:
        run_bounded(_spin, memory_mb=MEMORY_MB, timeout_s=1)
    assert info.value.kind == "time"
    assert "took longer than 1 seconds" in str(info.value)
    assert _no_children_left()


def test_a_parse_error_keeps_its_message_and_detail():
    with pytest.raises(ParseError) as info:
        run_bounded(_fail_to_read, memory_mb=MEMORY_MB, timeout_s=30)
    assert not isinstance(info.value, LimitExceeded)
    assert str(info.value) == "The file is not a valid PDF (it may be damaged or truncated)."
    assert info.value.detail == "xref broken"


def test_an_unexpected_exception_arrives_with_the_childs_traceback():
    with pytest.raises(ChildFailed) as info:
        run_bounded(_bug, memory_mb=MEMORY_MB, timeout_s=30)
    assert info.value.type_name == "KeyError"
    assert "_bug" in info.value.child_traceback and "KeyError: 'missing'" in info.value.child_traceback
    assert _no_children_left()


def _crash() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)  # what a C library's bug on a crafted file looks like from outside


def test_a_reader_that_crashes_is_reported_as_a_property_of_the_file():
    with pytest.raises(LimitExceeded) as info:
        run_bounded(_crash, memory_mb=MEMORY_MB, timeout_s=30)
    assert info.value.kind == "crash"
    assert str(info.value) == (
        "The reader stopped abruptly on this file (SIGSEGV); it may be damaged or built to attack the reader."
    )
    assert _no_children_left()


def test_a_pdf_font_bomb_is_stopped_by_the_memory_budget():
    bomb = builders.pdf_font_bomb(1500)  # 1.5 MB that MuPDF would inflate to 1.5 GB
    with pytest.raises(LimitExceeded) as info:
        run_bounded(reading.read_file, bomb, "bomb.pdf", "pdf", ReadLimits(), memory_mb=MEMORY_MB, timeout_s=120)
    assert info.value.kind == "memory"
    # an upper bound, from the limit itself: the child never held more than its budget beyond what it inherited
    assert info.value.usage.peak_rss_mb <= _resident_mb() + MEMORY_MB


def test_a_pdf_content_bomb_is_stopped_by_the_time_limit():
    bomb = builders.pdf_content_bomb(4096)  # 4 GB of zeros to inflate: far more than 2 seconds
    with pytest.raises(LimitExceeded) as info:
        run_bounded(reading.read_file, bomb, "bomb.pdf", "pdf", ReadLimits(), memory_mb=MEMORY_MB, timeout_s=2)
    assert info.value.kind == "time"
    assert _no_children_left()


# --- the ingest service, in this process ---------------------------------------------------------------------


@pytest.fixture
def stored(collection):
    def store(name: str, data: bytes, doc_type: str) -> IngestJob:
        document = Document(collection=collection, original_name=name, doc_type=doc_type, size=len(data))
        document.sha256 = f"{len(data):064x}"
        document.file.save(name, ContentFile(data), save=False)
        document.save()
        return IngestJob.objects.create(document=document)

    return store


def _ingested(job: IngestJob) -> Document:
    ingest.document_ingest(job_id=job.pk)
    return Document.objects.get(pk=job.document_id)


@override_settings(PORTAL_PARSE_SANDBOX=True, PORTAL_PARSE_TIMEOUT_S=2)
def test_ingest_fails_a_document_whose_reading_runs_past_the_time_limit(stored):
    document = _ingested(stored("slow.pdf", builders.pdf_content_bomb(4096), "pdf"))
    assert document.status == DocumentStatus.FAILED
    assert document.error == (
        "Reading this file took longer than 2 seconds; it may be damaged or built to exhaust the reader."
    )
    assert _no_children_left()


@override_settings(PORTAL_PARSE_SANDBOX=True, PORTAL_PARSE_MEMORY_MB=MEMORY_MB)
def test_ingest_fails_a_document_whose_reading_needs_too_much_memory(stored):
    document = _ingested(stored("bomb.pdf", builders.pdf_font_bomb(1500), "pdf"))
    assert document.status == DocumentStatus.FAILED
    assert f"needed more than {MEMORY_MB} MB of memory" in document.error


@override_settings(PORTAL_PARSE_SANDBOX=True)
def test_a_bug_in_the_reading_process_is_an_unexpected_error_with_its_traceback_logged(stored, monkeypatch, caplog):
    def broken(*args):
        raise KeyError("a bug in the reader")

    monkeypatch.setattr(reading, "read_file", broken)  # the fork inherits the patched module
    with caplog.at_level(logging.ERROR, logger="apps.documents.services.ingest"):
        document = _ingested(stored("fine.txt", b"Perfectly ordinary text.\n", "txt"))
    assert document.status == DocumentStatus.FAILED
    assert document.error.startswith("An unexpected error stopped ingestion (KeyError)")
    assert "a bug in the reader" in caplog.text and "Traceback" in caplog.text


@override_settings(PORTAL_PARSE_SANDBOX=False)
def test_without_the_sandbox_reading_runs_in_this_process(stored, monkeypatch):
    calls = []

    def recorded(*args):
        calls.append(os.getpid())
        raise ParseError("Recorded and refused.")

    monkeypatch.setattr(reading, "read_file", recorded)
    document = _ingested(stored("fine.txt", b"Perfectly ordinary text.\n", "txt"))
    assert calls == [os.getpid()]  # a forked child's append would not be seen here
    assert document.error == "Recorded and refused."
