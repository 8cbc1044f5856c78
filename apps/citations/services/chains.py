"""Citation chains: which works the evidence cites, and which of them are already in the library."""

from __future__ import annotations

from collections.abc import Iterable

from apps.citations.models import ChunkCitation, Reference

MAX_MATCHED = 5
MAX_UNMATCHED = 3


def reference_item(reference: Reference) -> dict:
    """One reference as the API, the answers and the document page show it (design.md, citations_out)."""
    matched = reference.matched_document
    return {
        "ref_no": reference.number if reference.number is not None else reference.index + 1,
        "label": reference.label,
        "text": reference.text,
        "doi": reference.doi,
        "year": reference.year,
        "first_author": reference.first_author,
        "title": reference.title,
        "in_library": matched.pk if matched else None,
        "library_title": matched.display_title if matched else None,
        "match_method": reference.match_method,
        "cited_in": {"document_id": reference.document_id, "title": reference.document.display_title},
    }


def _ref_range(references: list[Reference]) -> str:
    numbers = sorted(r.number if r.number is not None else r.index + 1 for r in references)
    return f"Ref {numbers[0]}" if len(numbers) == 1 else f"Ref {numbers[0]}–{numbers[-1]}"


def _mentions(chunk_ids: Iterable[int]):
    return (
        ChunkCitation.objects.filter(chunk_id__in=list(chunk_ids))
        .select_related("reference__matched_document", "reference__document")
        .order_by("chunk_id", "start")
    )


def cited_references_by_chunk(chunk_ids: Iterable[int]) -> dict[int, list[dict]]:
    """For each chunk, the references it cites (matched ones first, then up to 3 unmatched), in one query:
    what each search hit and citation carries as `citations_out`."""
    chunk_ids = list(chunk_ids)
    mentions = _mentions(chunk_ids)
    per_chunk: dict[int, dict[int, Reference]] = {chunk_id: {} for chunk_id in chunk_ids}
    for mention in mentions:
        per_chunk[mention.chunk_id].setdefault(mention.reference_id, mention.reference)
    out = {}
    for chunk_id, seen in per_chunk.items():
        references = list(seen.values())
        matched = [r for r in references if r.matched_document_id][:MAX_MATCHED]
        unmatched = [r for r in references if not r.matched_document_id][:MAX_UNMATCHED]
        out[chunk_id] = [reference_item(r) for r in matched + unmatched]
    return out


def cited_references(chunk_ids: Iterable[int]) -> dict:
    """The entries cited by these evidence chunks, in the order the answer needs them.

    Matched entries first (at most 5), then the first 3 unmatched ones, then a one-line summary of the rest.
    Order within each group: the order of `chunk_ids` (the evidence ranking), then position in the chunk.
    """
    order = {chunk_id: rank for rank, chunk_id in enumerate(chunk_ids)}
    mentions = _mentions(order)
    seen: dict[int, Reference] = {}
    for mention in sorted(mentions, key=lambda m: (order[m.chunk_id], m.start)):
        seen.setdefault(mention.reference_id, mention.reference)
    references = list(seen.values())
    matched = [r for r in references if r.matched_document_id][:MAX_MATCHED]
    unmatched = [r for r in references if not r.matched_document_id]
    rest = unmatched[MAX_UNMATCHED:]
    return {
        "matched": [reference_item(r) for r in matched],
        "unmatched": [reference_item(r) for r in unmatched[:MAX_UNMATCHED]],
        "more": {
            "count": len(rest),
            "summary": f"{len(rest)} more references not expanded ({_ref_range(rest)})" if rest else "",
        },
    }
