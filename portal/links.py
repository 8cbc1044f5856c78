"""Absolute links in what the REST API and the MCP server return (design.md, "Links and languages").

The services build site-relative paths ("/documents/4/view/?chunk=2"), which the pages use as they are. Whatever
leaves the portal as data, where no page supplies a host, gets them made absolute here: on PORTAL_SITE_URL when it
is configured, else on the request's own scheme and host. The MCP server has no request: without PORTAL_SITE_URL
its links stay site-relative (and it says so when it starts, apps/integrations/mcp/server.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.renderers import JSONRenderer

# A link is a field named like one: "viewer_url", "file_url", "open_url", "url"; pagination's own "next" and
# "previous" are absolute already (DRF builds them on the request's host) and are moved to the site's.
_PAGE_LINKS = ("next", "previous")


def site_url(request: HttpRequest | None = None) -> str:
    """The base of absolute links, without a trailing slash: PORTAL_SITE_URL, else the request's scheme and host,
    else "" (no request and no setting: links stay site-relative)."""
    configured = getattr(settings, "PORTAL_SITE_URL", "")
    if configured:
        return configured
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return ""


def _is_link_key(key: str) -> bool:
    return key == "url" or key.endswith("_url")


def absolute_links(data: Any, base: str, request_base: str = "") -> Any:
    """`data` with every site-relative link field ("/…") prefixed by `base`; a pagination link built on
    `request_base` is moved to `base`. Returns new containers; other values are left as they are."""
    if not base:
        return data
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if isinstance(value, str) and isinstance(key, str):
                if _is_link_key(key) and value.startswith("/") and not value.startswith("//"):
                    value = base + value
                elif key in _PAGE_LINKS and request_base and value.startswith(request_base + "/"):
                    value = base + value[len(request_base) :]
                out[key] = value
            else:
                out[key] = absolute_links(value, base, request_base)
        return out
    if isinstance(data, list | tuple):
        return [absolute_links(item, base, request_base) for item in data]
    return data


class AbsoluteLinksJSONRenderer(JSONRenderer):
    """The API's JSON renderer: every link field of a response made absolute (site_url of the request)."""

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        request = (renderer_context or {}).get("request")
        if request is not None and data is not None:
            request_base = request.build_absolute_uri("/").rstrip("/")
            data = absolute_links(data, site_url(request), request_base)
        return super().render(data, accepted_media_type, renderer_context)
