"""The interface language a person chose: kept in their profile, carried in the session so a page costs no query.

LocaleMiddleware reads the browser's Accept-Language (and Django's language cookie); a choice made with the switch
in the page header, or the one kept in a signed-in person's profile, is put in the session under SESSION_KEY and
wins over the browser (ProfileLanguageMiddleware).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from apps.accounts.models import Profile

SESSION_KEY = "portal_language"
# In the session when a signed-in person's profile names no language: the browser decides, and the profile is not
# read again for every page.
FOLLOW_BROWSER = ""


def supported(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def profile_language(user: AbstractBaseUser | AnonymousUser) -> str:
    """The language kept in the person's profile, or FOLLOW_BROWSER."""
    if not user.is_authenticated:
        return FOLLOW_BROWSER
    language = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return language if language and supported(language) else FOLLOW_BROWSER


def save_language(user: AbstractBaseUser | AnonymousUser, code: str) -> None:
    """Keep `code` in the person's profile (signed-in people only; one row a person)."""
    if user.is_authenticated:
        Profile.objects.update_or_create(user_id=user.pk, defaults={"language": code})
