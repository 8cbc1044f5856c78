from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from apps.documents.models import Chunk, Collection, Document, IngestJob


class CollectionSerializer(serializers.ModelSerializer):
    document_count = serializers.IntegerField(read_only=True)
    ready_count = serializers.IntegerField(read_only=True)
    role = serializers.SerializerMethodField()

    class Meta:
        model = Collection
        fields = ["slug", "name", "description", "document_count", "ready_count", "role", "created_at"]

    def get_role(self, collection: Collection) -> str | None:
        return self.context.get("roles", {}).get(collection.pk)


class IngestJobSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)
    finished = serializers.BooleanField(read_only=True)

    class Meta:
        model = IngestJob
        fields = ["id", "stage", "done", "total", "percent", "finished", "error", "created_at", "finished_at"]


class DocumentSerializer(serializers.ModelSerializer):
    collection = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    job = serializers.SerializerMethodField()
    file_url = serializers.SerializerMethodField()

    class Meta:
        model = Document
        fields = [
            "id",
            "collection",
            "title",
            "original_name",
            "doc_type",
            "size",
            "sha256",
            "status",
            "error",
            "page_count",
            "chunk_count",
            "created_at",
            "updated_at",
            "job",
            "file_url",
        ]

    def get_job(self, document: Document) -> dict | None:
        job = document.latest_job()
        return IngestJobSerializer(job).data if job else None

    def get_file_url(self, document: Document) -> str:
        return reverse("api-document-file", kwargs={"document_id": document.pk})


class ChunkPreviewSerializer(serializers.ModelSerializer):
    metadata = serializers.SerializerMethodField()

    class Meta:
        model = Chunk
        fields = ["chunk_index", "text", "metadata"]

    def get_metadata(self, chunk: Chunk) -> dict:
        return {
            "section": chunk.section,
            "heading_path": chunk.heading_path,
            "chunk_type": chunk.chunk_type,
            "weight": chunk.weight,
            "page": chunk.page,
            "page_end": chunk.page_end,
            "rects": chunk.locator.get("rects", []),
            "page_sizes": chunk.locator.get("page_sizes", {}),
            "para_start": chunk.para_start,
            "para_end": chunk.para_end,
            "para_ids": chunk.locator.get("para_ids", []),
            "line_start": chunk.line_start,
            "line_end": chunk.line_end,
            "locator_precision": chunk.locator_precision,
            "locator_degraded": chunk.locator_degraded,
        }


class PreviewSerializer(serializers.Serializer):
    """The shape of GET /api/v1/documents/{id}/preview (design.md)."""

    document_id = serializers.IntegerField()
    total_chunks = serializers.IntegerField()
    target_index = serializers.IntegerField()
    chunks = ChunkPreviewSerializer(many=True)
