"""What search keeps beside the chunks: the log of changes and the saved keyword indexes."""

from __future__ import annotations

from django.db import models

from apps.documents.models import Collection


class IndexChange(models.Model):
    """A document of a collection was (re-)ingested or deleted.

    The log that every process's in-memory keyword index follows (apply the changes after the one it has seen),
    and whose last id per collection (`Collection.index_version`) is part of every search cache key. Rows are
    written under a lock on the collection row, so per collection they commit in id order and a reader that has
    seen id N has seen every change before it.
    """

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="+")
    document_id = models.BigIntegerField()  # no foreign key: the document may be gone
    # The chunk ids the document had before the change: what an index built earlier must forget.
    removed_chunk_ids = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["collection", "id"], name="indexchange_collection_id")]

    def __str__(self) -> str:
        return f"change {self.pk}: document {self.document_id} in collection {self.collection_id}"


class KeywordSnapshot(models.Model):
    """A collection's BM25 index as bytes, with every change up to `upto_change` folded in (written by workers)."""

    collection = models.OneToOneField(Collection, on_delete=models.CASCADE, primary_key=True, related_name="+")
    upto_change = models.BigIntegerField(default=0)
    analyzer_version = models.CharField(max_length=20)
    chunk_count = models.PositiveIntegerField(default=0)
    data = models.BinaryField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"keyword index of collection {self.collection_id} up to change {self.upto_change}"
