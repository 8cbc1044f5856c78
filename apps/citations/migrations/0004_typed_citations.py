"""Stored citations of every answer brought to version 2 of their shape (apps/citations/answers/citation.py), so
they are read back as Citation objects without compatibility defaults in the code that reads them.

Answers stored before a field existed (line numbers and the OCR flag came in December 2026; the chunk hash, the
evidence number and the status were added by hand after the citation was built) get the field's neutral value: no
lines, not OCR'd, no hash (the passage then reads as changed, as it did). The values are written out here, not read
from the dataclass, so this migration means the same thing whatever the class becomes. Keys the class does not know
are kept: the API returns a message's `result` as stored.
"""

from copy import deepcopy

from django.db import migrations

VERSION = 2
NEUTRAL = {
    "section": "",
    "section_key": "",
    "heading_path": [],
    "chunk_type": "text",
    "locator_precision": "file",
    "locator_degraded": False,
    "page": None,
    "page_end": None,
    "rects": [],
    "para_start": None,
    "para_end": None,
    "line_start": None,
    "line_end": None,
    "ocr": False,
    "collection": "",
    "title": "",
    "authors": [],
    "year": None,
    "journal": "",
    "doi": "",
    "source": "",
    "doc_type": "",
    "content": "",
    "page_size": {},
    "score": 0.0,
    "score_source": "",
    "viewer_url": "",
    "citation_id": "",
    "quote": "",
    "chunk_hash": "",
    "citations_out": [],
    "status": "current",
    "status_note": "",
    # A citation that does not say what it cites points at nothing: it reads as deleted, never at another passage.
    "chunk_id": 0,
    "chunk_index": 0,
    "document_id": 0,
}


def _upgraded(items: list) -> list:
    out = []
    for position, item in enumerate(items, start=1):
        item = dict(item)
        n = item.setdefault("n", position)
        item.setdefault("evidence_number", n)
        for key, value in NEUTRAL.items():
            item.setdefault(key, deepcopy(value))  # a list or dict of its own, not one shared by every citation
        out.append(item)
    return out


def forwards(apps, schema_editor):
    Message = apps.get_model("citations", "Message")
    changed = []
    for message in Message.objects.only("pk", "result").iterator(chunk_size=500):
        result = message.result
        if not isinstance(result, dict) or not result or result.get("version") == VERSION:
            continue
        result["citations"] = _upgraded(result.get("citations") or [])
        result["topic_passages"] = _upgraded(result.get("topic_passages") or [])
        result["version"] = VERSION
        changed.append(message)
        if len(changed) >= 500:
            Message.objects.bulk_update(changed, ["result"])
            changed = []
    if changed:
        Message.objects.bulk_update(changed, ["result"])


class Migration(migrations.Migration):
    dependencies = [("citations", "0003_messages")]

    # Backwards: nothing to undo; the older code reads the added keys as it read its own.
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
