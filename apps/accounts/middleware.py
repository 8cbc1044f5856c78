"""Activates the language a person chose (switch or profile) over the browser's, for the rest of the request."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from apps.accounts.language import FOLLOW_BROWSER, SESSION_KEY, profile_language, supported


class ProfileLanguageMiddleware:
    """After LocaleMiddleware (which chose from Accept-Language) and AuthenticationMiddleware (the user). A session
    from before the profile existed learns the profile's language once; later requests read only the session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None:
            language = session.get(SESSION_KEY)
            if language is None and request.user.is_authenticated:
                language = session[SESSION_KEY] = profile_language(request.user)
            if language and language != FOLLOW_BROWSER and supported(language):
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
