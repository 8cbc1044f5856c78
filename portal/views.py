"""Pages about the signed-in person rather than a collection."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from rest_framework.authtoken.models import Token


@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    """Show the person's API token, or make a new one (the old one stops working at once)."""
    if request.method == "POST":
        Token.objects.filter(user=request.user).delete()
        Token.objects.create(user=request.user)
        messages.success(request, "A new API token was created; the previous one no longer works.")
        return redirect("api-token")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "account/api_token.html", {"token": token})
