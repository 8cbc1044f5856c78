"""GET /api/v1/search, and the query parameters of a search that the search page reads the same way."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from apps.documents.api.serializers import LocatorFieldsSerializer
from apps.retrieval.search.service import search as run_search
from apps.retrieval.search.types import (
    DEPTHS,
    MAX_OFFSET,
    MAX_TOP_K,
    MODES,
    SNIPPET_LIMITS,
    CollectionNotFound,
    Filters,
    InvalidSearch,
    SearchParams,
    SearchResponse,
)
from portal.api_errors import error_responses


def disclosed_diagnostics(response: SearchResponse, user: Any) -> dict[str, Any]:
    """The diagnostics of a search as the caller may see them.

    The result cache is shared by everyone who reads the same collections, so "this came from the cache" would
    tell one member that another ran the same query. Only staff learn it (`cached`, and the time the cache
    took); everyone else gets the total time alone, the same shape whether or not the cache answered."""
    diagnostics = dict(response.diagnostics)
    timings = diagnostics.get("timings_ms") or {}
    if getattr(user, "is_staff", False):
        return diagnostics | {"cached": response.cached}
    total = timings.get("total", timings.get("cache"))
    return diagnostics | {"timings_ms": {"total": total}}


def search_body(response: SearchResponse, user: Any) -> dict[str, Any]:
    """The body of GET /api/v1/search (and of the MCP tool kb_search) for `user`."""
    body = response.as_dict()
    body.pop("cached", None)
    return body | {"diagnostics": disclosed_diagnostics(response, user)}


_WHOLE_NUMBER = re.compile(r"[+-]?\d{1,12}")
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


class StrictIntegerField(forms.Field):
    """A whole number written as digits only: "3.0", "3e2" and " 3 x" are refused (IntegerField takes "3.0")."""

    def __init__(self, *, minimum: int | None = None, maximum: int | None = None, **kwargs) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.minimum, self.maximum = minimum, maximum

    def to_python(self, value: Any) -> int | None:
        text = "" if value is None else str(value).strip()
        if not text:
            return None
        if not _WHOLE_NUMBER.fullmatch(text):
            raise forms.ValidationError("must be a whole number", code="invalid")
        number = int(text)
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            raise forms.ValidationError(f"must be between {self.minimum} and {self.maximum}", code="range")
        return number


class OptionalBooleanField(forms.Field):
    """true/false (also 1/0, yes/no, on/off); empty means "the depth decides"."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> bool | None:
        text = "" if value is None else str(value).strip().lower()
        if not text:
            return None
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise forms.ValidationError("must be true or false", code="invalid")


class SearchQueryForm(forms.Form):
    """The query string of a search, for the API and the page alike. Values the service itself checks (mode, depth,
    top_k and snippet ranges, the query) are passed through, so that its messages are the ones people read."""

    q = forms.CharField(required=False, strip=False)
    mode = forms.CharField(required=False)
    depth = forms.CharField(required=False)
    top_k = StrictIntegerField()
    snippet = StrictIntegerField()
    rerank = OptionalBooleanField()
    authors = forms.CharField(required=False, max_length=300)
    title = forms.CharField(required=False, max_length=300)
    journal = forms.CharField(required=False, max_length=300)
    kind = forms.CharField(required=False, max_length=20)
    year_from = StrictIntegerField(minimum=0, maximum=9999)
    year_to = StrictIntegerField(minimum=0, maximum=9999)
    section = forms.CharField(required=False, max_length=300)
    document = StrictIntegerField(minimum=1, maximum=2**31 - 1)
    offset = StrictIntegerField(minimum=0, maximum=MAX_OFFSET)

    def search_params(self, collections: tuple[str, ...]) -> SearchParams:
        """The SearchParams of a valid form; call is_valid() first."""
        data = self.cleaned_data
        filters = Filters(
            authors=data["authors"].strip(),
            title=data["title"].strip(),
            journal=data["journal"].strip(),
            kind=data["kind"].strip().lower().lstrip("."),
            year_from=data["year_from"],
            year_to=data["year_to"],
            section=data["section"].strip(),
            document=data["document"],
        )
        return SearchParams(
            query=data["q"],
            collections=collections,
            filters=filters,
            mode=data["mode"].strip() or "hybrid",
            depth=data["depth"].strip() or "quick",
            top_k=data["top_k"],
            snippet_chars=data["snippet"],
            rerank=data["rerank"],
            offset=data["offset"] or 0,
        )


def first_errors(form: forms.Form) -> dict[str, list[str]]:
    """Form errors in the documents API's shape: {"field": ["message", ...]}."""
    return {name: [str(message) for message in messages] for name, messages in form.errors.items()}


# ---- the response, for the OpenAPI schema (the view returns SearchResponse.as_dict() itself) -----------------
class ChunkSourceSerializer(LocatorFieldsSerializer):
    """Where a passage comes from and how to open it: the fields search hits and citations share (ChunkSource), the
    Locator's own declared once in LocatorFieldsSerializer."""

    chunk_id = serializers.IntegerField()
    chunk_index = serializers.IntegerField()
    document_id = serializers.IntegerField()
    collection = serializers.CharField(help_text="the collection's slug")
    title = serializers.CharField()
    authors = serializers.ListField(child=serializers.CharField())
    year = serializers.IntegerField(allow_null=True)
    journal = serializers.CharField()
    doi = serializers.CharField()
    source = serializers.CharField(help_text="the original file name")
    doc_type = serializers.CharField()
    content = serializers.CharField(help_text="the chunk text, cut to 300 characters")
    page_size = serializers.DictField()
    score = serializers.FloatField()
    score_source = serializers.CharField(help_text="rerank | fusion | keyword | vector")
    viewer_url = serializers.CharField()
    citations_out = serializers.ListField(child=serializers.DictField(), help_text="deep: the passage's own references")


class SearchHitSerializer(ChunkSourceSerializer):
    text = serializers.CharField(help_text="the whole chunk text")
    snippet_html = serializers.CharField(help_text="HTML-escaped window around the query terms, terms in <mark>")
    para_ids = serializers.ListField(child=serializers.CharField())
    weight = serializers.FloatField()
    scores = serializers.DictField(child=serializers.FloatField(allow_null=True))
    related = serializers.ListField(child=serializers.DictField(), help_text="deep: related documents")


class SearchResponseSerializer(serializers.Serializer):
    query = serializers.CharField()
    params = serializers.DictField()
    results = SearchHitSerializer(many=True)
    diagnostics = serializers.DictField(
        help_text="mode used, reranker, timings (total; staff: each stage, and `cached`), candidates, degraded notes"
    )
    hint = serializers.CharField()
    key_term_coverage = serializers.FloatField(
        allow_null=True,
        help_text="the largest idf-weighted share of the query's terms one passage of the first page holds, 0–1; "
        "null when the query has no terms to weigh",
    )
    weak_match = serializers.BooleanField(
        help_text="true when no passage matches the query's key terms well (key_term_coverage below the measured "
        "threshold): the results are the nearest there are, not good matches"
    )
    offset = serializers.IntegerField(help_text="hits skipped before these (the `offset` asked for)")
    next_offset = serializers.IntegerField(
        allow_null=True, help_text="the `offset` of the next page of results, or null when there are no more"
    )


_FILTER_PARAMETERS = [
    OpenApiParameter("authors", str, description="substring of any author, case-insensitive"),
    OpenApiParameter("title", str, description="substring of the title, case-insensitive"),
    OpenApiParameter("journal", str, description="substring of the journal, case-insensitive"),
    OpenApiParameter("kind", str, description="document type: pdf, docx, md, txt, html, xlsx"),
    OpenApiParameter("year_from", int, description="published in this year or later"),
    OpenApiParameter("year_to", int, description="published in this year or earlier"),
    OpenApiParameter(
        "section", str, description="substring of the passage's section as printed or of its canonical name, any case"
    ),
    OpenApiParameter("document", int, description="only this document (its id)"),
]


@extend_schema(
    parameters=[
        OpenApiParameter("q", str, required=True, description="what to search for (at most 1000 characters)"),
        OpenApiParameter(
            "collection",
            str,
            many=True,
            description="a collection's slug; repeat for several; omitted: every collection the caller may read",
        ),
        OpenApiParameter("mode", str, enum=list(MODES), description="default hybrid"),
        OpenApiParameter(
            "depth", str, enum=list(DEPTHS), description="quick (default) or deep: rerank, cited references, related"
        ),
        OpenApiParameter("top_k", int, description=f"hits to return, 1–{MAX_TOP_K} (default: the depth's)"),
        OpenApiParameter(
            "snippet",
            int,
            description=f"snippet length, {SNIPPET_LIMITS[0]}–{SNIPPET_LIMITS[1]} characters (default: the depth's)",
        ),
        OpenApiParameter("rerank", OpenApiTypes.BOOL, description="rerank the candidates (default: the depth's)"),
        OpenApiParameter(
            "offset", int, description=f"hits to skip, 0–{MAX_OFFSET}: the response's next_offset gives the next page"
        ),
        *_FILTER_PARAMETERS,
    ],
    responses={200: SearchResponseSerializer, **error_responses(400, 401, 404)},
)
@api_view(["GET"])
def search(request: Request) -> Response:
    """Search passages of the caller's collections; every hit carries its locator (page, rectangles, paragraphs,
    lines) and a link into the source."""
    form = SearchQueryForm(request.query_params)
    if not form.is_valid():
        raise ValidationError(first_errors(form))
    slugs = tuple(dict.fromkeys(s.strip() for s in request.query_params.getlist("collection") if s.strip()))
    try:
        response = run_search(request.user, form.search_params(slugs))
    except InvalidSearch as exc:
        raise ValidationError({"detail": str(exc)}) from None
    except CollectionNotFound:
        # The same answer as the access helpers give, for a missing and for a hidden collection alike.
        raise NotFound("No such collection.") from None
    return Response(search_body(response, request.user))
