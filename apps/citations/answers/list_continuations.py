"""The chunks a list runs into, fetched when retrieval did not return them (issue 15).

Where a list, its lead-in, or an item's body runs to the end of the last chunk of a run of evidence, the next
chunks of the same document are read in order, the way find_lists reads them, while the list stays open: a chunk
that holds only the body of the last item ("• Vulnerabilities …:" then a paragraph, then "• Supply chain threats")
is kept when a later chunk goes on with the list, and the list ends at the next section's heading (the chunker
starts a chunk at every heading) or at a line that is not an item of it. Only chunks of ready documents the user
may read.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q

from apps.citations.answers.list_blocks import ListBlock, heading_of, runs_of, scan, stream_of
from apps.citations.answers.list_lines import lines_of
from apps.citations.answers.types import Evidence
from apps.documents.access import readable_collections
from apps.documents.models import Chunk, DocumentStatus
from apps.retrieval.search.hits import make_hit
from apps.retrieval.search.service import Ranked
from apps.retrieval.search.types import DEPTH_PRESETS, SearchHit

# Chunks read after one list's last chunk, and in all. A chunk is about 1,000 characters; NIST SP 800-223's
# bulleted lists (a file of the HELD-OUT split, read for the shape only) give one item of a paragraph or more a
# chunk, so a list of five such items needs five. The cap in all bounds the evidence an answer splits (~7 ms
# per chunk with pysbd).
CHUNKS_PER_LIST = 6
CHUNKS_IN_ALL = 8
# A chunk retrieval skipped between two it returned of one document (an algorithm's steps between its caption and
# the text after it, a list's middle items): at most this many are read in.
GAP_CHUNKS = 4


def _open_runs(evidence: Sequence[Evidence]) -> list[list[Evidence]]:
    """Runs whose stream ends inside a list or right after a lead-in, in the order of their best evidence number."""
    runs = [run for run in runs_of(evidence) if (found := scan(stream_of(run))) and found[-1].open_at_end]
    return sorted(runs, key=lambda run: min(e.number for e in run))


def _same_list(block: ListBlock, before: ListBlock) -> bool:
    """`block` is the list `before` was, read further (the same start, its items kept)."""
    return (
        block.number == before.number and block.lead == before.lead and block.items[: len(before.items)] == before.items
    )


def readable_chunks(user, document_id: int, indexes: list[int], section: str | None = None):
    """The chunks of `document_id` at `indexes` the user may read, in order, from ready documents; back matter
    (weight 0) only from `section` (a list in back matter goes on in its own section's chunks)."""
    shown = Q(weight__gt=0) | Q(section=section) if section is not None else Q(weight__gt=0)
    return (
        Chunk.objects.filter(
            shown,
            document_id=document_id,
            chunk_index__in=indexes,
            document__status=DocumentStatus.READY,
            document__collection__in=readable_collections(user),
        )
        .select_related("document__collection")
        .defer("embedding")
        .order_by("chunk_index")
    )


def between(evidence: Sequence[Evidence], user, limit: int = GAP_CHUNKS, query: str = "") -> list[SearchHit]:
    """The chunks retrieval skipped between two it returned of one document (chunks k-1 and k+1 in the evidence,
    k not): a list question's items are often there, and the stream of consecutive chunks the list reader needs
    is whole again. The best-ranked pairs first, at most `limit`."""
    rank = {}
    for e in evidence:
        rank.setdefault((e.hit.document_id, e.hit.chunk_index), e.number)
    wanted = sorted(
        (max(rank[(d, k - 1)], rank[(d, k + 1)]), d, k)
        for d, i in rank
        for k in (i + 1,)
        if (d, k) not in rank and (d, k + 1) in rank
    )[: max(0, limit)]
    hits = []
    for _, document_id, index in wanted:
        for chunk in readable_chunks(user, document_id, [index]):
            hits.append(make_hit(chunk, Ranked(chunk.pk, 0.0, "list"), query, {}, DEPTH_PRESETS["deep"].snippet_chars))
    return hits


def continuations(
    evidence: Sequence[Evidence], user, limit: int = CHUNKS_IN_ALL, query: str = "", per_list: int = CHUNKS_PER_LIST
) -> list[SearchHit]:
    """The chunks that follow (same document, next chunk_index) where a list starts or runs to a chunk's end and
    retrieval did not return the next chunk: at most `per_list` after one list and `limit` in all, as SearchHits
    built the way search builds them (`query` marks the snippet). Every chunk returned adds items to a list or
    carries an item's body to a later chunk that does."""
    if limit <= 0:
        return []
    present = {(e.hit.document_id, e.hit.chunk_index) for e in evidence}
    snippet_chars = DEPTH_PRESETS["deep"].snippet_chars
    hits: list[SearchHit] = []
    for run in _open_runs(evidence):
        room = min(per_list, limit - len(hits))
        if room <= 0:
            break
        last = run[-1].hit
        wanted = range(last.chunk_index + 1, last.chunk_index + 1 + room)
        indexes = [i for i in wanted if (last.document_id, i) not in present]
        chunks = readable_chunks(user, last.document_id, indexes, section=last.section)
        stream = stream_of(run)
        open_list = scan(stream)[-1].block
        expected = last.chunk_index + 1
        taken: list[SearchHit] = []
        kept = 0  # how many of `taken` the list needs: up to the last chunk that added items
        for chunk in chunks:
            if chunk.chunk_index != expected:
                break  # a gap (a chunk already in the evidence, or missing): the stream is not consecutive
            number = -1 - len(hits) - len(taken)  # a stand-in evidence number, to see what the list took from it
            stream += lines_of(number, chunk.text, heading_of(chunk))
            found = [f for f in scan(stream) if _same_list(f.block, open_list)]
            if not found:
                break  # the next chunk does not go on with the list
            taken.append(make_hit(chunk, Ranked(chunk.pk, 0.0, "list"), query, {}, snippet_chars))
            if any(n == number for n, _ in found[-1].block.items):
                kept = len(taken)
            if not found[-1].open_at_end:
                break
            open_list = found[-1].block
            expected += 1
        hits += taken[:kept]
    return hits
