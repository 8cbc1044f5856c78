"""Linking reference entries to the documents of the same collection: rather no link than a wrong one.

In order: DOI equality; the document's normalised title (30+ characters) inside the entry; first-author surname
(6+ characters) plus year; a nearly identical title. A rule links only when exactly one document fits it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

from django.db import transaction

from apps.citations.models import MatchMethod, Reference
from apps.documents.models import Document, DocumentStatus

MIN_TITLE_CHARS = 30
MIN_SURNAME_CHARS = 6
FUZZY_TITLE_RATIO = 0.92
_DOI_PREFIX = re.compile(r"^(https?://(dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())


def normalise_doi(doi: str) -> str:
    return _DOI_PREFIX.sub("", doi.strip()).rstrip(".").lower()


def surname(author: str) -> str:
    author = author.strip()
    if "," in author:  # "Chiarotto, A."
        return normalise(author.split(",", 1)[0])
    parts = normalise(author).split()
    return parts[-1] if parts else ""


@dataclass(frozen=True)
class Candidate:
    document_id: int
    doi: str
    title: str
    first_author: str
    year: int | None

    @classmethod
    def of(cls, document: Document) -> Candidate:
        return cls(
            document_id=document.pk,
            doi=normalise_doi(document.doi),
            title=normalise(document.title),
            first_author=surname(document.authors[0]) if document.authors else "",
            year=document.year,
        )


def _only(found: list[Candidate]) -> Candidate | None:
    return found[0] if len({c.document_id for c in found}) == 1 else None


def match_reference(reference: Reference, candidates: list[Candidate]) -> tuple[int | None, str]:
    others = [c for c in candidates if c.document_id != reference.document_id]
    doi = normalise_doi(reference.doi)
    if doi and (hit := _only([c for c in others if c.doi == doi])):
        return hit.document_id, MatchMethod.DOI
    entry = normalise(reference.text)
    titled = [c for c in others if len(c.title) >= MIN_TITLE_CHARS and c.title in entry]
    if hit := _only(titled):
        return hit.document_id, MatchMethod.TITLE
    first = surname(reference.first_author)
    same_author_year = [c for c in others if c.first_author == first and c.year == reference.year]
    if len(first) >= MIN_SURNAME_CHARS and reference.year and (hit := _only(same_author_year)):
        return hit.document_id, MatchMethod.AUTHOR_YEAR
    title = normalise(reference.title)
    if len(title) >= MIN_TITLE_CHARS:
        close = [
            c
            for c in others
            if len(c.title) >= MIN_TITLE_CHARS and SequenceMatcher(None, c.title, title).ratio() >= FUZZY_TITLE_RATIO
        ]
        if hit := _only(close):
            return hit.document_id, MatchMethod.FUZZY_TITLE
    return None, MatchMethod.NONE


def collection_relink(*, collection_id: int) -> int:
    """Recompute every reference link in the collection; returns how many links changed."""
    documents = Document.objects.filter(collection_id=collection_id, status=DocumentStatus.READY)
    candidates = [Candidate.of(d) for d in documents.only("pk", "doi", "title", "authors", "year")]
    changed = 0
    with transaction.atomic():
        references = Reference.objects.select_for_update().filter(document__collection_id=collection_id)
        for reference in references:
            document_id, method = match_reference(reference, candidates)
            if (document_id, method) != (reference.matched_document_id, reference.match_method):
                reference.matched_document_id, reference.match_method = document_id, method
                reference.save(update_fields=["matched_document", "match_method"])
                changed += 1
    return changed


def relink_enqueue(collection_id: int) -> None:
    """Ask a worker to recompute the collection's links once the current transaction has committed."""
    from apps.citations.tasks import relink_collection

    # robust: the change is committed; a broker that is away must not turn it into an error (logged instead).
    transaction.on_commit(lambda: relink_collection.delay(collection_id), robust=True)
