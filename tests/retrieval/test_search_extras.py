"""Deep search's extras come from the apps that know them, through a seam search offers (issue 17: search no longer
imports citations): citations registers what each hit cites and what relates to its document from its ready()."""

from __future__ import annotations

from types import SimpleNamespace

from apps.citations.services.hit_extras import cited_and_related
from apps.retrieval.search import extras


def test_citations_registers_its_extras_when_the_apps_are_ready() -> None:
    assert extras._REGISTERED.count(cited_and_related) == 1


def test_registered_extras_fill_every_hit_once_each(monkeypatch) -> None:
    monkeypatch.setattr(extras, "_REGISTERED", [])
    seen = []

    def mark(hits, documents):
        seen.append((len(hits), sorted(documents)))
        for hit in hits:
            hit.related = ["marked"]

    extras.register_hit_extras(mark)
    extras.register_hit_extras(mark)  # twice registered, once run
    hits = [SimpleNamespace(document_id=7, related=[]), SimpleNamespace(document_id=9, related=[])]
    extras.add_deep_extras(hits, {7: object(), 9: object()})
    assert seen == [(2, [7, 9])]
    assert [hit.related for hit in hits] == [["marked"], ["marked"]]
