"""Failures that are the request's or the database's, answered with a sentence a person can act on, not a 500.

- A database that is away for a moment answers 503. Django opens a new connection for the next request (and, with
  persistent connections, CONN_HEALTH_CHECKS replaces a dead one), so once the database is back every page works
  again without a restart.
- Input PostgreSQL cannot store (a NUL in a query string, a header or a page's form) answers 400, and a page's
  form body over DATA_UPLOAD_MAX_MEMORY_SIZE 413, before any view reads it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions

from portal.api_errors import (
    MESSAGE,
    DatabaseUnavailable,
    database_unavailable,
    error_body,
    request_refusal,
)
from portal.api_parsers import unstorable_fields

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


class DatabaseUnavailableMiddleware:
    """Turns a lost or refused database connection raised by a view into a 503 (JSON for the API, a page else)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_unavailable(exception):
            return None
        log.warning("database unavailable during %s %s: %s", request.method, request.path, exception)
        if _wants_json(request):
            response: HttpResponse = JsonResponse(error_body(DatabaseUnavailable()), status=503)
        else:
            # Rendered without the request: base.html would ask the database for the user and fail again.
            response = HttpResponse(render_to_string("503.html", {"message": _(MESSAGE)}), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_TITLES = {400: _("This request cannot be read"), 413: _("This request is too large")}


def _form_pairs(request: HttpRequest) -> list[tuple[str, str]]:
    """A page's form fields (not its files: uploaded names are cleaned, apps/documents/services/filenames.py).

    API bodies are not read here: REST_FRAMEWORK's parsers (portal/api_parsers.py) check them after the caller is
    authenticated, so that no stranger's upload is read before it is refused."""
    if request.path.startswith("/api/") or request.method not in ("POST", "PUT", "PATCH"):
        return []
    if request.content_type not in _FORM_TYPES:
        return []
    return [(name, value) for name, values in request.POST.lists() for value in values]


def _input_pairs(request: HttpRequest) -> list[tuple[str, str]]:
    # Headers too: a session cookie or a token is looked up in the database.
    headers = [(name, value) for name, value in request.META.items() if name.startswith("HTTP_")]
    query = [(name, value) for name, values in request.GET.lists() for value in values]
    return headers + query + _form_pairs(request)


def _refused(request: HttpRequest, exc: exceptions.APIException) -> HttpResponse:
    body = error_body(exc)
    if _wants_json(request):
        return JsonResponse(body, status=exc.status_code)
    # Stand-alone like 503.html: nothing about the request is trusted enough to render base.html with it.
    context = {"title": _TITLES.get(exc.status_code, _TITLES[400]), "message": body["detail"], "errors": body["errors"]}
    return HttpResponse(render_to_string("request_refused.html", context), status=exc.status_code)


class RequestInputMiddleware:
    """Refuses what no view can use before one reads it: text PostgreSQL cannot store (400 naming the field), and
    a page's form body Django will not read (413 when too large, 400 with too many fields or a broken form)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            problems = unstorable_fields(_input_pairs(request))
        except (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent) as exc:
            return _refused(request, request_refusal(exc) or exceptions.ParseError())
        except MultiPartParserError:
            return _refused(request, exceptions.ParseError("The form data could not be read."))
        if problems:
            return _refused(request, exceptions.ValidationError(problems))
        return self.get_response(request)
