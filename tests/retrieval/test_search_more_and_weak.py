"""Search's "more results" (offset paging) and its weak-match signal (apps/retrieval/search/match.py), in the
service, the API and the search page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.documents.services.bulk import TextItem, add_texts
from apps.retrieval.search.match import WEAK_MATCH_BELOW, is_weak, key_term_coverage
from apps.retrieval.search.service import search
from apps.retrieval.search.types import InvalidSearch, SearchParams

pytestmark = pytest.mark.django_db

PLACES = ["Gir forest", "Gujarat", "Junagadh", "Amreli", "Bhavnagar", "Saurashtra", "Porbandar", "Barda"]


@pytest.fixture
def lions(collection, personas):
    """Eight passages about lions, each naming another place, and one about wheat (keyword index only)."""
    items = [
        TextItem(f"lions-{n}.txt", f"Lions {n}", f"Asiatic lions were counted near {place} in survey {n}.")
        for n, place in enumerate(PLACES)
    ]
    items.append(TextItem("wheat.txt", "Wheat", "Wheat yields fell in the dry years."))
    return add_texts(collection, items, None)


def _search(user, query: str, **kw):
    return search(user, SearchParams(query=query, collections=("lab",), mode="keyword", use_cache=False, **kw))


def test_pages_are_slices_of_one_ranking(lions, personas):
    whole = _search(personas["viewer"], "asiatic lions counted", top_k=6)
    first = _search(personas["viewer"], "asiatic lions counted", top_k=3)
    second = _search(personas["viewer"], "asiatic lions counted", top_k=3, offset=3)
    assert [h.chunk_id for h in first.hits + second.hits] == [h.chunk_id for h in whole.hits]
    assert (first.offset, first.next_offset) == (0, 3)
    assert (second.offset, second.next_offset) == (3, 6)
    last = _search(personas["viewer"], "asiatic lions counted", top_k=3, offset=6)
    assert len(last.hits) == 2 and last.next_offset is None  # eight lion passages in all


def test_an_offset_out_of_range_is_refused(lions, personas):
    with pytest.raises(InvalidSearch, match="offset"):
        _search(personas["viewer"], "lions", offset=-1)


def test_a_nonsense_query_is_a_weak_match_and_a_real_one_is_not(lions, personas):
    nonsense = _search(personas["viewer"], "xyzzyplugh")
    assert nonsense.key_term_coverage == 0.0 and nonsense.weak_match
    real = _search(personas["viewer"], "where were asiatic lions counted")
    assert real.key_term_coverage is not None and real.key_term_coverage >= WEAK_MATCH_BELOW and not real.weak_match


def test_coverage_weighs_rare_terms_more_than_common_ones():
    idf = {"lion": 3.0, "survey": 0.2}
    # the passage with the rare term covers most of the weight; the one with the common term little
    assert key_term_coverage("lions survey", idf, ["a lion"]) == pytest.approx(3.0 / 3.2, abs=1e-3)
    assert key_term_coverage("lions survey", idf, ["a survey"]) == pytest.approx(0.2 / 3.2, abs=1e-3)
    assert key_term_coverage("lions survey", idf, []) == 0.0
    assert key_term_coverage("!!!", idf, ["a lion"]) is None and not is_weak(None)


def test_the_api_says_weak_match_and_gives_the_next_offset(api_client_for, lions):
    client = api_client_for("viewer")
    weak = client.get(reverse("api-search"), {"q": "xyzzyplugh", "collection": "lab", "mode": "keyword"}).json()
    assert weak["weak_match"] is True and weak["key_term_coverage"] == 0.0
    page = client.get(reverse("api-search"), {"q": "asiatic lions", "mode": "keyword", "offset": 3}).json()
    assert page["weak_match"] is False and page["offset"] == 3 and page["next_offset"] == 6
    assert len(page["results"]) == 3
    bad = client.get(reverse("api-search"), {"q": "lions", "offset": "1.5"})
    assert bad.status_code == 400 and "offset" in bad.json()["errors"]


def test_the_search_page_warns_of_a_weak_match(page_client_for, lions):
    client = page_client_for("viewer")
    url = reverse("collection-search", kwargs={"slug": "lab"})
    # one known word among six made-up ones: passages are found, none holds the query's key terms
    weak = client.get(url, {"q": "lions xyzzy plugh frobnicate quuxor zorkmid blorpt", "mode": "keyword"})
    assert 'class="search-hits"' in weak.content.decode() and 'class="weak-match' in weak.content.decode()
    good = client.get(url, {"q": "asiatic lions", "mode": "keyword"}).content.decode()
    assert 'class="weak-match' not in good


def test_the_search_page_links_more_results_keeping_the_query(page_client_for, lions):
    client = page_client_for("viewer")
    url = reverse("collection-search", kwargs={"slug": "lab"})
    first = client.get(url, {"q": "asiatic lions", "mode": "keyword"}).content.decode()
    more = f"{url}?q=asiatic+lions&amp;mode=keyword&amp;offset=3"
    assert f'href="{more}"' in first and "Previous results" not in first
    # without JavaScript the link opens the next page whole; htmx gets the results part only
    second = client.get(url, {"q": "asiatic lions", "mode": "keyword", "offset": 3})
    html = second.content.decode()
    assert '<ol class="search-hits" start="4">' in html and "<html" in html
    assert f'href="{url}?q=asiatic+lions&amp;mode=keyword"' in html  # previous: back to the first page
    partial = client.get(url, {"q": "asiatic lions", "mode": "keyword", "offset": 3}, HTTP_HX_REQUEST="true")
    assert '<ol class="search-hits" start="4">' in partial.content.decode()
    assert "<html" not in partial.content.decode()


def test_hybrid_search_flags_the_unrelated_passages_vectors_find_for_nonsense(collection, personas, embedder):
    # given: the case, passages with vectors, so that "xyzzyplugh" still gets its nearest neighbours
    items = [
        TextItem(f"lions-{n}.txt", f"Lions {n}", f"Asiatic lions live near {place}.") for n, place in enumerate(PLACES)
    ]
    add_texts(collection, items, embedder)
    # when
    nonsense = search(personas["viewer"], SearchParams(query="xyzzyplugh", collections=("lab",), use_cache=False))
    real = search(personas["viewer"], SearchParams(query="Asiatic lions Gir", collections=("lab",), use_cache=False))
    # then
    assert nonsense.hits and nonsense.weak_match
    assert real.hits and not real.weak_match
