from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.citations.models import Reference
from apps.citations.services.chains import reference_item
from apps.documents.models import Chunk, Collection, Document, IngestJob
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

    class Meta:
        model = IngestJob
        fields = ["id", "stage", "done", "total", "percent", "finished", "error", "created_at", "finished_at", "paused"]

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


class LocatorSerializer(serializers.Serializer):
    """Where a passage sits in its source (design.md, Locators); schema of ChunkPreviewSerializer's metadata."""

    section = serializers.CharField(help_text="the section as the document prints it")
    section_key = serializers.CharField(help_text='canonical section ("Methods", "References") or ""')
    heading_path = serializers.ListField(child=serializers.CharField())
    chunk_type = serializers.CharField(help_text="text | table | caption")
    weight = serializers.FloatField()
    page = serializers.IntegerField(allow_null=True)
    page_end = serializers.IntegerField(allow_null=True)
    rects = serializers.ListField(child=serializers.DictField(), help_text="[{page, x0, y0, x1, y1}] in PDF points")
    page_sizes = serializers.DictField(help_text="page number -> [width, height] in PDF points")
    para_start = serializers.IntegerField(allow_null=True)
    para_end = serializers.IntegerField(allow_null=True)
    para_ids = serializers.ListField(child=serializers.CharField())
    line_start = serializers.IntegerField(allow_null=True)
    line_end = serializers.IntegerField(allow_null=True)
    locator_precision = serializers.ChoiceField(choices=["bbox", "paragraph", "file"])
    locator_degraded = serializers.BooleanField()


class ChunkPreviewSerializer(serializers.ModelSerializer):
    metadata = serializers.SerializerMethodField()

    class Meta:
        model = Chunk
        fields = ["chunk_index", "text", "metadata"]

    @extend_schema_field(LocatorSerializer)
    def get_metadata(self, chunk: Chunk) -> dict:
        return {
            "section": chunk.section,
            "section_key": chunk.section_key,
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


class CitedInSerializer(serializers.Serializer):
    document_id = serializers.IntegerField()
    title = serializers.CharField()


class ReferenceSerializer(serializers.Serializer):
    """One entry of a document's reference list with its library link (apps.citations.services.chains), and how
    often the text cites it. Expects references annotated with `mention_count`."""

    ref_no = serializers.IntegerField(help_text="the printed number, or the position in an author-year list")
    label = serializers.CharField()
    text = serializers.CharField()
    doi = serializers.CharField()
    year = serializers.IntegerField(allow_null=True)
    first_author = serializers.CharField()
    title = serializers.CharField()
    in_library = serializers.IntegerField(allow_null=True, help_text="the id of the same work in this collection")
    library_title = serializers.CharField(allow_null=True)
    match_method = serializers.CharField(help_text="how the library link was found; empty when there is none")
    cited_in = CitedInSerializer()
    mentions = serializers.IntegerField(help_text="in-text citations of this entry")
    chunk_indices = serializers.ListField(child=serializers.IntegerField(), help_text="passages that cite it")

    def to_representation(self, reference: Reference) -> dict:
        # One shape with the answers and the document page: reference_item builds it for all of them.
        return reference_item(reference) | {
            "mentions": reference.mention_count,
            "chunk_indices": reference.chunk_indices,
        }


class RelatedDocumentSerializer(serializers.Serializer):
    document_id = serializers.IntegerField()
    title = serializers.CharField()
    score = serializers.FloatField()
    similarity = serializers.FloatField(allow_null=True, help_text="cosine similarity of the documents' centroids")
    shared_authors = serializers.ListField(child=serializers.CharField())
    same_journal = serializers.BooleanField()
    reasons = serializers.ListField(child=serializers.CharField())


class RelatedSerializer(serializers.Serializer):
    """The shape of GET /api/v1/documents/{id}/related (schema only)."""

    document_id = serializers.IntegerField()
    related = RelatedDocumentSerializer(many=True)
