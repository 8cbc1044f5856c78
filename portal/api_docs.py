"""/api/docs/: Swagger UI over /api/schema/, served from static/vendor/swagger-ui/ (no CDN).

Public like the schema itself: it describes the operations and carries no content. Trying an operation out
still needs a token (the Authorize button) or a signed-in session, with the same rights as the pages.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def api_docs(request: HttpRequest) -> HttpResponse:
    # No inline script or style on the page: the set-up is static/js/api-docs.js, so a strict CSP
    # (script-src 'self') can allow it without exceptions.
    return render(request, "api/docs.html")
