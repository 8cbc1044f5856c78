"""A SearchHit with every field filled, for tests that build evidence without a database."""

from __future__ import annotations

from apps.retrieval.search.types import SearchHit


def make_hit(**changes) -> SearchHit:
    fields = dict(
        chunk_id=5,
        chunk_index=2,
        document_id=9,
        collection="lab",
        title="T",
        authors=["A. B"],
        year=2020,
        journal="J",
        doi="10.1/x",
        source="t.pdf",
        doc_type="pdf",
        section="Results",
        section_key="Results",
        heading_path=["Results"],
        chunk_type="text",
        content="c",
        text="Full text. " * 50,
        snippet_html="",
        locator_precision="bbox",
        locator_degraded=False,
        page=4,
        page_end=5,
        rects=[{"page": 4, "x0": 1, "y0": 2, "x1": 3, "y1": 4}],
        page_size={"4": [595, 842]},
        para_start=None,
        para_end=None,
        para_ids=[],
        line_start=None,
        line_end=None,
        weight=1.0,
        score=0.03,
        score_source="fusion",
        scores={},
        viewer_url="/documents/9/?chunk=2",
    )
    fields.update(changes)
    return SearchHit(**fields)
