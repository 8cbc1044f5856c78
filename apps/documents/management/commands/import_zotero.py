"""python manage.py import_zotero --zotero-dir PATH --collection SLUG [--dry-run] [--wait]"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.documents.management.progress import wait_for_jobs
from apps.documents.models import Collection, Document
from apps.documents.parsing import SUPPORTED_EXTENSIONS
from apps.documents.services.uploads import UploadRejected, document_add
from apps.documents.zotero import ZoteroError, ZoteroItem, read_library


class Command(BaseCommand):
    help = "Import the files of a Zotero library with Zotero's metadata (title, authors, year, journal, DOI)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--zotero-dir", required=True, help="Zotero's data folder (zotero.sqlite, storage/)")
        parser.add_argument("--collection", required=True)
        parser.add_argument("--dry-run", action="store_true", help="list what would be imported; change nothing")
        parser.add_argument("--wait", action="store_true", help="show ingest progress until done")

    def handle(self, *args, zotero_dir: str, collection: str, dry_run: bool, wait: bool, **options) -> None:
        target = Collection.objects.filter(slug=collection).first()
        if target is None:
            raise CommandError(f"no collection with slug {collection!r}")
        try:
            items = read_library(Path(zotero_dir))
        except ZoteroError as exc:
            raise CommandError(str(exc)) from None
        job_ids, missing, imported = [], 0, 0
        for item in items:
            for attachment in item.attachments:
                label = f"{item.key} “{item.title[:60]}” {attachment.raw_path}"
                if attachment.path is None or attachment.path.suffix.lower() not in SUPPORTED_EXTENSIONS:
                    continue
                if not attachment.exists:
                    self.stderr.write(f"missing file, skipped: {label} (looked at {attachment.path})")
                    missing += 1
                    continue
                if dry_run:
                    self.stdout.write(f"would import {label}")
                    continue
                job_id = self._import(target, item, attachment.path)
                imported += 1
                if job_id:
                    job_ids.append(job_id)
        verb = "Would import" if dry_run else "Imported"
        self.stdout.write(f"{verb} from {len(items)} Zotero item(s); {imported} file(s) added; {missing} missing.")
        if wait and job_ids:
            wait_for_jobs(job_ids, self.stdout)

    def _import(self, collection: Collection, item: ZoteroItem, path: Path) -> int | None:
        try:
            with path.open("rb") as fh:
                result = document_add(collection=collection, name=path.name, fileobj=fh)
        except UploadRejected as exc:
            self.stderr.write(str(exc))
            return None
        # Zotero's metadata is curated by a person: it wins over what ingestion extracts from the file.
        Document.objects.filter(pk=result.document.pk).update(
            title=item.title[:500],
            authors=item.authors,
            year=item.year,
            journal=item.journal[:300],
            doi=item.doi[:200],
            zotero_key=item.key,
            guessed=[],  # nothing of it is guessed
        )
        self.stdout.write(result.message)
        job = result.document.latest_job() if result.outcome != "duplicate" else None
        return job.pk if job else None
