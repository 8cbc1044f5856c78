"""Linking reference entries to the documents of the same collection: rather no link than a wrong one.

In order: DOI equality; the document's normalised title (30+ characters, or 8+ Chinese/Japanese/Korean ones)
inside the entry; first-author surname (6+ characters) plus year; a nearly identical title. A rule links only when
exactly one document fits it.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

from django.db import transaction

from apps.citations.models import MatchMethod, Reference
from apps.documents.models import Collection, Document, DocumentStatus
from portal.broker import BROKER_ERRORS

log = logging.getLogger(__name__)

MIN_TITLE_CHARS = 30
# A CJK character carries about as much of a title as a Latin word does: 8 of them ("基于深度学习的图像去噪") are as
# specific as 30 Latin letters, so each counts four towards MIN_TITLE_CHARS.
CJK_CHAR_WEIGHT = 4
MIN_SURNAME_CHARS = 6
FUZZY_TITLE_RATIO = 0.92
_DOI_PREFIX = re.compile(r"^(https?://(dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_NOT_KEPT = re.compile(f"[^a-z0-9{_CJK}]+")
_SPACE_BY_CJK = re.compile(f"(?<=[{_CJK}]) | (?=[{_CJK}])")


def normalise(text: str) -> str:
    """Lowercase Latin letters without their accents, digits and CJK characters; everything else is one space, and
    no space is kept beside a CJK character (PDFs put them between Chinese words at will)."""
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    spaced = " ".join(_NOT_KEPT.sub(" ", unicodedata.normalize("NFKC", folded)).split())
    return _SPACE_BY_CJK.sub("", spaced)


def long_enough(title: str) -> bool:
    """Specific enough to be matched on its own (a normalised title)."""
    cjk = sum(1 for ch in title if re.match(f"[{_CJK}]", ch))
    return (len(title) - cjk) + CJK_CHAR_WEIGHT * cjk >= MIN_TITLE_CHARS


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
    titled = [c for c in others if long_enough(c.title) and c.title in entry]
    if hit := _only(titled):
        return hit.document_id, MatchMethod.TITLE
    first = surname(reference.first_author)
    same_author_year = [c for c in others if c.first_author == first and c.year == reference.year]
    if len(first) >= MIN_SURNAME_CHARS and reference.year and (hit := _only(same_author_year)):
        return hit.document_id, MatchMethod.AUTHOR_YEAR
    title = normalise(reference.title)
    if long_enough(title):
        close = [c for c in others if long_enough(c.title) and _similar(c.title, title)]
        if hit := _only(close):
            return hit.document_id, MatchMethod.FUZZY_TITLE
    return None, MatchMethod.NONE


def _similar(a: str, b: str) -> bool:
    return SequenceMatcher(None, a, b).ratio() >= FUZZY_TITLE_RATIO


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
    # robust: the change is committed; nothing after it may turn it into an error (relink_publish logs instead).
    transaction.on_commit(lambda: relink_publish(collection_id), robust=True)


def relink_publish(collection_id: int) -> bool:
    """Send the relink task. When the broker cannot be reached the collection is marked `links_stale` instead,
    and relink_requeue_stale (the worker's sweep) sends it once the broker is back. Returns whether it went out."""
    from apps.citations.tasks import relink_collection

    try:
        relink_collection.delay(collection_id)
    except BROKER_ERRORS:
        log.warning("relink of collection %s could not be queued: the broker is unreachable", collection_id)
        Collection.objects.filter(pk=collection_id).update(links_stale=True)
        return False
    return True


def relink_requeue_stale() -> int:
    """Send the relinks whose publish failed; returns how many went out. Each collection is claimed by one
    conditional UPDATE before it is sent, so several workers sweeping together send it once."""
    sent = 0
    for collection_id in Collection.objects.filter(links_stale=True).order_by("pk").values_list("pk", flat=True):
        claimed = Collection.objects.filter(pk=collection_id, links_stale=True).update(links_stale=False)
        if claimed and relink_publish(collection_id):
            sent += 1
    return sent
