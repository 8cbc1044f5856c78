"""Viewer benchmark for a long workbook (issue 14): one view and 8 parallel views, before and after bounded rendering.

Before: a view parsed the original file in the web process and drew it (the code of git HEAD~ or any REV given
with --before-rev, loaded from git into a temporary package). After: the worker draws the pages once while it
reads the file (timed here as `render_s`, part of ingest) and a view reads one stored page.

Needs PostgreSQL (DATABASE_URL, migrated: `manage.py migrate`) and runs the viewer through Django's test client
in this process, on a throwaway collection `bench-render`:
    .venv/bin/python bench/render/run.py [--rows 200000] [--before-rev REV] [--no-before] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")


def workbook(rows: int) -> bytes:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Counts")
    sheet.append(["id", "site", "species", "count"])
    for i in range(rows):
        sheet.append([i, f"site {i % 97}", f"species {i % 13}", i % 50])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def old_renderer(rev: str):
    """apps/documents/rendering as it was at `rev`, importable as a package of its own."""
    folder = Path(tempfile.mkdtemp(prefix="old-render-")) / "old_rendering"
    folder.mkdir()
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "apps/documents/rendering/"], cwd=ROOT, capture_output=True, text=True
    )
    for path in listing.stdout.split():
        source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True).stdout
        (folder / Path(path).name).write_text(source)
    sys.path.insert(0, str(folder.parent))
    return importlib.import_module("old_rendering")


def time_before(data: bytes, rev: str) -> dict:
    """One view as it was: parse the file, draw it (the old renderer cut a sheet at 20,000 rows)."""
    from apps.documents.parsing import parse_document

    old = old_renderer(rev)
    started = time.perf_counter()
    html = old.render_parsed(parse_document(data, "counts.xlsx"), data)
    return {"view_s": round(time.perf_counter() - started, 2), "html_bytes": len(str(html))}


def prepare(data: bytes) -> tuple[object, list, dict]:
    """A READY document with its chunks and stored pages, as the worker leaves it; the worker's render time."""
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from apps.documents.models import Chunk, Collection, Document, DocumentStatus, Membership
    from apps.documents.parsing import chunk_document, parse_document
    from apps.documents.rendering import render_reading
    from apps.documents.rendering.store import save_pages
    from apps.documents.services.ingest import chunk_row

    Collection.objects.filter(slug="bench-render").delete()
    collection = Collection.objects.create(name="Bench render", slug="bench-render")
    user, _ = get_user_model().objects.get_or_create(username="bench-render")
    Membership.objects.create(user=user, collection=collection, role="viewer")
    started = time.perf_counter()
    parsed = parse_document(data, "counts.xlsx")
    drafts = chunk_document(parsed)
    parse_s = time.perf_counter() - started
    started = time.perf_counter()
    pages = render_reading(parsed, data, drafts)
    render_s = time.perf_counter() - started
    document = Document(
        collection=collection, original_name="counts.xlsx", doc_type="xlsx", size=len(data), sha256="e" * 64
    )
    document.status = DocumentStatus.READY
    document.file.save("counts.xlsx", ContentFile(data), save=False)
    document.save()
    Chunk.objects.bulk_create([chunk_row(document, draft, {}) for draft in drafts], batch_size=500)
    save_pages(document, pages)
    worker = {
        "parse_and_chunk_s": round(parse_s, 2),
        "render_s": round(render_s, 2),
        "pages": len(pages.pages),
        "chunks": len(drafts),
        "stored_bytes": sum(len(page) for page in pages.pages),
    }
    return document, user, worker


def time_after(document, user, views: int, parallel: int) -> dict:
    from django.conf import settings
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    from apps.documents.views.viewer import viewer_url

    setup_test_environment()
    # The page's static links need no collected manifest here (no collectstatic for a benchmark).
    static = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    override_settings(STORAGES={**settings.STORAGES, "staticfiles": static}).enable()
    total = document.chunks.count()
    targets = [int(total * k / views) for k in range(views)]

    def view(chunk_index: int) -> float:
        from django.db import connection

        client = Client()
        client.force_login(user)
        started = time.perf_counter()
        response = client.get(viewer_url(document.pk, chunk_index), secure=True)  # as behind the TLS proxy
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, response.status_code
        connection.close()
        return elapsed

    one = [view(index) for index in targets]
    started = time.perf_counter()
    with ThreadPoolExecutor(parallel) as pool:
        together = list(pool.map(view, targets[:parallel]))
    wall = time.perf_counter() - started
    return {
        "view_p50_s": round(statistics.median(one), 3),
        "view_max_s": round(max(one), 3),
        f"{parallel}_parallel_wall_s": round(wall, 3),
        f"{parallel}_parallel_max_s": round(max(together), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--before-rev", default="HEAD")
    parser.add_argument("--no-before", action="store_true")
    parser.add_argument("--views", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    data = workbook(args.rows)
    result: dict = {"rows": args.rows, "file_mb": round(len(data) / 1e6, 1)}
    if not args.no_before:
        result["before"] = time_before(data, args.before_rev)
        print("before:", result["before"], file=sys.stderr)
    document, user, result["worker"] = prepare(data)
    result["after"] = time_after(document, user, args.views, args.parallel)
    print(json.dumps(result, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
