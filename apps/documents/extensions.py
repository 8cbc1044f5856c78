"""What the apps above documents add to a document's life: registered from their own `ready()` (the way
paperless-ngx registers consume plugins), so documents imports none of them.

- Reading extras: something more read from the file inside the bounded reading child (citations: the reference
  list and the in-text citations), kept on the ingest job as JSON until the document is indexed, then stored with
  its passages in the indexing transaction.
- The ingest embedder: the model that embeds passages is retrieval's.
- Document panels: sections of the document page another app draws (citations: related documents, the reference
  list).
- Viewer panels: what the viewer shows about where it was opened from (citations: the answer's citations to step
  through, and the quote the passage was cited for, which the viewer places on the page).
- Unsent-task senders: tasks of other apps whose message could not reach the broker, sent again by the worker's
  sweep and `resume_ingest --unsent` together with ingest's own.

The events of a document's life (indexed, added in bulk, deleted, collection deleted) are Django signals:
apps/documents/signals.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from django.http import HttpRequest

    from apps.documents.models import Chunk, Document
    from apps.documents.parsing import ChunkDraft, ParsedDocument


@dataclass(frozen=True)
class ReadingExtra:
    name: str  # its key in Reading.extras and on the job, and its lap in the job's timings
    read: Callable[[ParsedDocument, list[ChunkDraft], bytes], Any]  # in the bounded child; the value is pickled
    to_state: Callable[[Any], Any]  # the value as JSON, kept on the job between its tasks
    store: Callable[[Document, list[Chunk], Any], None]  # from that JSON; called inside the indexing transaction


class PassageEmbedder(Protocol):
    model_id: str

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class UnsentSender:
    what: str  # what it sends, for the log and the command's report: "relink(s) of reference links"
    send: Callable[[], int]  # sends what could not be queued earlier; returns how many


@dataclass(frozen=True)
class DocumentPanel:
    name: str
    template: str  # drawn with `document` and `panel` (what `context` returned) in its context
    context: Callable[[Document], dict | None]  # None: nothing to show for this document, the panel is left out


@dataclass(frozen=True)
class ViewerPanel:
    name: str
    template: str  # drawn in the viewer's head with `panel` (what `context` returned) in its context
    # None: nothing to show for this request. A PanelQuote under "quote" in what it returns is placed by the viewer
    # on the passage it opens at (quote_places.add_quote).
    context: Callable[[HttpRequest, Document], dict | None]


@dataclass(frozen=True)
class PanelQuote:
    """Words a viewer panel asks the viewer to mark in a passage: citations' quote of the passage it was cited for."""

    chunk_index: int  # placed only while the viewer shows this chunk
    text: str


_reading_extras: dict[str, ReadingExtra] = {}
_viewer_panels: dict[str, ViewerPanel] = {}
_document_panels: dict[str, DocumentPanel] = {}
_unsent_senders: dict[str, UnsentSender] = {}
_embedder: list[Callable[[], PassageEmbedder]] = []


def register_reading_extra(extra: ReadingExtra) -> None:
    _reading_extras[extra.name] = extra  # by name: a second ready() (tests, autoreload) replaces, never doubles


def reading_extras() -> list[ReadingExtra]:
    return list(_reading_extras.values())


def register_document_panel(panel: DocumentPanel) -> None:
    _document_panels[panel.name] = panel


def document_panels(document: Document) -> list[tuple[str, dict]]:
    """(template, context) of each registered panel with something to show for `document`, in registration order."""
    drawn = ((panel.template, panel.context(document)) for panel in _document_panels.values())
    return [(template, context) for template, context in drawn if context is not None]


def register_viewer_panel(panel: ViewerPanel) -> None:
    _viewer_panels[panel.name] = panel


def viewer_panels(request: HttpRequest, document: Document) -> list[tuple[str, dict]]:
    """(template, context) of each registered viewer panel with something to show, in registration order."""
    drawn = ((panel.template, panel.context(request, document)) for panel in _viewer_panels.values())
    return [(template, context) for template, context in drawn if context is not None]


def register_unsent_sender(sender: UnsentSender) -> None:
    _unsent_senders[sender.what] = sender


def unsent_senders() -> list[UnsentSender]:
    return list(_unsent_senders.values())


def register_ingest_embedder(get: Callable[[], PassageEmbedder]) -> None:
    _embedder[:] = [get]


def ingest_embedder() -> PassageEmbedder:
    """The embedder passages are embedded with at ingest (registered by retrieval)."""
    if not _embedder:
        raise RuntimeError("no ingest embedder registered: apps.retrieval must be in INSTALLED_APPS")
    return _embedder[0]()
