"""A database that is away for a moment answers 503 with a sentence a person can act on, not a 500 traceback.

Django opens a new connection for the next request (and, with persistent connections, CONN_HEALTH_CHECKS replaces
a dead one), so once the database is back every page works again without a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from portal.api_errors import MESSAGE, DatabaseUnavailable, database_unavailable, error_body

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
            response = HttpResponse(render_to_string("503.html", {"message": MESSAGE}), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
