"""The result cache is shared by everyone who reads the same collections, so "this came from the cache" would tell
one member that another ran the same query. Responses (API, page, MCP, the ask's diagnostics) never say it; staff
see it in the diagnostics."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from apps.integrations.mcp.operations import search_hits

pytestmark = pytest.mark.django_db

QUERY = {"q": "hello world", "collection": "lab", "mode": "keyword"}


def _api_search(client) -> dict:
    response = client.get(reverse("api-search"), QUERY)
    assert response.status_code == 200, response.content
    return response.json()


def _says_cached(body: dict) -> bool:
    """Anything in the body that gives the cache away: the flag anywhere, or the time the cache lookup took."""
    text = json.dumps(body)
    return '"cached"' in text or '"cache"' in text


def test_a_member_cannot_tell_that_another_ran_the_same_search(api_client_for, document):
    first = _api_search(api_client_for("editor"))  # fills the cache
    repeat = _api_search(api_client_for("viewer"))  # served from it
    assert [hit["chunk_id"] for hit in repeat["results"]] == [hit["chunk_id"] for hit in first["results"]]
    assert first["results"], "the search must find the document for the test to mean anything"
    assert not _says_cached(first) and not _says_cached(repeat)
    assert set(repeat) == set(first) and set(repeat["diagnostics"]) == set(first["diagnostics"])
    assert repeat["diagnostics"]["timings_ms"].keys() == first["diagnostics"]["timings_ms"].keys() == {"total"}


def test_staff_are_told_in_the_diagnostics(api_client_for, document):
    _api_search(api_client_for("editor"))
    staff = _api_search(api_client_for("admin"))
    assert staff["diagnostics"]["cached"] is True and "cached" not in staff
    assert "cache" in staff["diagnostics"]["timings_ms"]


def test_the_search_page_says_from_the_cache_to_staff_only(page_client_for, personas, document, client):
    url = reverse("collection-search", kwargs={"slug": "lab"})
    params = {"q": "hello world", "mode": "keyword"}
    page_client_for("editor").get(url, params)  # fills the cache
    client.logout()
    member = page_client_for("viewer").get(url, params)
    assert member.status_code == 200 and "1 result for" in member.content.decode()
    assert "from the cache" not in member.content.decode()
    client.logout()
    staff = page_client_for("admin").get(url, params)
    assert "from the cache" in staff.content.decode()


def test_the_mcp_search_tool_does_not_say_it(personas, document):
    search_hits(personas["editor"], query="hello world", collection="lab", mode="keyword")
    repeat = search_hits(personas["viewer"], query="hello world", collection="lab", mode="keyword")
    assert repeat["results"] and not _says_cached(repeat)


def test_the_ask_diagnostics_do_not_say_it(api_client_for, document, embedder):
    question = {"question": "hello world?", "collection": "lab", "depth": "quick"}
    first = api_client_for("editor").post(reverse("api-ask"), question, format="json")
    repeat = api_client_for("viewer").post(reverse("api-ask"), question, format="json")
    assert first.status_code == repeat.status_code == 200, repeat.content
    assert not _says_cached(repeat.json()["diagnostics"])
    assert repeat.json()["diagnostics"]["search"].keys() == first.json()["diagnostics"]["search"].keys()
