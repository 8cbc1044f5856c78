"""Retrieval weights of blocks that are in a document without being its content: a table of contents (it repeats
the headings, with page numbers) and an article's front matter (affiliations, e-mail, correspondence, received and
accepted dates, ORCID and copyright lines; formats/pdf_furniture.py finds them). They stay viewable and quotable;
they should not answer a question about the document's subject."""

from __future__ import annotations

# Reciprocal-rank fusion multiplies a chunk's score by its weight (retrieval/search/fusion.py): at 0.5 a rank-1
# front-matter chunk scores as a body chunk ranked about 60th, so it surfaces only for a question that nothing else
# answers ("Who is the corresponding author?"). A table of contents answers nothing: 0, never retrieved.
ROLE_WEIGHTS: dict[str, float] = {"contents": 0.0, "front_matter": 0.5}


def role_weight(weight: float, role: str) -> float:
    """A chunk's weight given its section's `weight` and the `role` of its blocks ("" for content)."""
    return min(weight, ROLE_WEIGHTS.get(role, weight))
