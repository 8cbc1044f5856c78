"""Adding files to a collection: checks, content hash, storage, and the ingest job."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO

from django.conf import settings
from django.core.files import File
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from apps.documents.models import Collection, Document, DocumentStatus
from apps.documents.parsing import SUPPORTED_EXTENSIONS
from apps.documents.services.filenames import clean_name, storage_name
from apps.documents.services.ingest import ingest_enqueue, ingest_queued

_HASH_BLOCK = 1024 * 1024


class UploadRejected(Exception):
    """The file cannot be added; the message says why in words a person understands."""


@dataclass(frozen=True)
class AddResult:
    document: Document
    outcome: str  # "added" | "duplicate" | "reingested"
    queued: bool = True  # False: the task queue was unreachable; the job is sent once it is back

    @property
    def message(self) -> str:
        name = self.document.display_title
        if not self.queued:
            return _(
                "“%(name)s” was stored, but the task queue cannot be reached right now; "
                "it will be read as soon as the queue is back."
            ) % {"name": name}
        if self.outcome == "duplicate":
            return _("“%(name)s” is already in this collection (same content); it was not added again.") % {
                "name": name
            }
        if self.outcome == "reingested":
            return _("“%(name)s” is being read again.") % {"name": name}
        return _("“%(name)s” was added and is being read.") % {"name": name}


def _sha256(fileobj: IO[bytes]) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    fileobj.seek(0)
    while block := fileobj.read(_HASH_BLOCK):
        digest.update(block)
        size += len(block)
    fileobj.seek(0)
    return digest.hexdigest(), size


def check_upload(name: str, size: int) -> None:
    suffix = PurePath(name).suffix.lower()
    if suffix not in SUPPORTED_EXTENSIONS:
        kinds = ", ".join(sorted(SUPPORTED_EXTENSIONS))
        raise UploadRejected(
            _("“%(name)s”: files of type %(suffix)s are not supported; use %(kinds)s.")
            % {"name": name, "suffix": suffix or _("(none)"), "kinds": kinds}
        )
    limit = settings.PORTAL_MAX_UPLOAD_MB
    if size > limit * 1024 * 1024:
        raise UploadRejected(
            _("“%(name)s” is %(size)s MB; the limit is %(limit)s MB.")
            % {"name": name, "size": f"{size / 1048576:.1f}", "limit": limit}
        )
    if size == 0:
        raise UploadRejected(_("“%(name)s” is empty.") % {"name": name})


def document_add(*, collection: Collection, name: str, fileobj: IO[bytes], user=None, force: bool = False) -> AddResult:
    """Store a file in `collection` and queue its ingestion, unless the same bytes are already there."""
    name = clean_name(name)  # what people see: no path, control or bidirectional characters
    sha256, size = _sha256(fileobj)
    check_upload(name, size)
    existing = Document.objects.filter(collection=collection, sha256=sha256).first()
    if existing is not None:
        return _already_there(existing, force)

    document = Document(
        collection=collection,
        original_name=name,
        title="",
        doc_type=PurePath(name).suffix.lower().lstrip("."),
        size=size,
        sha256=sha256,
        status=DocumentStatus.PENDING,
        uploaded_by=user if user is not None and user.is_authenticated else None,
    )
    # The row and the stored file belong together: if the row cannot be saved, the file is removed again.
    document.file.save(storage_name(name), File(fileobj, name=name), save=False)
    try:
        with transaction.atomic():
            document.save()
            job = ingest_enqueue(document)
    except IntegrityError:
        document.file.storage.delete(document.file.name)
        # The same bytes uploaded twice at once: both found no copy above, and the unique constraint
        # (one_copy_per_collection) let only the first insert through. The others answer as if they had come second.
        existing = Document.objects.filter(collection=collection, sha256=sha256).first()
        if existing is None:
            raise  # another constraint, or the copy was deleted again meanwhile: not a duplicate
        return _already_there(existing, force)
    except Exception:
        document.file.storage.delete(document.file.name)
        raise
    return AddResult(document, "added", queued=ingest_queued(job))


def _already_there(existing: Document, force: bool) -> AddResult:
    if not force:
        return AddResult(existing, "duplicate")
    job = ingest_enqueue(existing)
    return AddResult(existing, "reingested", queued=ingest_queued(job))
