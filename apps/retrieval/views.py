"""The search page of a collection: a form, and its results as a whole page or as the htmx partial."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from apps.documents.access import get_collection_for_user
from apps.documents.locators import locator_label
from apps.documents.models import Collection
from apps.retrieval.api import SearchQueryForm
from apps.retrieval.search.service import search as run_search
from apps.retrieval.search.types import (
    DEPTHS,
    MODES,
    ChunkSource,
    CollectionNotFound,
    InvalidSearch,
    SearchHit,
    SearchResponse,
)

FILTER_FIELDS = ("authors", "title", "journal", "kind", "year_from", "year_to", "section")


def bibliographic_line(hit: ChunkSource) -> str:
    """Who, when and where, whichever of them the document has: "Smith, Lee, Chen et al. · 2019 · Nature"."""
    authors = ", ".join(hit.authors[:3]) + (" et al." if len(hit.authors) > 3 else "")
    return " · ".join(part for part in (authors, str(hit.year or ""), hit.journal) if part)


def viewer_link(hit: SearchHit) -> str:
    """The hit's place in its document: the viewer when the service gives one, else the document page."""
    if hit.viewer_url:
        return hit.viewer_url
    page = reverse("document-detail", kwargs={"document_id": hit.document_id})
    return f"{page}?chunk={hit.chunk_index}#chunk-{hit.chunk_index}"


@login_required
def collection_search(request: HttpRequest, slug: str) -> HttpResponse:
    collection, rights = get_collection_for_user(request.user, slug)
    form = SearchQueryForm(request.GET)
    response, error = None, ""
    if "q" in request.GET:
        if not form.is_valid():
            error = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in form.errors.items())
        else:
            try:
                response = run_search(request.user, form.search_params((collection.slug,)))
            except InvalidSearch as exc:
                error = str(exc)
            except CollectionNotFound:
                raise Http404("No such collection.") from None
    deep_query = request.GET.copy()
    deep_query["depth"] = "deep"
    deep_query.pop("offset", None)  # a deeper search starts again from its best hits
    values = {name: request.GET.get(name, "") for name in ("q", "mode", "depth", *FILTER_FIELDS)}
    context = {
        "collection": collection,
        "rights": rights,
        "values": values,
        "modes": MODES,
        "depths": DEPTHS,
        "filters_open": any(values[name].strip() for name in FILTER_FIELDS),
        "response": response,
        # The cache is shared by the collection's readers: only staff are told another search filled it.
        "show_cached": bool(response and response.cached and request.user.is_staff),
        "kinds": _kinds(collection, values["kind"]),
        "rows": [result_row(hit) for hit in response.hits] if response else [],
        "error": error,
        "searched": "q" in request.GET,
        "deep_url": f"{request.path}?{deep_query.urlencode()}",
        **page_links(request, response),
        "show_deep": response is not None and response.params.get("depth", values["depth"] or "quick") != "deep",
    }
    # htmx's own requests get the results only; a boosted link or a history restore needs the whole page.
    partial = request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request
    template = "retrieval/_search_results.html" if partial else "retrieval/search.html"
    page = render(request, template, context)
    patch_vary_headers(page, ["HX-Request"])
    return page


def page_links(request: HttpRequest, response: SearchResponse | None) -> dict[str, str]:
    """The links of the next and the previous page of results: this search's query string with another offset."""
    links = {"more_url": "", "previous_url": ""}
    if response is None:
        return links

    def at(offset: int) -> str:
        query = request.GET.copy()
        query.pop("offset", None)
        if offset:
            query["offset"] = str(offset)
        return f"{request.path}?{query.urlencode()}"

    if response.next_offset is not None:
        links["more_url"] = at(response.next_offset)
    if response.offset:
        links["previous_url"] = at(max(response.offset - int(response.params.get("top_k") or 1), 0))
    return links


def result_row(hit: SearchHit, collection_name: str = "") -> dict:
    """What a result line shows; `collection_name` for results from several collections (the home page)."""
    return {
        "hit": hit,
        "collection_name": collection_name,
        "locator": locator_label(hit),
        "bibliographic": bibliographic_line(hit),
        "url": viewer_link(hit),
    }


def _kinds(collection: Collection, chosen: str) -> list[str]:
    """The document types present in the collection (and the one asked for, even if absent)."""
    kinds = set(collection.documents.exclude(doc_type="").order_by().values_list("doc_type", flat=True).distinct())
    return sorted(kinds | ({chosen} if chosen else set()))
