"""Search through its surfaces — the API, the collection's search page (whole and htmx partial) and
`manage.py search` — on a document the real worker has ingested."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db

NOTE = (
    b"# Photosynthesis notes\n\n"
    b"## Methods\n\n"
    b"Chlorophyll absorbs light in the thylakoid membranes. <script>alert(1)</script> "
    b"The thylakoid stacks were counted weekly.\n\n"
    b"## Results\n\n"
    b"Oxygen output rose with light intensity.\n"
)


@pytest.fixture
def note(celery_worker_available, api_client_for, api_upload, wait_for_ingest) -> dict:
    """A Markdown note in `lab`, read by the worker: its first passage (§ Methods) holds "thylakoid" and a script."""
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, "photosynthesis.md", NOTE)["id"])
    assert done["status"] == "ready", done["error"]
    return done


def _search_url(slug: str = "lab") -> str:
    return reverse("collection-search", kwargs={"slug": slug})


# ---- API ---------------------------------------------------------------------------------------------------------
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_api_returns_hits_with_their_locators_to_a_member(api_client_for, note):
    response = api_client_for("viewer").get(
        reverse("api-search"), {"q": "thylakoid", "collection": "lab", "mode": "keyword"}
    )
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["query"] == "thylakoid" and data["params"]["collections"] == ["lab"]
    assert data["diagnostics"]["mode_used"] == "keyword" and data["diagnostics"]["collections"] == ["lab"]
    top = data["results"][0]
    assert top["document_id"] == note["id"] and top["collection"] == "lab" and top["chunk_index"] == 0
    assert top["section"] == "Methods" and top["locator_precision"] == "paragraph"
    assert (top["para_start"], top["line_start"]) == (0, 1) and top["page"] is None
    assert "<mark>thylakoid</mark>" in top["snippet_html"]
    detail = reverse("document-detail", kwargs={"document_id": note["id"]})
    assert top["viewer_url"].startswith("http://testserver" + detail)  # absolute (portal/links.py)
    # "Results" has no "thylakoid": only the Methods passage is found
    assert {hit["section"] for hit in data["results"]} == {"Methods"}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_api_searches_every_readable_collection_when_none_is_named(api_client_for, note):
    hybrid = api_client_for("viewer").get(reverse("api-search"), {"q": "thylakoid membranes"}).json()
    assert hybrid["params"]["collections"] == ["lab"] and hybrid["diagnostics"]["mode"] == "hybrid"
    assert hybrid["results"][0]["document_id"] == note["id"]
    # the outsider reads only "other": the same words find nothing of lab's
    hidden = api_client_for("outsider").get(reverse("api-search"), {"q": "thylakoid", "mode": "keyword"})
    assert hidden.status_code == 200 and hidden.json()["params"]["collections"] == ["other"]
    assert hidden.json()["results"] == []


def test_a_non_members_collection_is_not_found_like_a_missing_one(api_client_for, collection):
    client = api_client_for("outsider")
    hidden = client.get(reverse("api-search"), {"q": "thylakoid", "collection": "lab", "mode": "keyword"})
    missing = client.get(reverse("api-search"), {"q": "thylakoid", "collection": "no-such", "mode": "keyword"})
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json()


def test_anonymous_callers_must_authenticate(api_client_for, collection):
    response = api_client_for(None).get(reverse("api-search"), {"q": "thylakoid", "collection": "lab"})
    assert response.status_code == 401


@pytest.mark.parametrize(
    "params,field,words",
    [
        ({"mode": "fuzzy"}, "detail", "mode must be one of"),
        ({"depth": "bottomless"}, "detail", "depth must be one of"),
        ({"top_k": "abc"}, "top_k", "whole number"),
        ({"top_k": "3.0"}, "top_k", "whole number"),
        ({"top_k": "0"}, "detail", "top_k must be between"),
        ({"top_k": "51"}, "detail", "top_k must be between"),
        ({"snippet": "5"}, "detail", "snippet must be between"),
        ({"year_from": "20x"}, "year_from", "whole number"),
        ({"year_to": "99999"}, "year_to", "between"),
        ({"year_from": "2020", "year_to": "2010"}, "detail", "year_from is after year_to"),
        ({"rerank": "maybe"}, "rerank", "true or false"),
        ({"document": "one"}, "document", "whole number"),
        ({"q": "   "}, "detail", "Type something"),
    ],
)
def test_bad_parameters_are_refused_with_a_reason(api_client_for, collection, params, field, words):
    query = {"q": "thylakoid", "collection": "lab"} | params
    response = api_client_for("viewer").get(reverse("api-search"), query)
    assert response.status_code == 400, response.content
    body = response.json()
    message = body[field] if field == "detail" else body["errors"][field][0]
    assert words in message


def test_the_schema_describes_the_search_endpoint(client):
    body = client.get(reverse("api-schema")).content.decode()
    assert "/api/v1/search:" in body and "snippet_html" in body and "name: year_from" in body


# ---- the page ----------------------------------------------------------------------------------------------------
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_page_shows_results_in_full_and_as_an_htmx_partial(page_client_for, note):
    client = page_client_for("viewer")
    query = {"q": "thylakoid", "mode": "keyword", "depth": "quick"}
    full = client.get(_search_url(), query)
    assert full.status_code == 200
    body = full.content.decode()
    assert "<html" in body and 'hx-get="/c/lab/search/"' in body and 'hx-push-url="true"' in body
    assert 'id="search-results"' in body and 'value="thylakoid"' in body
    title = note["title"] or note["original_name"]
    assert title in body and "§ Methods · lines 1–5" in body
    assert "<mark>thylakoid</mark>" in body
    viewer = reverse("document-viewer", kwargs={"document_id": note["id"]})
    assert f'href="{viewer}?chunk=0' in body
    assert "Retrieval note" in body and "keyword" in body
    # quick results offer the same search with depth=deep
    assert "depth=deep" in body and "q=thylakoid" in body

    partial = client.get(_search_url(), query, HTTP_HX_REQUEST="true")
    part = partial.content.decode()
    assert partial.status_code == 200 and "HX-Request" in partial["Vary"]
    assert "<html" not in part and "<form" not in part and 'id="search-results"' not in part
    assert title in part and "<mark>thylakoid</mark>" in part and "Retrieval note" in part


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_deep_search_on_the_page_offers_no_deeper_one_and_reports_its_reranker(page_client_for, note):
    body = page_client_for("viewer").get(_search_url(), {"q": "thylakoid", "depth": "deep"}).content.decode()
    assert "<mark>thylakoid</mark>" in body and "depth=deep" not in body
    assert "Reranker" in body and "depth deep" in body


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_snippets_are_escaped_on_the_page(page_client_for, note):
    body = page_client_for("viewer").get(_search_url(), {"q": "thylakoid", "mode": "keyword"}).content.decode()
    assert "<mark>thylakoid</mark>" in body  # the marks are HTML …
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body  # … the document's own tags are text
    assert "<script>alert" not in body


def test_the_page_without_a_query_shows_the_form_only(page_client_for, collection):
    body = page_client_for("viewer").get(_search_url()).content.decode()
    assert '<form class="search-form' in body and '<details class="search-filters">' in body
    assert "Retrieval note" not in body


def test_the_page_reports_bad_parameters_and_keeps_the_filters_open(page_client_for, collection):
    response = page_client_for("viewer").get(_search_url(), {"q": "thylakoid", "year_from": "2020", "year_to": "2010"})
    body = response.content.decode()
    assert response.status_code == 200 and "year_from is after year_to" in body
    assert '<details class="search-filters" open>' in body and 'value="2020"' in body
    body = page_client_for("viewer").get(_search_url(), {"q": "thylakoid", "year_to": "soon"}).content.decode()
    assert "year_to: must be a whole number" in body


@pytest.mark.parametrize("persona,expected", [("viewer", 200), ("manager", 200), ("admin", 200), ("outsider", 404)])
def test_the_page_is_for_members_only(page_client_for, collection, persona, expected):
    assert page_client_for(persona).get(_search_url()).status_code == expected
    assert page_client_for(persona).get(_search_url("no-such")).status_code == 404


def test_the_page_sends_anonymous_people_to_log_in(page_client_for, collection):
    response = page_client_for(None).get(_search_url(), {"q": "thylakoid"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_collection_page_links_to_its_search(page_client_for, collection):
    body = page_client_for("viewer").get(collection.get_absolute_url()).content.decode()
    assert f'href="{_search_url()}"' in body


# ---- manage.py search --------------------------------------------------------------------------------------------
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_command_prints_json_and_a_readable_list(note):
    out = StringIO()
    call_command("search", "thylakoid", "--collection", "lab", "--mode", "keyword", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["results"][0]["document_id"] == note["id"] and data["diagnostics"]["mode_used"] == "keyword"

    out = StringIO()
    call_command("search", "thylakoid", "--collection", "lab", "--mode", "keyword", stdout=out)
    text = out.getvalue()
    title = note["title"] or note["original_name"]
    assert text.startswith(f"[1] {title} — § Methods · lines 1–5 (")
    # marks become «…» off a terminal, and the escaped text is plain text again
    assert "«thylakoid»" in text and "<script>alert(1)</script>" in text and "&lt;" not in text
    assert "\x1b[" not in text and "Retrieval note: mode keyword" in text


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_command_searches_with_a_users_access_when_asked(note):
    with pytest.raises(CommandError, match="no collection lab that otto may read"):
        call_command("search", "thylakoid", "--collection", "lab", "--user", "otto", stdout=StringIO())
    out = StringIO()
    call_command("search", "thylakoid", "--user", "vic", "--mode", "keyword", "--json", stdout=out)
    assert json.loads(out.getvalue())["params"]["collections"] == ["lab"]


def test_the_command_reports_bad_input_as_errors(personas):
    with pytest.raises(CommandError, match="top_k must be between"):
        call_command("search", "thylakoid", "--collection", "lab", "--top-k", "0", stdout=StringIO())
    with pytest.raises(CommandError, match="no active user 'nobody'"):
        call_command("search", "thylakoid", "--user", "nobody", stdout=StringIO())
