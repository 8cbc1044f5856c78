"""What an ingest job keeps between its tasks, so a long embedding can stop and go on where it stopped.

The passages read from the file wait as StagedChunk rows, each with its vector once its batch is embedded; what
else reading found (references, metadata, page count) waits as JSON on IngestJob.reading. Everything here is plain
JSON (task arguments and stored state alike: nothing pickled), and every write happens inside the caller's
transaction, together with the step count it belongs to (services/ingest.py).
"""

from __future__ import annotations

import json

from apps.documents.extensions import reading_extras
from apps.documents.models import Chunk, Document, IngestJob, StagedChunk
from apps.documents.parsing import ChunkDraft
from apps.documents.services.reading import Reading

_INSERT_BATCH = 500
# The parser's metadata that ingest uses (services/ingest.py _metadata_updates); anything else is not kept.
_METADATA_KEYS = (
    *("title", "title_guessed", "authors", "authors_guessed", "year", "journal", "doi"),
    *("text_encoding", "text_encoding_source"),  # how a text file was decoded (parsing/encoding.py)
)


def chunk_fields(draft: ChunkDraft, page_sizes: dict) -> dict:
    """A Chunk's fields (all but its document) for `draft`, as JSON-safe values."""
    pages = {r.page for r in draft.rects}
    return {
        "chunk_index": draft.chunk_index,
        "text": draft.text,
        "section": draft.section[:300],
        "section_key": draft.section_key,
        "heading_path": list(draft.heading_path),
        "chunk_type": draft.chunk_type,
        "weight": draft.weight,
        "page": draft.page,
        "page_end": draft.page_end,
        "para_start": draft.para_start,
        "para_end": draft.para_end,
        "line_start": draft.line_start,
        "line_end": draft.line_end,
        "locator": {
            "rects": [{"page": r.page, "x0": r.x0, "y0": r.y0, "x1": r.x1, "y1": r.y1} for r in draft.rects],
            "page_sizes": {str(p): list(page_sizes[p]) for p in sorted(pages) if p in page_sizes},
            "para_ids": list(draft.para_ids),
            **ocr_locator(draft),
        },
        "locator_precision": draft.locator_precision,
        "locator_degraded": draft.locator_degraded,
    }


def ocr_locator(draft: ChunkDraft) -> dict:
    """For text recognised by OCR: the flag, and the recognised lines (text and box), which the viewer searches
    for a quote's boxes since the page has no text layer (quote_places.py)."""
    if not draft.ocr:
        return {}
    lines = [{"text": text, **rect.as_dict()} for text, rect in draft.ocr_lines]
    return {"ocr": True, "ocr_lines": lines}


def reading_state(reading: Reading, *, model_id: str) -> dict:
    """IngestJob.reading for `reading`: what the indexing task needs besides the passages."""
    parsed = reading.parsed
    metadata = {key: parsed.metadata[key] for key in _METADATA_KEYS if key in parsed.metadata}
    return {
        "doc_type": parsed.doc_type,
        "page_count": parsed.page_count,
        "needs_ocr_pages": list(parsed.needs_ocr_pages),
        # default=str: a parser's date or other odd value survives as text rather than failing the job
        "metadata": json.loads(json.dumps(metadata, default=str)),
        # What the registered extras read, as JSON, by extra (citations': {"entries": [...], "mentions": [...]}).
        "extras": {extra.name: extra.to_state(reading.extras[extra.name]) for extra in _read_extras(reading)},
        # Every batch of one document is embedded by the same model: a worker with another one refuses to go on.
        "model_id": model_id,
    }


def _read_extras(reading: Reading) -> list:
    return [extra for extra in reading_extras() if extra.name in reading.extras]


def store_extras(state: dict, document: Document, rows: list[Chunk]) -> None:
    """Store what the registered extras read with the document; call inside the transaction that replaces its
    chunks. An extra registered after the job was read (an upgrade mid-ingest) finds nothing and stores nothing."""
    kept = state.get("extras", {})
    for extra in reading_extras():
        if extra.name in kept:
            extra.store(document, rows, kept[extra.name])


def stage_passages(job: IngestJob, reading: Reading) -> int:
    """Replace the job's staged passages with those of `reading`; returns how many need a vector."""
    StagedChunk.objects.filter(job=job).delete()  # a reading task that died half-way left some behind
    page_sizes = reading.parsed.page_sizes
    rows = [
        StagedChunk(job=job, chunk_index=d.chunk_index, weight=d.weight, fields=chunk_fields(d, page_sizes))
        for d in reading.drafts
    ]
    for start in range(0, len(rows), _INSERT_BATCH):
        StagedChunk.objects.bulk_create(rows[start : start + _INSERT_BATCH])
    # Weight-0 chunks (references, acknowledgements) are never retrieved: no vector, less time.
    return sum(1 for row in rows if row.weight > 0)


def next_batch(job: IngestJob, size: int) -> list[StagedChunk]:
    """The next `size` passages of the job that still need a vector, in document order."""
    waiting = StagedChunk.objects.filter(job=job, weight__gt=0, embedding__isnull=True)
    return list(waiting.order_by("chunk_index").only("id", "chunk_index", "fields")[:size])


def store_vectors(batch: list[StagedChunk]) -> None:
    StagedChunk.objects.bulk_update(batch, ["embedding"])


def waiting_count(job: IngestJob) -> int:
    return StagedChunk.objects.filter(job=job, weight__gt=0, embedding__isnull=True).count()


def chunk_rows(job: IngestJob, document: Document) -> list[Chunk]:
    """The job's passages as the Chunk rows the document is to get, with their vectors."""
    staged = StagedChunk.objects.filter(job=job).order_by("chunk_index")
    return [Chunk(document=document, embedding=row.embedding, **row.fields) for row in staged.iterator(2000)]


def discard(job: IngestJob) -> None:
    StagedChunk.objects.filter(job=job).delete()
