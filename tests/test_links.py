"""Absolute links in the REST API and the MCP tools (design.md, "Links and languages"; portal/links.py): on
PORTAL_SITE_URL when it is set, else on the request's own scheme and host; MCP has no request and needs the setting."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.documents.services.bulk import TextItem, add_texts
from apps.integrations.mcp import operations
from portal.env import SettingError, env_site_url
from portal.links import absolute_links

pytestmark = pytest.mark.django_db

SITE = "https://kb.example.org"


@pytest.fixture
def notes(collection, personas):
    """Two ready text documents of `lab`, keyword-indexed (no vectors: the keyword mode is enough here)."""
    items = [
        TextItem("gir.txt", "Lions", "Asiatic lions survive in the Gir forest of Gujarat."),
        TextItem("wheat.txt", "Wheat", "Wheat yields fell in the dry years of the survey."),
    ]
    return {d.original_name: d for d in add_texts(collection, items, None)}


def test_it_makes_the_file_url_absolute_on_the_request_host_without_the_setting(api_client_for, document, settings):
    settings.PORTAL_SITE_URL = ""
    [row] = api_client_for("viewer").get(reverse("api-document-list"), {"collection": "lab"}).json()["results"]
    assert row["file_url"] == "http://testserver" + reverse("api-document-file", kwargs={"document_id": document.pk})


def test_it_makes_links_absolute_on_the_configured_site(api_client_for, document, settings):
    settings.PORTAL_SITE_URL = SITE
    data = api_client_for("viewer").get(reverse("api-document-detail", kwargs={"document_id": document.pk})).json()
    assert data["file_url"] == SITE + reverse("api-document-file", kwargs={"document_id": document.pk})


def test_pagination_links_move_to_the_configured_site(api_client_for, document, settings):
    settings.PORTAL_SITE_URL = SITE
    data = api_client_for("viewer").get(reverse("api-collection-list"), {"limit": 1}).json()
    assert data["count"] == 1 and data["next"] is None  # one readable collection: no next page
    data = api_client_for("admin").get(reverse("api-collection-list"), {"limit": 1}).json()
    assert data["next"].startswith(SITE + reverse("api-collection-list") + "?")


@pytest.mark.parametrize("site", ["", SITE])
def test_search_hits_carry_an_absolute_viewer_url(api_client_for, notes, settings, site):
    settings.PORTAL_SITE_URL = site
    response = api_client_for("viewer").get(reverse("api-search"), {"q": "Gir lions", "mode": "keyword"})
    assert response.status_code == 200, response.content
    top = response.json()["results"][0]
    base = site or "http://testserver"
    expected = base + reverse("document-viewer", args=[notes["gir.txt"].pk]) + f"?chunk={top['chunk_index']}"
    assert top["viewer_url"] == expected


def test_the_mcp_tools_use_the_configured_site(notes, personas, settings):
    settings.PORTAL_SITE_URL = SITE
    body = operations.search_hits(personas["viewer"], query="Gir lions", collection="lab", mode="keyword")
    assert body["results"][0]["viewer_url"].startswith(SITE + "/documents/")


def test_the_mcp_tools_leave_links_site_relative_without_the_setting(notes, personas, settings):
    settings.PORTAL_SITE_URL = ""
    body = operations.search_hits(personas["viewer"], query="Gir lions", collection="lab", mode="keyword")
    assert body["results"][0]["viewer_url"].startswith("/documents/")


def test_only_site_relative_link_fields_change():
    data = {
        "viewer_url": "/documents/1/view/?chunk=0",
        "file_url": "//elsewhere.example/x",
        "url": "https://other.example/y",
        "text": "/not/a/link",
        "items": [{"open_url": "/documents/2/"}],
    }
    assert absolute_links(data, SITE) == {
        "viewer_url": SITE + "/documents/1/view/?chunk=0",
        "file_url": "//elsewhere.example/x",
        "url": "https://other.example/y",
        "text": "/not/a/link",
        "items": [{"open_url": SITE + "/documents/2/"}],
    }


@pytest.mark.parametrize("value", ["kb.example.org", "ftp://kb.example.org", "https://kb.example.org/?a=1"])
def test_the_setting_refuses_what_is_not_a_site_address(monkeypatch, value):
    monkeypatch.setenv("PORTAL_SITE_URL", value)
    with pytest.raises(SettingError):
        env_site_url("PORTAL_SITE_URL")


def test_the_setting_drops_a_trailing_slash(monkeypatch):
    monkeypatch.setenv("PORTAL_SITE_URL", "https://kb.example.org/portal/")
    assert env_site_url("PORTAL_SITE_URL") == "https://kb.example.org/portal"
