"""The events of a document's life other apps follow (search's change log and indexes, citations' reference links),
connected from their own `ready()`. Receivers run in the order the apps are installed, synchronously and inside the
sender's transaction, so what they write commits or rolls back with the change itself; an error in one fails the
change, as a direct call would.
"""

from __future__ import annotations

from django.dispatch import Signal

# The document's passages were replaced (an ingest finished): document, removed_chunk_ids.
document_indexed = Signal()
# Documents were added at once with their passages (services/bulk.py): collection_id, document_ids.
documents_added = Signal()
# A document was deleted (its chunks with it): collection_id, document_id, removed_chunk_ids.
document_deleted = Signal()
# A collection and everything in it was deleted; sent after the deletion committed: collection_id.
collection_deleted = Signal()
