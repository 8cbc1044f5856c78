"""Who is calling: the person's API token (the one /accounts/token/ shows), checked as the REST API checks it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

# Bearer is what MCP clients send; Token is the REST API's own scheme, so the same header works for both.
SCHEMES = ("bearer", "token")


def token_from_header(value: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` (or `Token <token>`) header; None for anything else."""
    scheme, _, key = (value or "").strip().partition(" ")
    key = key.strip()
    if scheme.lower() not in SCHEMES or not key or " " in key:
        return None
    return key


def user_for_token(key: str) -> AbstractBaseUser | None:
    """The active user whose token this is, or None: DRF's own check, so a revoked token or an inactive person is
    refused here exactly as by the API."""
    try:
        user, _token = TokenAuthentication().authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    return user
