"""Conversations, and the reference lists of documents with their in-text citations and library links."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Conversation(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    # None: asked across every collection the user may read (the home page). Such a conversation keeps the
    # collections its stored answers quote in `sources`, so that losing one of them hides it (citations/access.py).
    collection = models.ForeignKey(
        "documents.Collection", on_delete=models.CASCADE, null=True, blank=True, related_name="conversations"
    )
    sources = models.ManyToManyField("documents.Collection", blank=True, related_name="quoted_in_conversations")
    # Reading mode: questions asked within one document. Deleting the document keeps the conversation (its
    # answers say their sources are gone) and turns it into an ordinary one.
    document = models.ForeignKey(
        "documents.Document", on_delete=models.SET_NULL, null=True, blank=True, related_name="conversations"
    )
    title = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Message(models.Model):
    """One question and its answer, with the answer's citation objects stored whole (design.md): an old answer's
    badges open the same place after a reload, and a regenerated answer replaces them all at once."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    question = models.TextField()
    answer = models.TextField(blank=True)  # with [n] markers
    depth = models.CharField(max_length=5, default="deep")
    strict = models.BooleanField(default=True)
    composer = models.CharField(max_length=200, blank=True)
    # The answer's full result (the finish event of answers.service.run): sentences and their support, citations
    # (each with the hash of the chunk text it quoted, to notice re-ingests), conflicts, chain, diagnostics.
    result = models.JSONField(default=dict)
    regenerations = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["conversation_id", "id"]

    def __str__(self) -> str:
        return self.question[:80]


class MatchMethod(models.TextChoices):
    NONE = "", "Not in the library"
    DOI = "doi", "Same DOI"
    TITLE = "title", "Title found in the entry"
    AUTHOR_YEAR = "author-year", "First author and year"
    FUZZY_TITLE = "fuzzy-title", "Nearly the same title"


class Reference(models.Model):
    """One entry of a document's reference list, and the document of the same collection it is, if any."""

    document = models.ForeignKey("documents.Document", on_delete=models.CASCADE, related_name="references")
    index = models.PositiveIntegerField()  # 0-based position in the list
    number = models.PositiveIntegerField(null=True, blank=True)  # printed label; None in author-year lists
    text = models.TextField()
    doi = models.CharField(max_length=200, blank=True, db_index=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    first_author = models.CharField(max_length=200, blank=True)
    authors = models.JSONField(default=list, blank=True)
    title = models.TextField(blank=True)
    venue = models.CharField(max_length=500, blank=True)
    chunk_indices = models.JSONField(default=list, blank=True)
    page = models.PositiveIntegerField(null=True, blank=True)
    # Kept up to date by the relink task whenever the collection's documents change.
    matched_document = models.ForeignKey(
        "documents.Document", on_delete=models.SET_NULL, null=True, blank=True, related_name="cited_by"
    )
    match_method = models.CharField(max_length=12, choices=MatchMethod.choices, blank=True)

    class Meta:
        ordering = ["document_id", "index"]
        constraints = [models.UniqueConstraint(fields=["document", "index"], name="one_reference_per_index")]

    def __str__(self) -> str:
        label = f"[{self.number}]" if self.number is not None else f"#{self.index + 1}"
        return f"{label} {self.text[:80]}"

    @property
    def label(self) -> str:
        return f"Ref {self.number}" if self.number is not None else f"Ref {self.index + 1}"


class ChunkCitation(models.Model):
    """An in-text citation: a character span of a chunk's text that cites a reference entry."""

    chunk = models.ForeignKey("documents.Chunk", on_delete=models.CASCADE, related_name="citations")
    reference = models.ForeignKey(Reference, on_delete=models.CASCADE, related_name="mentions")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()

    class Meta:
        ordering = ["chunk_id", "start"]
        indexes = [models.Index(fields=["chunk", "reference"])]

    def __str__(self) -> str:
        return f"{self.chunk_id}[{self.start}:{self.end}] -> {self.reference_id}"
