"""One error body for the whole REST API, and its description in the OpenAPI schema.

Every failure under /api/v1/ answers with the same JSON object, whatever raised it (a serializer, an access
helper's Http404, DRF's authentication, an unexpected exception):

    {"detail": "top_k: must be a whole number", "code": "invalid", "errors": {"top_k": ["must be a whole number"]}}

`detail` is one sentence a person can read, `code` a stable word a program can branch on, and `errors` names
each refused field (empty unless the request was invalid). A hidden object and a missing one give the very same
404 body, because both come from the same access helpers.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

logger = logging.getLogger(__name__)

# Plain strings, marked for translation (gettext_noop) and translated where they are shown: tests and callers
# compare and search them as str.
MESSAGE = gettext_noop("The database is unavailable for a moment; try again shortly.")


class DatabaseUnavailable(exceptions.APIException):
    """What the exception handler below (and portal.middleware for pages) turns a lost database connection into."""

    status_code = 503
    default_detail = _(MESSAGE)
    default_code = "database_unavailable"


class RequestTooLarge(exceptions.APIException):
    """A body over DATA_UPLOAD_MAX_MEMORY_SIZE (Django's RequestDataTooBig): 413, not the 500 it would be."""

    status_code = 413
    default_code = "too_large"

    def __init__(self) -> None:
        limit_mb = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024)
        detail = _("The request body is larger than the %(limit)s MB this portal accepts.")
        super().__init__(detail % {"limit": f"{limit_mb:g}"})


TOO_MANY_FIELDS = gettext_noop("The request has more fields or files than this portal accepts.")


def request_refusal(exception: BaseException) -> exceptions.APIException | None:
    """The API error for a request Django refused to read (too large, too many fields), else None."""
    if isinstance(exception, RequestDataTooBig):
        return RequestTooLarge()
    if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        return exceptions.ParseError(_(TOO_MANY_FIELDS))
    return None


def database_unavailable(exception: BaseException) -> bool:
    return isinstance(exception, OperationalError | InterfaceError)


# Keys a service uses for a message about the request as a whole rather than one field.
_WHOLE_REQUEST_KEYS = ("detail", "non_field_errors")


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx and 5xx answer of the API (schema only)."""

    detail = serializers.CharField(help_text="what went wrong, for a person")
    code = serializers.CharField(
        help_text="a stable word for programs: invalid, parse_error, not_authenticated, authentication_failed, "
        "permission_denied, not_found, method_not_allowed, not_acceptable, unsupported_media_type, throttled, "
        "too_large (413), server_error, database_unavailable (503, try again shortly)"
    )
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="field name -> messages; empty unless the request was invalid (400)",
    )


_DESCRIPTIONS = {
    400: "The request is invalid: `errors` says what is wrong with each field.",
    401: "No credentials, or an unknown token: send `Authorization: Token <key>`.",
    403: "The caller may read this collection but not change it (viewers).",
    404: "No such object, or the caller may not see it: the two answers are identical.",
    413: "The request body is larger than the portal accepts (DATA_UPLOAD_MAX_MEMORY_SIZE).",
    415: "The request body's content type is not one this operation reads.",
    429: "Too many requests from this user or token (PORTAL_API_RATE): wait the seconds `Retry-After` says.",
}


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of one operation, all with the shared ErrorSerializer body; every operation
    can answer 429 (the API's per-user rate applies to all of them)."""
    codes = tuple(dict.fromkeys((*codes, 429)))
    return {code: OpenApiResponse(ErrorSerializer, description=_DESCRIPTIONS[code]) for code in codes}


def _flatten(errors: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation errors ({"field": {"0": [...]}}) as flat {"field.0": ["..."]}."""
    if isinstance(errors, dict):
        flat: dict[str, list[str]] = {}
        for key, value in errors.items():
            flat |= _flatten(value, f"{prefix}.{key}" if prefix else str(key))
        return flat
    if isinstance(errors, list) and any(isinstance(item, dict | list) for item in errors):
        flat = {}
        for index, value in enumerate(errors):
            flat |= _flatten(value, f"{prefix}.{index}" if prefix else str(index))
        return flat
    messages = errors if isinstance(errors, list) else [errors]
    return {prefix or "detail": [str(message) for message in messages]} if messages else {}


def _validation_body(detail: Any) -> dict[str, Any]:
    fields = _flatten(detail if isinstance(detail, dict) else {"detail": detail})
    whole = [message for key in _WHOLE_REQUEST_KEYS for message in fields.pop(key, [])]
    if whole:
        summary = " ".join(whole)
    elif fields:
        name, messages = next(iter(fields.items()))
        summary = f"{name}: {messages[0]}"
    else:
        summary = "Invalid input."
    return {"detail": summary, "code": "invalid", "errors": fields}


def error_body(exc: exceptions.APIException) -> dict[str, Any]:
    """The shared body for a DRF exception."""
    if isinstance(exc, exceptions.ValidationError):
        return _validation_body(exc.detail)
    detail = exc.detail
    code = getattr(detail, "code", None) or exc.default_code
    return {"detail": str(detail), "code": str(code), "errors": {}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: DRF's handling (Http404 and PermissionDenied included), one body shape,
    and a logged 500 in the same shape instead of Django's HTML page."""
    # DRF turns these two into its own exceptions inside its handler; do it first so their body is reshaped too.
    if database_unavailable(exc):  # a 503 that says to try again shortly, not a logged 500
        exc = DatabaseUnavailable()
    elif refusal := request_refusal(exc):  # Django's own limits on a body DRF reads inside the view
        exc = refusal
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("API request failed", exc_info=exc)
        set_rollback()
        body = {"detail": "The server failed to answer; the error has been logged.", "code": "server_error"}
        return Response(body | {"errors": {}}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    if isinstance(exc, exceptions.APIException):
        response.data = error_body(exc)
    return response
