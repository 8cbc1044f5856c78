"""python manage.py ingest PATH... --collection SLUG [--force] [--wait]"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.documents.management.progress import wait_for_jobs
from apps.documents.models import Collection
from apps.documents.parsing import SUPPORTED_EXTENSIONS
from apps.documents.services.uploads import UploadRejected, document_add


class Command(BaseCommand):
    help = "Add files (or every supported file under folders) to a collection and ingest them through the worker."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+")
        parser.add_argument("--collection", required=True, help="the collection's slug")
        parser.add_argument("--force", action="store_true", help="read files again even if already present")
        parser.add_argument("--wait", action="store_true", help="show progress until every file is done")

    def handle(self, *args, paths: list[str], collection: str, force: bool, wait: bool, **options) -> None:
        target = Collection.objects.filter(slug=collection).first()
        if target is None:
            raise CommandError(f"no collection with slug {collection!r}; create it in the admin first")
        files = list(_expand(paths))
        if not files:
            raise CommandError("no supported files found in the given paths")
        job_ids, failed = [], 0
        for path in files:
            try:
                with path.open("rb") as fh:
                    result = document_add(collection=target, name=path.name, fileobj=fh, force=force)
            except UploadRejected as exc:
                self.stderr.write(str(exc))
                failed += 1
                continue
            self.stdout.write(result.message)
            if result.outcome != "duplicate":
                job_ids.append(result.document.latest_job().pk)
        if wait and job_ids:
            jobs = wait_for_jobs(job_ids, self.stdout)
            failed += sum(1 for job in jobs if job.stage == "failed")
        if failed:
            raise CommandError(f"{failed} file(s) could not be ingested")


def _expand(paths: list[str]):
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() in SUPPORTED_EXTENSIONS)
        elif path.exists():
            yield path
        else:
            raise CommandError(f"{raw}: no such file or folder")
