"""Reciprocal-rank fusion of ranked lists (Cormack et al. 2009), scaled by each chunk's section weight."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[int]], weights: Mapping[int, float], k: int = RRF_K
) -> list[tuple[int, float]]:
    """(chunk id, fused score) best first: sum over lists of 1 / (k + rank), rank from 1, times the chunk weight.

    A chunk of weight 0 never comes out, whatever its ranks; ties keep the order of first appearance.
    """
    fused: dict[int, float] = {}
    for ranking in rankings.values():
        for rank, chunk_id in enumerate(ranking, start=1):
            fused[chunk_id] = fused.get(chunk_id, 0.0) + 1.0 / (k + rank)
    scored = [(chunk_id, score * weights.get(chunk_id, 1.0)) for chunk_id, score in fused.items()]
    scored = [(chunk_id, score) for chunk_id, score in scored if score > 0]
    order = {chunk_id: i for i, chunk_id in enumerate(fused)}
    scored.sort(key=lambda item: (-item[1], order[item[0]]))
    return scored
