"""A database that is away for a moment answers 503 with a sentence a person can act on, not a 500 traceback.

Django opens a new connection for the next request (and, with persistent connections, CONN_HEALTH_CHECKS replaces
a dead one), so once the database is back every page works again without a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from rest_framework.exceptions import APIException

log = logging.getLogger(__name__)

MESSAGE = "The database is unavailable for a moment; try again shortly."
RETRY_AFTER_SECONDS = 10


class DatabaseUnavailable(APIException):
    """What the API's exception handler (portal.api_errors) turns a lost database connection into."""

    status_code = 503
    default_detail = MESSAGE
    default_code = "database_unavailable"


def database_unavailable(exception: BaseException) -> bool:
    return isinstance(exception, OperationalError | InterfaceError)


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
            body = {"detail": MESSAGE, "code": DatabaseUnavailable.default_code, "errors": {}}  # the API's error shape
            response: HttpResponse = JsonResponse(body, status=503)
        else:
            # Rendered without the request: base.html would ask the database for the user and fail again.
            response = HttpResponse(render_to_string("503.html", {"message": MESSAGE}), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
