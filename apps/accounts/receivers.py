"""At login the profile's language goes into the session, so it follows the person from browser to browser."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from apps.accounts.language import FOLLOW_BROWSER, SESSION_KEY, profile_language


@receiver(user_logged_in, dispatch_uid="accounts-profile-language")
def _profile_language_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None or not hasattr(request, "session"):
        return
    language = profile_language(user)
    # A profile without a choice keeps what the person picked on the login page, if anything.
    if language != FOLLOW_BROWSER or SESSION_KEY not in request.session:
        request.session[SESSION_KEY] = language
