"""Collections, who may use them, and the documents and chunks inside them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from pgvector.django import VectorField


class Collection(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The id of the collection's last IndexChange (apps.retrieval): search caches and keyword indexes compare it
    # to know whether what they hold is still current.
    index_version = models.BigIntegerField(default=0, editable=False)
    # The reference links wait for a relink whose task could not be queued (the broker was away): the worker's
    # periodic sweep sends it (apps.citations.services.linking.relink_requeue_stale).
    links_stale = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("collection-detail", kwargs={"slug": self.slug})


class Role(models.TextChoices):
    VIEWER = "viewer", _("Viewer")
    EDITOR = "editor", _("Editor")
    MANAGER = "manager", _("Manager")


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "collection"], name="one_membership_per_user")]
        ordering = ["collection__name", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} in {self.collection} ({self.role})"


class DocumentStatus(models.TextChoices):
    PENDING = "pending", _("Waiting")
    PROCESSING = "processing", _("Processing")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


def _upload_path(instance: Document, filename: str) -> str:
    # The hash keeps two files of the same name apart; the original name is kept on the row.
    return f"collections/{instance.collection_id}/{instance.sha256[:16]}/{filename}"


class Document(models.Model):
    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="documents")
    title = models.CharField(max_length=500, blank=True)
    # Bibliographic metadata: from the file at ingest, or from Zotero (which then wins); editable in the admin.
    authors = models.JSONField(default=list, blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    journal = models.CharField(max_length=300, blank=True)
    doi = models.CharField(max_length=200, blank=True, db_index=True)
    # Which of title and authors ingestion read off the first page because the file's metadata had none: the
    # document page says so, so a reader knows to check them. A person's or Zotero's value clears the mark.
    guessed = models.JSONField(default=list, blank=True, editable=False)
    zotero_key = models.CharField(max_length=16, blank=True, help_text="Zotero item key, for zotero:// links")
    original_name = models.CharField(max_length=255)
    file = models.FileField(upload_to=_upload_path, max_length=500)
    doc_type = models.CharField(max_length=10, blank=True)
    size = models.BigIntegerField(default=0)
    sha256 = models.CharField(max_length=64, db_index=True)
    status = models.CharField(max_length=12, choices=DocumentStatus.choices, default=DocumentStatus.PENDING)
    error = models.TextField(blank=True)
    page_count = models.PositiveIntegerField(null=True, blank=True)
    chunk_count = models.PositiveIntegerField(default=0)
    # The identity of the model that made this document's vectors: a different model means re-embedding,
    # never comparing vectors from two models.
    embedding_model = models.CharField(max_length=300, blank=True)
    needs_ocr_pages = models.JSONField(default=list, blank=True)
    # How ingest decoded a text file (txt, md, html): the codec ("gb18030") and how it was chosen (bom, utf-8,
    # declared, detected, assumed; apps/documents/parsing/encoding.py). Empty for other formats.
    text_encoding = models.CharField(max_length=40, blank=True, editable=False)
    text_encoding_source = models.CharField(max_length=10, blank=True, editable=False)
    # Mean of the chunk vectors, kept at ingest: "related documents" compares these instead of averaging every
    # chunk of the collection on each request.
    centroid = VectorField(null=True, blank=True, editable=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "sha256"], name="one_copy_per_collection"),
        ]

    def __str__(self) -> str:
        return self.title or self.original_name

    @property
    def display_title(self) -> str:
        return self.title or self.original_name

    @property
    def text_encoding_label(self) -> str:
        """How the text was read, for people: "GB18030 (detected)", "UTF-8"; "" for other formats."""
        from apps.documents.parsing.encoding import DecodedText

        if not self.text_encoding:
            return ""
        return DecodedText("", self.text_encoding, self.text_encoding_source).label

    def latest_job(self) -> IngestJob | None:
        # Lists prefetch the jobs (ordered newest first by IngestJob.Meta); use them instead of a query per row.
        prefetched = getattr(self, "_prefetched_objects_cache", {}).get("jobs")
        if prefetched is not None:
            return next(iter(prefetched), None)
        return self.jobs.order_by("-created_at", "-id").first()


class JobStage(models.TextChoices):
    QUEUED = "queued", _("Queued")
    PARSE = "parse", _("Reading the file")
    OCR = "ocr", _("Recognising text (OCR)")  # pages without a text layer, counted page by page while reading
    CHUNK = "chunk", _("Splitting into passages")
    EMBED = "embed", _("Embedding passages")
    INDEX = "index", _("Indexing")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class IngestJob(models.Model):
    """One run of ingestion for a document; the row a page polls for progress."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="jobs")
    stage = models.CharField(max_length=10, choices=JobStage.choices, default=JobStage.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Seconds per step ({"parse": 0.8, "embed": 6.1, ...}): where a job's time went, measured in the worker.
    timings = models.JSONField(default=dict, blank=True)
    # A long job runs as several tasks (services/ingest.py): `step` counts the units of work committed so far and
    # every message carries the count it was sent for, so a redelivered message neither redoes a committed batch
    # nor runs beside the message that continues the job; `sent_step` is the count the last continuation was
    # sent for (a message behind `step` is stale only when a continuation is out).
    step = models.PositiveIntegerField(default=0, editable=False)
    sent_step = models.PositiveIntegerField(default=0, editable=False)
    # What reading found besides the passages (references, metadata, page count), kept from the reading task to
    # the indexing one; null until the file has been read. The passages wait in StagedChunk.
    reading = models.JSONField(null=True, blank=True, editable=False)
    # Not a column: set on a queued job by selectors.attach_queue_positions (queued jobs ahead of it, or None).
    queued_ahead: int | None

    class Meta:
        ordering = ["-created_at", "-id"]
        # The queue position of a queued job counts the queued jobs before it (selectors.attach_queue_positions).
        indexes = [models.Index(fields=["id"], condition=models.Q(stage="queued"), name="documents_job_queued_idx")]

    def __str__(self) -> str:
        return f"ingest of {self.document_id}: {self.stage}"

    @property
    def finished(self) -> bool:
        return self.stage in (JobStage.DONE, JobStage.FAILED)

    # Share of the whole job at the start and end of each stage; within a stage, done/total fills it.
    # Embedding dominates the time of a job, so it gets most of the bar.
    _STAGE_SPAN = {
        JobStage.QUEUED: (0, 0),
        JobStage.PARSE: (0, 10),
        JobStage.OCR: (0, 10),  # part of reading the file, page by page
        JobStage.CHUNK: (10, 15),
        JobStage.EMBED: (15, 90),
        JobStage.INDEX: (90, 100),
    }

    @property
    def percent(self) -> int:
        if self.stage == JobStage.DONE:
            return 100
        start, end = self._STAGE_SPAN.get(self.stage, (0, 0))
        within = self.done / self.total if self.total else 0
        return int(start + (end - start) * within)

    @property
    def progress_text(self) -> str:
        """The stage in words, with its count where one is known: "Embedding passages 640 / 9,281"."""
        label = self.get_stage_display()
        if self.stage == JobStage.OCR and self.total:
            return _("%(stage)s %(done)s / %(total)s pages") % {
                "stage": label,
                "done": f"{self.done:,}",
                "total": f"{self.total:,}",
            }
        if self.stage in (JobStage.EMBED, JobStage.INDEX) and self.total:
            return f"{label} {self.done:,} / {self.total:,}"
        return label


class StagedChunk(models.Model):
    """A passage of a job still being ingested, with its vector once embedded; moved into Chunk in one transaction
    when every batch is done, so search never sees half a document. Kept between tasks, which is what makes a
    long embedding resumable after a worker dies."""

    job = models.ForeignKey(IngestJob, on_delete=models.CASCADE, related_name="staged_chunks")
    chunk_index = models.PositiveIntegerField()
    weight = models.FloatField()
    # The Chunk's own fields (text, section, locators, ...) as services.ingest.chunk_fields makes them.
    fields = models.JSONField()
    embedding = VectorField(null=True, blank=True)

    class Meta:
        ordering = ["job_id", "chunk_index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "chunk_index"], name="one_staged_chunk_per_index"),
        ]

    def __str__(self) -> str:
        return f"job {self.job_id}#{self.chunk_index}"


class LocatorPrecision(models.TextChoices):
    BBOX = "bbox", _("Page and rectangles")
    PARAGRAPH = "paragraph", _("Paragraphs")
    FILE = "file", _("Whole file")


class Chunk(models.Model):
    """A passage of a document with its exact place in the source (see design.md, Locators)."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    chunk_index = models.PositiveIntegerField()
    text = models.TextField()
    section = models.CharField(max_length=300, blank=True)  # as printed ("V. EXPERIMENTS", "前言"): shown to people
    section_key = models.CharField(max_length=40, blank=True, default="")  # canonical ("Methods"): weights, filters
    heading_path = models.JSONField(default=list, blank=True)
    chunk_type = models.CharField(max_length=10, default="text")
    weight = models.FloatField(default=1.0)
    page = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)
    para_start = models.PositiveIntegerField(null=True, blank=True)
    para_end = models.PositiveIntegerField(null=True, blank=True)
    line_start = models.PositiveIntegerField(null=True, blank=True)
    line_end = models.PositiveIntegerField(null=True, blank=True)
    # rects: [{page, x0, y0, x1, y1}] in PDF points; page_sizes: {page: [w, h]}; para_ids: DOCX paragraph ids.
    locator = models.JSONField(default=dict, blank=True)
    locator_precision = models.CharField(max_length=10, choices=LocatorPrecision.choices, default=LocatorPrecision.FILE)
    locator_degraded = models.BooleanField(default=False)
    # No fixed dimension here: the index is per dimension (see migration 0003), so a model of another size
    # needs no schema change.
    embedding = VectorField(null=True, blank=True)

    class Meta:
        ordering = ["document_id", "chunk_index"]
        constraints = [
            models.UniqueConstraint(fields=["document", "chunk_index"], name="one_chunk_per_index"),
        ]

    def __str__(self) -> str:
        return f"{self.document_id}#{self.chunk_index}"
