"""The citation is one type from birth to storage and back (issue 17): finish builds Citation objects, the answer
stores them as Citation.as_dict() made them, and every reader gets the same objects back; the API's serializers
document exactly the fields of the dataclasses they describe."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from apps.citations.answers.citation import Citation, StoredCitationError, from_hit, stored_citations, text_hash
from apps.citations.answers.finalize import Draft, finish
from apps.citations.answers.types import Evidence
from apps.citations.api import CitationSerializer
from apps.documents.api.serializers import LocatorFieldsSerializer
from apps.documents.locators import Locator, locator_label
from apps.retrieval.api import SearchHitSerializer
from apps.retrieval.search.types import SearchHit
from tests.citations.hit_factory import make_hit

LIONS = "The Asiatic lion survives only in the Gir forest of India. Its population grew to about 600 animals by 2017."
WHEAT = "Fusarium poae infects durum wheat kernels. Infected kernels released more volatile alcohols than healthy ones."


@pytest.mark.parametrize(
    ("serializer", "dataclass"),
    [(LocatorFieldsSerializer, Locator), (SearchHitSerializer, SearchHit), (CitationSerializer, Citation)],
)
def test_each_serializer_documents_exactly_the_fields_of_its_type(serializer, dataclass):
    documented, declared = set(serializer().fields), {f.name for f in fields(dataclass)}
    assert documented == declared, documented ^ declared


def test_a_finished_answer_stores_its_citations_and_reads_them_back_as_the_same_objects():
    evidence = [
        Evidence(1, make_hit(chunk_id=7, document_id=3, text=WHEAT, page=2, page_end=3, line_start=None)),
        Evidence(2, make_hit(chunk_id=9, document_id=4, text=LIONS, section="Results", para_start=5, para_end=6)),
    ]
    done = finish(
        Draft("Lions live in the Gir forest [2]. Kernels released more alcohols [1]."),
        evidence,
        "Where do lions live?",
        "en",
        True,
        deep=False,
        reading_mode=False,
    )
    assert [type(c) for c in done.citations] == [Citation, Citation]
    # numbered by first use: the lions passage, evidence 2, is [1]
    assert [(c.n, c.evidence_number, c.document_id) for c in done.citations] == [(1, 2, 4), (2, 1, 3)]
    assert done.citations[0].chunk_hash == text_hash(LIONS)

    # stored as JSON (Message.result is a JSONField) and read back
    stored = json.loads(json.dumps({"citations": [c.as_dict() for c in done.citations]}))
    assert stored_citations(stored) == done.citations
    assert locator_label(stored_citations(stored)[0]) == locator_label(done.citations[0]) != ""


def test_a_topic_passage_is_a_citation_too():
    evidence = [Evidence(1, make_hit(chunk_id=7, document_id=3, text=WHEAT))]
    done = finish(
        Draft(""),
        evidence,
        "Which volatile alcohols do infected wheat kernels release?",
        "en",
        True,
        deep=False,
        reading_mode=False,
    )
    assert not done.answered and [type(p) for p in done.topic_passages] == [Citation]
    stored = {"topic_passages": [p.as_dict() for p in done.topic_passages]}
    assert stored_citations(stored, "topic_passages") == done.topic_passages


def test_a_stored_citation_without_a_field_is_refused_with_the_fix():
    item = from_hit(make_hit(text=LIONS), 1, "q").as_dict()
    del item["chunk_hash"]
    with pytest.raises(StoredCitationError, match=r"lacks chunk_hash: run manage\.py migrate"):
        stored_citations({"citations": [item]})
    assert stored_citations({}) == stored_citations(None) == []
