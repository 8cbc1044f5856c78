"""The home page: search and ask across every collection the person may read, the collection picker, and their
recent conversations.

Both go through the same scope as everything else: search with no collection named searches what
`readable_collections(user)` gives (apps/retrieval/search/scope.py), and an answer across all collections is asked
with `all_collections`, whose retrieval is that same search. No query here names a collection id of its own.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods

from apps.citations.access import conversations_for_user
from apps.citations.answers.service import MAX_QUESTION_CHARS, AskParams, InvalidQuestion, ask
from apps.citations.views import DEPTH_KEY, _depth_choice, _message_url, _optional_id
from apps.documents.selectors import collections_with_counts
from apps.retrieval.api import SearchQueryForm
from apps.retrieval.search.service import search as run_search
from apps.retrieval.search.types import DEPTHS, MODES, InvalidSearch
from apps.retrieval.views import page_links, result_row

RECENT_CONVERSATIONS = 8


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    collections = list(collections_with_counts(request.user).order_by("name", "pk"))
    names = {collection.slug: collection.name for collection in collections}
    ask_values = {"question": "", "depth": _depth_choice(request)}
    ask_error = ""
    if request.method == "POST":
        ask_values = {name: request.POST.get(name, "").strip() for name in ask_values}
        # A follow-up from a conversation across all collections comes here too (its page has no collection).
        conversation = _optional_id(request.POST.get("conversation"))
        params = AskParams(
            question=ask_values["question"],
            depth=ask_values["depth"] or "deep",
            conversation=conversation,
            all_collections=conversation is None,
        )
        try:
            result = ask(request.user, params)
        except InvalidQuestion as exc:
            if conversation is not None:
                messages.error(request, str(exc))
                return redirect("conversation-detail", conversation_id=conversation)
            ask_error = str(exc)
        else:
            request.session[DEPTH_KEY] = params.depth
            return redirect(_message_url(result["conversation"], result["message"]))

    response, search_error = None, ""
    form = SearchQueryForm(request.GET)
    if request.method == "GET" and "q" in request.GET:
        if not form.is_valid():
            search_error = "; ".join(f"{name}: {' '.join(str(e) for e in errs)}" for name, errs in form.errors.items())
        else:
            try:
                # No slugs: every collection the user may read (the search package's own permission filter).
                response = run_search(request.user, form.search_params(()))
            except InvalidSearch as exc:
                search_error = str(exc)
    values = {name: request.GET.get(name, "") for name in ("q", "mode", "depth")}
    deep_query = request.GET.copy()
    deep_query["depth"] = "deep"
    deep_query.pop("offset", None)
    context = {
        "collections": collections,
        "recent": conversations_for_user(request.user)
        .select_related("collection", "document")
        .annotate(message_count=Count("messages"))
        .order_by("-updated_at", "-id")[:RECENT_CONVERSATIONS],
        # the search results partial (retrieval/_search_results.html) reads these
        "values": values,
        "modes": MODES,
        "depths": DEPTHS,
        "response": response,
        "rows": [result_row(hit, names.get(hit.collection, hit.collection)) for hit in response.hits]
        if response
        else [],
        "error": search_error,
        "searched": "q" in request.GET,
        "show_cached": bool(response and response.cached and request.user.is_staff),
        "deep_url": f"{request.path}?{deep_query.urlencode()}",
        "show_deep": response is not None and response.params.get("depth") != "deep",
        **page_links(request, response),
        # the ask form
        "ask_values": ask_values,
        "ask_error": ask_error,
        "max_chars": MAX_QUESTION_CHARS,
    }
    htmx = getattr(request, "htmx", None)  # django_htmx's middleware
    partial = htmx and not htmx.boosted and not htmx.history_restore_request
    template = "retrieval/_search_results.html" if partial else "citations/home.html"
    page = render(request, template, context, status=400 if ask_error else 200)
    patch_vary_headers(page, ["HX-Request"])
    return page
