"""What citations add to a deep search hit: the references its passage cites and the documents related to its
document (registered with apps.retrieval.search.extras from CitationsConfig.ready())."""

from __future__ import annotations

from apps.citations.services.chains import cited_references_by_chunk
from apps.citations.services.related import related_documents_many
from apps.documents.models import Document
from apps.retrieval.search.types import SearchHit


def cited_and_related(hits: list[SearchHit], documents: dict[int, Document]) -> None:
    cited = cited_references_by_chunk([hit.chunk_id for hit in hits])
    for hit in hits:
        hit.citations_out = cited[hit.chunk_id]
    related = related_documents_many([documents[i] for i in {hit.document_id for hit in hits}], limit=3)
    for hit in hits:
        hit.related = related.get(hit.document_id, [])
