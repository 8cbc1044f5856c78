"""Ingest benchmark through the real worker: pages/s, chunks/s, wall time over pure embedding time,
unchanged re-ingest time, and the worker's peak memory.

Needs a running stack (e.g. `python3 portalctl.py run --no-demo` in another terminal, or DATABASE_URL/REDIS_URL
with a worker), then:  .venv/bin/python bench/ingest/run.py [--json] [--limit N]
It uses a throwaway collection `bench-ingest`, emptied first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")


def corpus_files(limit: int | None) -> list[Path]:
    pdfs = sorted(CORPUS.glob("sci-pdf-jats/papers/*/paper.pdf")) + sorted(CORPUS.glob("sci-pdf-other/*.pdf"))
    docx = sorted(CORPUS.glob("docx-pandoc-tests/*/*.docx")) + sorted(CORPUS.glob("docx-docxjs-render-tests/*/*.docx"))
    files = pdfs + docx
    return files[:limit] if limit else files


def worker_peak_rss_mb() -> float | None:
    """Peak resident memory (VmHWM) of the Celery worker processes on this machine, the largest one."""
    import psutil

    peaks = []
    for proc in psutil.process_iter(["cmdline"]):
        cmd = " ".join(proc.info["cmdline"] or [])
        if "celery" in cmd and " worker" in cmd:
            try:
                status = Path(f"/proc/{proc.pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
    return max(peaks) if peaks else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings

    from apps.documents.management.progress import wait_for_jobs
    from apps.documents.models import Chunk, Collection, Document
    from apps.documents.services.documents import document_delete
    from apps.documents.services.uploads import document_add
    from apps.retrieval.embedding.encoder import get_embedder

    collection, _ = Collection.objects.get_or_create(slug="bench-ingest", defaults={"name": "Ingest benchmark"})
    for document in collection.documents.all():
        document_delete(document=document)
    files = corpus_files(args.limit)

    class Quiet:
        def write(self, _line: str) -> None:
            pass

    started = time.perf_counter()
    job_ids = []
    for path in files:
        with path.open("rb") as fh:
            result = document_add(collection=collection, name=f"{path.parent.name}-{path.name}", fileobj=fh)
        if result.outcome == "added":
            job_ids.append(result.document.latest_job().pk)
    jobs = wait_for_jobs(job_ids, Quiet())
    wall = time.perf_counter() - started

    documents = Document.objects.filter(collection=collection)
    failed = [d.original_name for d in documents if d.status != "ready"]
    pages = sum(d.page_count or 0 for d in documents)
    chunks = Chunk.objects.filter(document__collection=collection)
    texts = list(chunks.filter(weight__gt=0).values_list("text", flat=True))

    started = time.perf_counter()
    for path in files:
        with path.open("rb") as fh:
            document_add(collection=collection, name=f"{path.parent.name}-{path.name}", fileobj=fh)
    unchanged = time.perf_counter() - started

    embedder = get_embedder(settings.PORTAL_EMBEDDING_MODEL)
    embedder.embed_passages(texts[:8])  # warm-up, as a worker that has embedded before
    started = time.perf_counter()
    embedder.embed_passages(texts, batch_size=32)
    pure_embedding = time.perf_counter() - started

    # Where the worker's time went, measured inside each job (robust to other load on the machine).
    steps: dict[str, float] = {}
    for job in jobs:
        for step, seconds in (job.timings or {}).items():
            steps[step] = steps.get(step, 0.0) + seconds
    in_worker = sum(steps.values())
    result = {
        "files": len(files),
        "documents_ready": documents.count() - len(failed),
        "failed": failed,
        "pages": pages,
        "chunks": chunks.count(),
        "embedded_chunks": len(texts),
        "wall_s": round(wall, 1),
        "pages_per_s": round(pages / wall, 2),
        "chunks_per_s": round(chunks.count() / wall, 2),
        "pure_embedding_s": round(pure_embedding, 1),
        "wall_over_embedding": round(wall / pure_embedding, 2),
        "worker_step_s": {step: round(seconds, 1) for step, seconds in steps.items()},
        "worker_total_over_embed_step": round(in_worker / steps["embed"], 2) if steps.get("embed") else None,
        "unchanged_reingest_s": round(unchanged, 2),
        "unchanged_over_first": round(unchanged / wall, 4),
        "worker_peak_rss_mb": worker_peak_rss_mb(),
        "embedding_model": embedder.model_id,
        "jobs_failed": sum(1 for j in jobs if j.stage == "failed"),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
