"""Lists a document writes as sections (issue 15): a section whose subsections are what it lists ("## 下游任务" over
"### 1. 句子相似度计算" and "### 2. 文本匹配搜索"; "Components" over "Scrapy Engine", "Scheduler", …; "命令行" over one
subsection per command). No line of the text is a list there, so the list reader sees none.

A question names a section when every term of the section's heading is among the question's terms ("text2vec
README 的“下游任务”部分包括哪些任务？" names "下游任务"); the deepest section it names that has from two to
SUBSECTIONS subsections is the one. A document's title (the one heading over all its text) is named by any question
about the document ("according to Good Integration Practices") and lists the whole document: it never counts.

`subsections` (retrieval side) fetches the chunk that opens each subsection when retrieval did not return it (and
the first chunks of a named section without subsections, where its list is);
`outline_list` (composer side) reads the list from the evidence: each subsection's heading with the first sentence
under it, cited to that chunk.
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.citations.answers.list_blocks import ListBlock
from apps.citations.answers.list_continuations import readable_chunks
from apps.citations.answers.list_lines import first_sentence
from apps.citations.answers.types import Evidence
from apps.documents.models import Chunk
from apps.retrieval.keyword.analyzer import query_terms
from apps.retrieval.search.hits import make_hit
from apps.retrieval.search.service import Ranked
from apps.retrieval.search.types import DEPTH_PRESETS, SearchHit

SUBSECTIONS = 12  # a section with more subsections is a document part (a change log's releases), not a list
SECTION_DOCUMENTS = 3  # the best-ranked documents of the evidence whose sections are looked up
SECTION_CHUNKS = 3  # of a named section without subsections, its first chunks: its list is near its start


def names_section(question: str, heading: str) -> bool:
    """Every term of `heading` is among the terms of `question`."""
    wanted = set(query_terms(heading))
    return bool(wanted) and wanted <= set(query_terms(question))


def _named_paths(question: str, paths: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """The section paths (prefixes of `paths`, a document's heading paths) whose last heading the question names,
    deepest first; a prefix of one heading that every path starts with is the document's title and is left out."""
    prefixes = {tuple(p[:depth]) for p in paths for depth in range(1, len(p) + 1)}
    roots = {p[0] for p in paths if p}
    titled = len(roots) == 1 and all(p for p in paths)
    named = [p for p in prefixes if not (titled and len(p) == 1) and names_section(question, p[-1])]
    return sorted(named, key=lambda p: -len(p))


def _children(section: tuple[str, ...], outline: Sequence[tuple[int, Sequence[str]]]) -> dict[str, int]:
    """The subsections of `section` in an outline of (chunk index, heading path), each with the index of the chunk
    that opens it, in document order."""
    depth = len(section)
    children: dict[str, int] = {}
    for index, path in sorted(outline, key=lambda c: c[0]):
        if len(path) > depth and tuple(path[:depth]) == section:
            children.setdefault(path[depth], index)
    return children


def subsections(evidence: Sequence[Evidence], user, question: str) -> list[SearchHit]:
    """The chunks of the section a list question names that retrieval did not return, in the best-ranked
    SECTION_DOCUMENTS documents of the evidence: the chunk that opens each of its subsections, or, for a section
    without subsections ("the Features section of the Introduction to Celery"), its first SECTION_CHUNKS chunks,
    where its list is. Only chunks of ready documents the user may read."""
    present = {(e.hit.document_id, e.hit.chunk_index) for e in evidence}
    hits: list[SearchHit] = []
    for document_id in list(dict.fromkeys(e.hit.document_id for e in evidence))[:SECTION_DOCUMENTS]:
        outline = list(
            Chunk.objects.filter(document_id=document_id, weight__gt=0).values_list("chunk_index", "heading_path")
        )
        wanted = [i for i in _section_chunks(question, outline) if (document_id, i) not in present]
        for chunk in readable_chunks(user, document_id, wanted):
            hits.append(
                make_hit(chunk, Ranked(chunk.pk, 0.0, "list"), question, {}, DEPTH_PRESETS["deep"].snippet_chars)
            )
    return hits


def _section_chunks(question: str, outline: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
    """The chunk indexes the named section is read from: its subsections' first chunks, or its own first ones."""
    named = _named_paths(question, [p for _, p in outline])
    section = _listing(named, outline)
    if section is not None:
        return list(_children(section, outline).values())
    for leaf in named:
        if not _children(leaf, outline):
            return sorted(i for i, path in outline if tuple(path) == leaf)[:SECTION_CHUNKS]
    return []


def _section(
    question: str, paths: Sequence[Sequence[str]], outline: Sequence[tuple[int, Sequence[str]]]
) -> tuple[str, ...] | None:
    """The deepest section the question names that has from two to SUBSECTIONS subsections in `outline`."""
    return _listing(_named_paths(question, paths), outline)


def _listing(named: Sequence[tuple[str, ...]], outline: Sequence[tuple[int, Sequence[str]]]) -> tuple[str, ...] | None:
    """The first of the `named` sections (deepest first) with from two to SUBSECTIONS subsections in `outline`."""
    return next((s for s in named if 2 <= len(_children(s, outline)) <= SUBSECTIONS), None)


def outline_list(question: str, evidence: Sequence[Evidence]) -> ListBlock | None:
    """The subsections of the section the question names, as a list: each subsection's heading and the first
    sentence under it (joined with one space, as an item's body is), cited to the evidence chunk that opens it;
    None when no document of the evidence has such a section with two or more of its subsections in the evidence."""
    for document_id in dict.fromkeys(e.hit.document_id for e in evidence):
        mine = [e for e in evidence if e.hit.document_id == document_id and e.hit.heading_path]
        outline = [(e.hit.chunk_index, e.hit.heading_path) for e in mine]
        section = _section(question, [p for _, p in outline], outline)
        if section is None:
            continue
        opening = {e.hit.chunk_index: e for e in mine}
        items = []
        for heading, index in _children(section, outline).items():
            text = _opened(heading, opening[index].hit.text)
            if text:
                items.append((opening[index].number, text))
        if len(items) >= 2:
            first = min(number for number, _ in items)
            return ListBlock(first, "", items, heading=section[-1], sections=" ".join(section))
    return None


def _opened(heading: str, text: str) -> str:
    """The subsection's heading with the first sentence of the paragraph after it in the chunk that opens it; ""
    when the chunk does not hold the heading as a line (the chunk starts inside the subsection)."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if heading.strip() not in lines:
        return ""
    after = lines[lines.index(heading.strip()) + 1 :]
    prose = next((line for line in after if line[:1].isalnum() and not line.startswith("```")), "")
    return f"{heading.strip()} {first_sentence(prose)}".strip()
