"""Throttles: failed logins per account and per address (the portal's login and the admin's), API requests per
user. The counters live in Redis, the cache every web worker shares. Under pytest both throttles are off by default
(portal/settings.py), so each test here turns on the one it proves.

Each test uses its own accounts and client addresses, so counts left by other tests in the same window (the
cache outlives a test) never meet these."""

from __future__ import annotations

import hashlib
import uuid

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _address() -> str:
    return ".".join(["10", *(str(b) for b in uuid.uuid4().bytes[:3])])


@pytest.fixture
def account():
    name = _unique("thea")
    get_user_model().objects.create_user(username=name, password="right-password-1")
    return name


def _login(client: Client, url: str, username: str, password: str, address: str):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("url_name", ["login", "admin:login"])
@override_settings(PORTAL_LOGIN_THROTTLE=True, PORTAL_LOGIN_FAILURES_PER_ACCOUNT=3, PORTAL_LOGIN_FAILURES_PER_ADDRESS=0)
def test_an_account_is_paused_after_its_failures_even_for_the_right_password(url_name, account):
    client, url = Client(), reverse(url_name)
    get_user_model().objects.filter(username=account).update(is_staff=True)  # the admin's login needs staff
    for _ in range(3):  # from three addresses: the account is counted, wherever the attempts come from
        assert _login(client, url, account, "wrong", _address()).status_code == 200
    refused = _login(client, url, account, "right-password-1", _address())
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= settings.PORTAL_LOGIN_WINDOW_MINUTES * 60
    assert "_auth_user_id" not in client.session
    assert "Too many failed logins" in refused.content.decode()


@override_settings(PORTAL_LOGIN_THROTTLE=True, PORTAL_LOGIN_FAILURES_PER_ACCOUNT=0, PORTAL_LOGIN_FAILURES_PER_ADDRESS=4)
def test_an_address_is_paused_after_its_failures_across_accounts(account):
    client, url, address = Client(), reverse("login"), _address()
    for _ in range(4):
        _login(client, url, _unique("nobody"), "guess", address)
    assert _login(client, url, account, "right-password-1", address).status_code == 429
    elsewhere = _login(client, url, account, "right-password-1", _address())
    assert elsewhere.status_code == 302 and client.session["_auth_user_id"]


@override_settings(PORTAL_LOGIN_THROTTLE=True, PORTAL_LOGIN_FAILURES_PER_ACCOUNT=3, PORTAL_LOGIN_FAILURES_PER_ADDRESS=0)
def test_a_right_password_before_the_limit_clears_the_accounts_count(account):
    client, url = Client(), reverse("login")
    for _ in range(2):
        _login(client, url, account, "wrong", _address())
    assert _login(client, url, account, "right-password-1", _address()).status_code == 302
    client.logout()
    for _ in range(2):
        _login(client, url, account, "wrong", _address())
    assert _login(client, url, account, "right-password-1", _address()).status_code == 302


@override_settings(PORTAL_LOGIN_THROTTLE=True, PORTAL_LOGIN_FAILURES_PER_ACCOUNT=2)
def test_the_count_is_kept_in_redis_where_every_worker_sees_it(account):
    _login(Client(), reverse("login"), account, "wrong", _address())
    # A client of its own, not Django's cache object: what another gunicorn worker would read.
    account_hash = hashlib.sha256(account.encode()).hexdigest()[:32]  # names are hashed (portal/throttle.py)
    [key] = redis.Redis.from_url(settings.REDIS_URL).keys(f"*login-failures:account:{account_hash}:*")
    assert redis.Redis.from_url(settings.REDIS_URL).get(key) == b"1"


@override_settings(PORTAL_API_RATE="3/minute")
def test_the_api_is_throttled_per_token_with_the_error_body_and_retry_after(make_user):
    first, second = (APIClient(), APIClient())
    for client in (first, second):
        token = Token.objects.create(user=make_user(_unique("api")))
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = reverse("api-collection-list")
    assert [first.get(url).status_code for _ in range(3)] == [200, 200, 200]
    throttled = first.get(url)
    assert throttled.status_code == 429
    body = throttled.json()
    assert body["code"] == "throttled" and body["errors"] == {} and body["detail"]
    assert 0 < int(throttled["Retry-After"]) <= 60
    assert second.get(url).status_code == 200  # another token, its own count


@override_settings(PORTAL_LOGIN_THROTTLE=True, PORTAL_LOGIN_FAILURES_PER_ACCOUNT=2, PORTAL_LOGIN_FAILURES_PER_ADDRESS=0)
def test_being_logged_in_as_someone_else_neither_hides_nor_clears_failures(account, make_user):
    signed_in = Client()
    signed_in.force_login(make_user(_unique("mallory")))  # not staff: the admin's login form still answers
    for _ in range(2):
        assert _login(signed_in, reverse("admin:login"), account, "wrong", _address()).status_code == 200
    assert _login(Client(), reverse("login"), account, "right-password-1", _address()).status_code == 429
