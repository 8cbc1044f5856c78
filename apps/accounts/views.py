"""The language switch in the page header: a POST form (with its CSRF token) that anyone may send, signed in or not."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBadRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts.language import SESSION_KEY, save_language, supported


@require_POST
def set_language(request: HttpRequest) -> HttpResponseRedirect | HttpResponseBadRequest:
    code = request.POST.get("language", "")
    if not supported(code):
        return HttpResponseBadRequest(_("Unknown language."))
    request.session[SESSION_KEY] = code
    save_language(request.user, code)
    target = request.POST.get("next") or request.headers.get("Referer", "")
    # Back to the page the switch was on; never to another site.
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        target = "/"
    return HttpResponseRedirect(target)
