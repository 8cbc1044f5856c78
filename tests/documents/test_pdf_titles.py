"""A PDF's title is its title: not the DOI a publisher wrote into the title field, not arXiv's identifier stamp
running up the left margin.

Before, Elsevier's publisher PDF (elsevier_jhydrol2005_…, title field "doi:10.1016/j.jhydrol.2005.01.006") was
listed under its DOI, and arXiv PDFs with an empty title field were listed as "arXiv:2201.13352v1
[physics.app-ph] 31 Jan 2022": the stamp is set in 20 pt, larger than any title, so the first page's largest
type was the stamp, and the byline was looked for after it (no authors found).
"""

from __future__ import annotations

import pytest

from apps.documents.parsing import parse_document


@pytest.mark.parametrize(
    ("name", "title", "first_author"),
    [
        (
            "elsevier_jhydrol2005_flow_duration.pdf",
            "The response of flow duration curves to afforestation",
            "Patrick N.J. Lane",
        ),
        (
            "elsarticle_arxiv2201.13352_strain_sensor.pdf",
            "Low-Power Silicon Strain Sensor Based on CMOS Current Reference Topology",
            "Nicolas Roisin",
        ),
    ],
)
def test_the_title_is_read_from_the_page_when_the_field_holds_an_identifier_or_the_margin_a_stamp(
    shared_corpus, name, title, first_author
):
    metadata = parse_document((shared_corpus / "pdf-varied" / name).read_bytes(), name).metadata
    assert (metadata["title"], metadata["title_guessed"]) == (title, True)
    assert metadata["authors"][0] == first_author


def test_an_arxiv_stamp_is_never_taken_for_a_title(shared_corpus):
    # DPR's title is set barely larger than its byline, so no title is guessed; the stamp must not be one either
    for name in ("arxiv2004.04906_dpr_emnlp2020_2col.pdf", "elsarticle_arxiv2201.13352_strain_sensor.pdf"):
        metadata = parse_document((shared_corpus / "pdf-varied" / name).read_bytes(), name).metadata
        assert not (metadata.get("title") or "").startswith("arXiv:")
    dpr = parse_document(
        (shared_corpus / "pdf-varied" / "arxiv2004.04906_dpr_emnlp2020_2col.pdf").read_bytes(), "x.pdf"
    )
    assert "Danqi Chen" in dpr.metadata["authors"]
