from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.documents.locators import Locator
from apps.documents.models import Chunk, Collection, Document, IngestJob
from apps.documents.selectors import queue_position
from portal.heartbeat import recent_ingestion_status


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
    paused = serializers.SerializerMethodField(
        help_text='why an unfinished job does not move ("Ingestion is paused: no worker is running"), else null'
    )

    queued_ahead = serializers.SerializerMethodField(
        help_text="while the job is queued: how many queued jobs the worker takes before it (0: next); else null"
    )

    class Meta:
        model = IngestJob
        fields = [
            "id",
            "stage",
            "done",
            "total",
            "percent",
            "finished",
            "error",
            "created_at",
            "finished_at",
            "paused",
            "queued_ahead",
        ]

    def get_queued_ahead(self, job: IngestJob) -> int | None:
        return queue_position(job)

    def get_paused(self, job: IngestJob) -> str | None:
        if job.finished:
            return None
        ingestion = recent_ingestion_status()  # worker heartbeats (portal/heartbeat.py)
        return ingestion.reason if ingestion.paused else None


class DocumentSerializer(serializers.ModelSerializer):
    collection = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    authors = serializers.ListField(child=serializers.CharField(), read_only=True)
    guessed = serializers.ListField(
        child=serializers.ChoiceField(choices=["title", "authors"]),
        read_only=True,
        help_text="which of title and authors were read from the first page (the file's metadata names none)",
    )
    text_encoding = serializers.CharField(
        read_only=True, help_text='how a text file (txt, md, html) was decoded: a codec name ("gb18030"); else ""'
    )
    text_encoding_source = serializers.CharField(
        read_only=True, help_text="how text_encoding was chosen: bom, utf-8, declared, detected or assumed"
    )
    job = serializers.SerializerMethodField()
    file_url = serializers.SerializerMethodField()

    class Meta:
        model = Document
        fields = [
            "id",
            "collection",
            "title",
            "authors",
            "year",
            "journal",
            "doi",
            "guessed",
            "original_name",
            "doc_type",
            "size",
            "sha256",
            "status",
            "error",
            "page_count",
            "chunk_count",
            "text_encoding",
            "text_encoding_source",
            "created_at",
            "updated_at",
            "job",
            "file_url",
        ]
        read_only_fields = ["year", "journal", "doi"]

    @extend_schema_field(IngestJobSerializer(allow_null=True, help_text="the latest ingest job and its progress"))
    def get_job(self, document: Document) -> dict | None:
        job = document.latest_job()
        return IngestJobSerializer(job).data if job else None

    def get_file_url(self, document: Document) -> str:
        return reverse("api-document-file", kwargs={"document_id": document.pk})


class DocumentUploadResultSerializer(DocumentSerializer):
    """A POST to the document list: the document, and what became of the upload."""

    outcome = serializers.ChoiceField(choices=["added", "duplicate", "reingested"])
    message = serializers.CharField(help_text="what happened, in a sentence")

    class Meta(DocumentSerializer.Meta):
        fields = [*DocumentSerializer.Meta.fields, "outcome", "message"]


class LocatorFieldsSerializer(serializers.Serializer):
    """The fields of a Locator (apps/documents/locators.py), declared once for every response that carries one:
    the preview's metadata, search hits and citations (retrieval's ChunkSourceSerializer extends this)."""

    section = serializers.CharField(help_text="the section as the document prints it")
    section_key = serializers.CharField(help_text='canonical section ("Methods", "References") or ""')
    heading_path = serializers.ListField(child=serializers.CharField())
    chunk_type = serializers.CharField(help_text="text | table | caption")
    locator_precision = serializers.ChoiceField(choices=["bbox", "paragraph", "file"])
    locator_degraded = serializers.BooleanField()
    page = serializers.IntegerField(allow_null=True)
    page_end = serializers.IntegerField(allow_null=True)
    rects = serializers.ListField(child=serializers.DictField(), help_text="[{page, x0, y0, x1, y1}] in PDF points")
    para_start = serializers.IntegerField(allow_null=True)
    para_end = serializers.IntegerField(allow_null=True)
    line_start = serializers.IntegerField(allow_null=True, help_text="text files: first line (1-based); xlsx: row")
    line_end = serializers.IntegerField(allow_null=True)
    ocr = serializers.BooleanField(help_text="the text was recognised by OCR on a page without a text layer")


class LocatorSerializer(LocatorFieldsSerializer):
    """Where a passage sits in its source (design.md, Locators); schema of ChunkPreviewSerializer's metadata."""

    weight = serializers.FloatField()
    page_sizes = serializers.DictField(help_text="page number -> [width, height] in PDF points")
    para_ids = serializers.ListField(child=serializers.CharField())


class ChunkPreviewSerializer(serializers.ModelSerializer):
    metadata = serializers.SerializerMethodField()

    class Meta:
        model = Chunk
        fields = ["chunk_index", "text", "metadata"]

    @extend_schema_field(LocatorSerializer)
    def get_metadata(self, chunk: Chunk) -> dict:
        return {
            **Locator.fields_of(chunk),
            "weight": chunk.weight,
            "page_sizes": chunk.locator.get("page_sizes", {}),
            "para_ids": chunk.locator.get("para_ids", []),
        }


class PreviewItemSerializer(ChunkPreviewSerializer):
    """One passage of a preview: section, page and the whole locator repeated at the top level (issue 7)."""

    is_target = serializers.BooleanField()
    section = serializers.CharField()
    page = serializers.IntegerField(allow_null=True)
    locator = LocatorSerializer()
    place = serializers.CharField(help_text='where it is, as source cards say it: "§ Methods · p. 4", "lines 12–18"')

    class Meta(ChunkPreviewSerializer.Meta):
        fields = [*ChunkPreviewSerializer.Meta.fields, "is_target", "section", "page", "locator", "place"]


class PreviewSerializer(serializers.Serializer):
    """The shape of GET /api/v1/documents/{id}/preview (design.md)."""

    document_id = serializers.IntegerField()
    doc_type = serializers.CharField(help_text="pdf | docx | md | txt | html | xlsx: lines of an xlsx are its rows")
    total_chunks = serializers.IntegerField()
    target_index = serializers.IntegerField()
    chunks = PreviewItemSerializer(many=True)
