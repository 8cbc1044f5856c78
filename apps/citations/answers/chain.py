"""The citation-chain block of a deep answer, in three parts (each left out when empty):

- in_library: works the evidence cites that are already documents of the collection ("found through citations");
- suggested: works the evidence cites that are not in the library yet, to add;
- related: documents that share authors, a journal or close content with the evidence's documents, with no
  citation link between them.

Every line names the answer's citation(s) that lead to it, as [n] and the Ref number in that evidence's own list.
"""

from __future__ import annotations

import re

from apps.citations.answers.citation import Citation

MAX_LINES = 8


def _key(item: dict) -> str:
    if item.get("doi"):
        return "doi:" + item["doi"].lower()
    return "text:" + re.sub(r"\W+", " ", (item.get("title") or item.get("text") or "").lower()).strip()[:120]


def chain_block(citations: list[Citation], related: dict[int, list[dict]]) -> dict:
    """`related` is each evidence document's related documents (search hits' `related`), by document id."""
    in_library: dict[int, dict] = {}
    suggested: dict[str, dict] = {}
    cited_documents = {c.document_id for c in citations}
    for citation in citations:
        for ref in citation.citations_out:
            via = {
                "n": citation.n,
                "ref_no": ref.get("ref_no"),
                "label": ref.get("label") or f"Ref {ref.get('ref_no')}",
            }
            if ref.get("in_library"):
                line = in_library.setdefault(
                    ref["in_library"],
                    {
                        "document_id": ref["in_library"],
                        "title": ref.get("library_title") or ref.get("title") or ref.get("text", "")[:200],
                        "also_evidence": ref["in_library"] in cited_documents,
                        "cited_by": [],
                    },
                )
            else:
                line = suggested.setdefault(
                    _key(ref),
                    {
                        "text": ref.get("text", ""),
                        "title": ref.get("title", ""),
                        "doi": ref.get("doi", ""),
                        "year": ref.get("year"),
                        "cited_by": [],
                    },
                )
            if via not in line["cited_by"]:
                line["cited_by"].append(via)
    linked = set(in_library) | cited_documents
    related_lines: dict[int, dict] = {}
    for citation in citations:
        for item in related.get(citation.document_id, []):
            if item["document_id"] in linked:
                continue
            line = related_lines.setdefault(
                item["document_id"],
                {"document_id": item["document_id"], "title": item["title"], "reasons": item["reasons"], "of": []},
            )
            if citation.n not in line["of"]:
                line["of"].append(citation.n)
    block = {
        "in_library": list(in_library.values())[:MAX_LINES],
        "suggested": list(suggested.values())[:MAX_LINES],
        "related": list(related_lines.values())[:MAX_LINES],
    }
    return {name: lines for name, lines in block.items() if lines}
