"""The viewer's pages of a document, kept beside its file through Django's storage API (local folder or S3).

`renders/<document id>/v<RENDERER_VERSION>-<sha256[:16]>/` holds one zlib-compressed HTML file per page and an
index (each page's first and last chunk), written last: a folder without an index is not a render. The worker
writes it when it reads the document (services/reading.py), so the web process only ever reads one page.
"""

from __future__ import annotations

import json
import logging
import zlib
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import Storage

from apps.documents.models import Document

from .pages import RenderedPages, page_of

log = logging.getLogger(__name__)

RENDERER_VERSION = 2  # raise it whenever the HTML or the parse behind it changes: older renders are then rebuilt
ROOT = "renders"


@dataclass(frozen=True)
class StoredIndex:
    ranges: list[tuple[int, int]]

    @property
    def count(self) -> int:
        return len(self.ranges)

    def page_of(self, chunk_index: int) -> int:
        return page_of([first for first, _ in self.ranges], chunk_index)


def _storage(document: Document) -> Storage:
    return document.file.storage


def _folder(document: Document) -> str:
    return f"{ROOT}/{document.pk}/v{RENDERER_VERSION}-{document.sha256[:16]}"


def _page_name(document: Document, number: int) -> str:
    return f"{_folder(document)}/page-{number:05d}.html.z"


def save_pages(document: Document, rendered: RenderedPages) -> None:
    """Replace the document's stored pages (every earlier render of it goes)."""
    delete_pages(document.pk, storage=_storage(document))
    storage = _storage(document)
    for number, page in enumerate(rendered.pages):
        storage.save(_page_name(document, number), ContentFile(page))
    index = json.dumps({"version": RENDERER_VERSION, "ranges": rendered.ranges}).encode()
    storage.save(f"{_folder(document)}/index.json", ContentFile(index))


def load_index(document: Document) -> StoredIndex | None:
    """The stored render's index; None when there is none (not rendered yet, or by an older renderer)."""
    try:
        with _storage(document).open(f"{_folder(document)}/index.json", "rb") as handle:
            data = json.loads(handle.read())
    except (FileNotFoundError, OSError, ValueError):
        return None
    return StoredIndex(ranges=[(int(first), int(last)) for first, last in data["ranges"]])


def load_page(document: Document, number: int) -> str | None:
    """One page's HTML, as the renderer stored it (every text in it escaped); None when it is missing."""
    try:
        with _storage(document).open(_page_name(document, number), "rb") as handle:
            return zlib.decompress(handle.read()).decode()
    except (FileNotFoundError, OSError, zlib.error):
        log.warning("page %s of the render of document %s is missing", number, document.pk)
        return None


def delete_pages(document_id: int, *, storage: Storage) -> None:
    """Remove every stored render of a document (on delete, and before a new one is written)."""
    top = f"{ROOT}/{document_id}"
    try:
        folders, files = storage.listdir(top)
    except (FileNotFoundError, NotImplementedError, OSError):
        return
    for name in files:
        storage.delete(f"{top}/{name}")
    for folder in folders:
        _, names = storage.listdir(f"{top}/{folder}")
        for name in names:
            storage.delete(f"{top}/{folder}/{name}")
