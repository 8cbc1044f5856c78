"""Throttles: failed logins per account and per address, and API requests per user (token or session).

The counters live in the shared cache (Redis), so every gunicorn worker and every machine counts the same
attempts. The cache is an optimisation everywhere else (portal/soft_cache.py); here, too, a Redis that cannot be
reached lets requests through with a warning in the log rather than locking everyone out.

Login: a fixed window of PORTAL_LOGIN_WINDOW_MINUTES. Once an account has PORTAL_LOGIN_FAILURES_PER_ACCOUNT failed
logins in it, or an address PORTAL_LOGIN_FAILURES_PER_ADDRESS, further attempts (the right password too) get a
429 until the window ends. Both the portal's login page and the admin's go through `throttled_login`.
Own code rather than django-axes: axes applies one limit to account and address alike (an office behind one
address needs a higher one), keeps attempt tables in the database, and needs its backend to see a request on
every authenticate() call; a cache counter is the few lines below.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import UserRateThrottle

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    """The caller's address: REMOTE_ADDR, or behind the proxy (PORTAL_BEHIND_PROXY) the address it appended last
    to X-Forwarded-For; earlier entries come from the client and could be anything."""
    if settings.PORTAL_BEHIND_PROXY:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


@dataclass(frozen=True)
class LoginWindow:
    """The current fixed window: its number and the seconds left in it."""

    index: int
    seconds_left: int

    @classmethod
    def now(cls) -> LoginWindow:
        length = settings.PORTAL_LOGIN_WINDOW_MINUTES * 60
        now = time.time()
        return cls(index=int(now // length), seconds_left=max(1, math.ceil(length - now % length)))


def _keys(account: str, address: str, window: LoginWindow) -> dict[str, str]:
    # Account names are hashed: the cache need not hold what people typed (a password in the name field, say).
    account_hash = hashlib.sha256(account.strip().lower().encode()).hexdigest()[:32]
    return {
        "account": f"login-failures:account:{account_hash}:{window.index}",
        "address": f"login-failures:address:{address}:{window.index}",
    }


def _limits() -> dict[str, int]:
    return {
        "account": settings.PORTAL_LOGIN_FAILURES_PER_ACCOUNT,
        "address": settings.PORTAL_LOGIN_FAILURES_PER_ADDRESS,
    }


def login_blocked(account: str, address: str) -> int:
    """Seconds until `account` from `address` may try again; 0: now."""
    window = LoginWindow.now()
    keys, limits = _keys(account, address, window), _limits()
    try:
        counts = cache.get_many(list(keys.values()))
    except Exception:
        log.warning("cache unavailable: the login throttle lets this attempt through", exc_info=True)
        return 0
    over = [kind for kind, key in keys.items() if limits[kind] and counts.get(key, 0) >= limits[kind]]
    return window.seconds_left if over else 0


def record_login_failure(account: str, address: str) -> None:
    window = LoginWindow.now()
    try:
        for key in _keys(account, address, window).values():
            # add() starts the count with the window's lifetime; incr() is atomic in Redis across workers.
            if not cache.add(key, 1, timeout=window.seconds_left + 1):
                cache.incr(key)
    except Exception:
        log.warning("cache unavailable: a failed login was not counted", exc_info=True)


def forget_account_failures(account: str, address: str) -> None:
    """A successful login clears the account's count (not the address's: one right password among many tries
    from one address says nothing about the others)."""
    try:
        cache.delete(_keys(account, address, LoginWindow.now())["account"])
    except Exception:
        log.warning("cache unavailable: the account's failed logins were not cleared", exc_info=True)


def _lockout(request: HttpRequest, seconds: int) -> HttpResponse:
    minutes = max(1, math.ceil(seconds / 60))
    response = render(request, "registration/throttled.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def throttled_login(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A login view (the portal's, the admin's) that refuses attempts over the limits and counts failures."""

    @wraps(view)
    def login(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        account, address = request.POST.get("username", ""), client_address(request)
        # Without a user name (a GET, a form posted empty) nothing is tried, so nothing is counted or refused.
        if request.method != "POST" or not account or not settings.PORTAL_LOGIN_THROTTLE:
            return view(request, *args, **kwargs)
        if wait := login_blocked(account, address):
            log.warning("login throttled for %s", address)
            return _lockout(request, wait)
        response = view(request, *args, **kwargs)
        # A login view that accepted the password has logged that account in on this request. Someone already
        # logged in as another account is no success for this one (else they could clear its count).
        if request.user.is_authenticated and request.user.get_username() == account:
            forget_account_failures(account, address)
        else:
            record_login_failure(account, address)
        return response

    return login


class ApiUserRateThrottle(UserRateThrottle):
    """DRF's per-user throttle (a token belongs to one user) at PORTAL_API_RATE; "off": no limit.

    The rate is read as each request makes its throttle (DRF's own class reads its rates once, at import, which
    override_settings cannot reach). A cache that cannot be reached lets the request through. Over the rate:
    429 with the API's error body (portal/api_errors.py) and Retry-After."""

    scope = "user"

    def get_rate(self) -> str | None:
        rate = (settings.PORTAL_API_RATE or "").strip()
        return None if rate.lower() in ("", "off") else rate

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("cache unavailable: the API throttle lets this request through", exc_info=True)
            return True
