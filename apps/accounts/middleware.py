"""Activates the language a person chose (switch or profile) over the browser's, for the rest of the request."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from apps.accounts.language import FOLLOW_BROWSER, SESSION_KEY, profile_language, supported


class ProfileLanguageMiddleware:
    """After LocaleMiddleware (which chose from Accept-Language) and AuthenticationMiddleware (the user). A session
    from before the profile existed learns the profile's language once; later requests read only the session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The database may be away (the session and the profile live there). An error raised here would be a 500:
        # only a view's exception reaches DatabaseUnavailableMiddleware. The browser's language stands, and the
        # view, asking the database again, gets the 503 page.
        with suppress(OperationalError, InterfaceError):
            self._activate_chosen(request)
        return self.get_response(request)

    @staticmethod
    def _activate_chosen(request: HttpRequest) -> None:
        session = getattr(request, "session", None)
        if session is None:
            return
        language = session.get(SESSION_KEY)
        if language is None and request.user.is_authenticated:
            language = session[SESSION_KEY] = profile_language(request.user)
        if language and language != FOLLOW_BROWSER and supported(language):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
