"""Create the demo collection from the files kept in demo/ and ingest them through the worker."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from apps.documents.management.progress import wait_for_jobs
from apps.documents.models import Collection, Document, Membership, Role
from apps.documents.services.uploads import document_add


class Command(BaseCommand):
    help = "Create the demo collection (demo/manifest.json), make the admin its manager, ingest its files."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--manifest", default=str(Path(settings.BASE_DIR) / "demo" / "manifest.json"))
        parser.add_argument("--wait", action="store_true")
        parser.add_argument("--manager", default="admin", help="user to add as the collection's manager")

    def handle(self, *args, manifest: str, wait: bool, manager: str, **options) -> None:
        path = Path(manifest)
        spec = json.loads(path.read_text())
        info = spec["collection"]
        collection, created = Collection.objects.get_or_create(
            slug=info["slug"], defaults={"name": info["name"], "description": info.get("description", "")}
        )
        user = get_user_model().objects.filter(username=manager).first()
        if user is not None:
            Membership.objects.get_or_create(user=user, collection=collection, defaults={"role": Role.MANAGER})
        job_ids = []
        for item in spec["documents"]:
            file_path = path.parent / item["file"]
            if not file_path.exists():
                raise CommandError(f"{file_path}: listed in the manifest but missing")
            with file_path.open("rb") as fh:
                result = document_add(collection=collection, name=file_path.name, fileobj=fh, user=user)
            if result.outcome == "added":
                Document.objects.filter(pk=result.document.pk).update(title=item.get("title", ""))
                job_ids.append(result.document.latest_job().pk)
        verb = "Created" if created else "Updated"
        self.stdout.write(f"{verb} the demo collection “{collection.name}” ({len(job_ids)} new document(s)).")
        if wait and job_ids:
            wait_for_jobs(job_ids, self.stdout)
