"""Pages about the signed-in person rather than a collection."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from rest_framework.authtoken.models import Token

from portal.health import health_report


@never_cache  # Cache-Control: no-store: the page shows a secret, which no browser or proxy cache may keep
@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    """Show the person's API token, or make a new one (the old one stops working at once)."""
    if request.method == "POST":
        Token.objects.filter(user=request.user).delete()
        Token.objects.create(user=request.user)
        messages.success(request, _("A new API token was created; the previous one no longer works."))
        return redirect("api-token")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "account/api_token.html", {"token": token})


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and monitoring, without a login: 200 when the database, the broker, a worker and the
    embedding model are all there, else 503 naming what failed (docs/deployment.md)."""
    healthy, body = health_report()
    return JsonResponse(body, status=200 if healthy else 503)
