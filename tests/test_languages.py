"""The interface language: the browser's Accept-Language chooses it, a person's choice (the switch in the page
header, kept in their profile) overrides it and follows them from login to login; the error pages speak both."""

from __future__ import annotations

import re

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from apps.accounts.models import Profile
from tests.citations.cited_answer import cited_message

pytestmark = pytest.mark.django_db

CHINESE_BROWSER = "zh-CN,zh;q=0.9,en;q=0.5"
ENGLISH_BROWSER = "en-US,en;q=0.9"


def _login(client: Client, user, **headers) -> None:
    # The real login form: the profile's language is applied by the login signal, as for a person.
    response = client.post(reverse("login"), {"username": user.username, "password": "pw-" + user.username}, **headers)
    assert response.status_code == 302, response.content[:300]


@pytest.mark.parametrize("accept", [CHINESE_BROWSER, "zh", "zh-Hans", "zh-hans-CN"])
def test_a_chinese_browser_gets_the_pages_in_chinese(client, accept):
    body = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert '<html lang="zh-hans">' in body
    assert "<h1>登录</h1>" in body and "用户名" in body and "Password" not in body


def test_an_english_browser_gets_the_pages_in_english(client):
    body = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()
    assert '<html lang="en">' in body and "<h1>Log in</h1>" in body and "登录" not in body


def test_a_signed_in_page_is_chinese_under_a_chinese_browser_and_offers_english(client, personas, collection):
    _login(client, personas["viewer"])
    body = client.get(collection.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=CHINESE_BROWSER).content.decode()
    assert "检索" in body and "提问" in body and "退出登录（vic）" in body  # Search, Ask, Log out
    # the switch offers the other language, named in that language
    assert 'name="language" value="en"' in body and ">English</button>" in body


def test_the_profile_language_overrides_the_browser(client, personas, collection):
    Profile.objects.create(user=personas["viewer"], language="zh-hans")
    _login(client, personas["viewer"], HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    body = client.get(collection.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()
    assert '<html lang="zh-hans">' in body and "检索" in body

    other = Client()
    Profile.objects.create(user=personas["editor"], language="en")
    _login(other, personas["editor"], HTTP_ACCEPT_LANGUAGE=CHINESE_BROWSER)
    body = other.get(collection.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=CHINESE_BROWSER).content.decode()
    assert '<html lang="en">' in body and ">Search<" in body


def test_the_switch_is_kept_in_the_profile_and_persists_across_logins(client, personas, collection):
    viewer = personas["viewer"]
    _login(client, viewer, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    page = collection.get_absolute_url()

    # when the person switches to Chinese on a collection's page
    response = client.post(reverse("set-language"), {"language": "zh-hans"}, HTTP_REFERER=f"http://testserver{page}")

    # then they are back on that page, in Chinese, and the profile keeps the choice
    assert response.status_code == 302 and response["Location"] == f"http://testserver{page}"
    assert "检索" in client.get(page, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()
    assert Profile.objects.get(user=viewer).language == "zh-hans"

    # and after logging out and in again, in another browser that asks for English, it is still Chinese
    client.post(reverse("logout"))
    elsewhere = Client()
    _login(elsewhere, viewer, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    assert "检索" in elsewhere.get(page, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()

    # switching back to English is kept too
    elsewhere.post(reverse("set-language"), {"language": "en"})
    assert Profile.objects.get(user=viewer).language == "en"
    assert ">Search<" in elsewhere.get(page, HTTP_ACCEPT_LANGUAGE=CHINESE_BROWSER).content.decode()


def test_an_anonymous_switch_lasts_the_session_and_keeps_no_profile(client):
    response = client.post(reverse("set-language"), {"language": "zh-hans"}, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    assert response.status_code == 302 and response["Location"] == "/"
    assert "<h1>登录</h1>" in client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()
    assert not Profile.objects.exists()


def test_the_switch_refuses_an_unknown_language_another_site_and_a_missing_csrf_token(personas):
    client = Client(enforce_csrf_checks=True)
    client.force_login(personas["viewer"])
    refused = client.post(reverse("set-language"), {"language": "fr"})
    assert refused.status_code == 403  # no CSRF token
    assert "你" not in refused.content.decode() and "Not allowed" in refused.content.decode()

    client = Client()
    client.force_login(personas["viewer"])
    assert client.post(reverse("set-language"), {"language": "fr"}).status_code == 400
    away = client.post(reverse("set-language"), {"language": "en"}, HTTP_REFERER="https://evil.example/")
    assert away["Location"] == "/"
    assert client.get(reverse("set-language")).status_code == 405


@pytest.mark.parametrize(("accept", "words"), [(ENGLISH_BROWSER, "Not found"), (CHINESE_BROWSER, "未找到")])
def test_a_non_members_404_is_styled_in_their_language_and_says_nothing_of_the_collection(
    client, personas, collection, accept, words
):
    client.force_login(personas["outsider"])
    hidden = client.get(reverse("collection-detail", args=[collection.slug]), HTTP_ACCEPT_LANGUAGE=accept)
    missing = client.get(reverse("collection-detail", args=["no-such-collection"]), HTTP_ACCEPT_LANGUAGE=accept)
    assert hidden.status_code == missing.status_code == 404
    body = hidden.content.decode()
    assert f"<h1>{words}</h1>" in body and 'class="topbar"' in body
    assert collection.name not in body and collection.slug not in body
    # the page for a hidden collection is the page for a missing one, word for word (CSRF tokens are masked anew
    # for every response)
    assert _unmasked(body) == _unmasked(missing.content.decode())


def _unmasked(html: str) -> str:
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)


@pytest.mark.parametrize(("accept", "words"), [(ENGLISH_BROWSER, "Not allowed"), (CHINESE_BROWSER, "无权操作")])
def test_a_refused_action_shows_the_styled_403_in_their_language(client, personas, collection, accept, words):
    client.force_login(personas["viewer"])  # a viewer may not upload
    response = client.post(reverse("collection-upload", args=[collection.slug]), HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 403
    assert f"<h1>{words}</h1>" in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [("en", "Something went wrong"), ("zh-hans", "出错了")])
def test_the_500_page_renders_without_a_request_context_in_both_languages(language, words):
    request = RequestFactory().get("/")
    with translation.override(language):
        response = server_error(request)  # Django's handler: the template gets no context at all
    body = response.content.decode()
    assert response.status_code == 500
    assert f'<html lang="{language}">' in body and f"<h1>{words}</h1>" in body and "portal.css" in body


@pytest.mark.parametrize(
    ("accept", "date_pattern"),
    [
        (ENGLISH_BROWSER, r"\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d\b"),  # 7 Dec 2026, 14:05
        (CHINESE_BROWSER, r"\d{4}年\d{1,2}月\d{1,2}日 \d\d:\d\d"),  # 2026年12月7日 14:05
    ],
)
def test_dates_follow_the_interface_language(page_client_for, personas, document, accept, date_pattern):
    cited_message(personas["manager"], [(document.chunks.get(), "hello world")])
    body = page_client_for("manager").get(reverse("conversation-list"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert re.search(date_pattern, body), body[body.find("<table") :][:600]
