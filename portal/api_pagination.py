"""The one pagination of the API's lists: `?limit=&offset=`, answered as `{count, next, previous, results}`.

DRF's LimitOffsetPagination quietly replaces a malformed or out-of-range value with its default; here such a value
is refused with a 400 like every other bad parameter, so a caller's typo is not mistaken for "the first page".
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

DEFAULT_LIMIT = 50
MAX_LIMIT = 500


def _whole_number(request: Request, name: str, default: int, minimum: int, maximum: int) -> int:
    raw = request.query_params.get(name, "")
    if raw == "":
        return default
    if not raw.isascii() or not raw.isdigit():
        raise ValidationError({name: ["must be a whole number"]})
    value = int(raw)
    if not minimum <= value <= maximum:
        raise ValidationError({name: [f"must be between {minimum} and {maximum}"]})
    return value


class PortalPagination(LimitOffsetPagination):
    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT
    # Far beyond any collection; it bounds the number a caller can make the database skip.
    max_offset = 10**9

    def get_limit(self, request: Request) -> int:
        return _whole_number(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request: Request) -> int:
        return _whole_number(request, self.offset_query_param, 0, 0, self.max_offset)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": self.max_limit, "default": self.default_limit},
            self.offset_query_param: {"minimum": 0, "maximum": self.max_offset, "default": 0},
        }
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"] |= bounds.get(parameter["name"], {})
        return parameters
