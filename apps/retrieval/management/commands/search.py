"""python manage.py search "QUERY" [--collection SLUG]... [--mode M] [--depth D] [--top-k N] [--snippet N] [--json]
[--user USERNAME]

An administrator's tool: without --user it searches as the first active superuser, so every collection is in
reach; with --user it sees exactly what that person may read (useful to check someone's access).
"""

from __future__ import annotations

import html
import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from apps.documents.locators import locator_label
from apps.retrieval.search.service import search
from apps.retrieval.search.types import (
    DEPTHS,
    MODES,
    CollectionNotFound,
    InvalidSearch,
    SearchHit,
    SearchParams,
    SearchResponse,
)

BOLD, PLAIN = "\x1b[1m", "\x1b[0m"


class Command(BaseCommand):
    help = (
        "Search collections from the command line, as a superuser (default) or as --user; "
        "prints one block per hit and a retrieval note, or the API's JSON with --json."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("query")
        parser.add_argument(
            "--collection",
            action="append",
            default=[],
            metavar="SLUG",
            help="a collection's slug; repeat for several; omitted: every collection the user may read",
        )
        parser.add_argument("--mode", choices=MODES, default="hybrid")
        parser.add_argument("--depth", choices=DEPTHS, default="quick")
        parser.add_argument("--top-k", type=int, default=None, help="hits to return (default: the depth's)")
        parser.add_argument("--snippet", type=int, default=None, help="snippet length in characters")
        parser.add_argument("--json", action="store_true", help="print the API's response body")
        parser.add_argument("--user", default="", metavar="USERNAME", help="search with this person's access")

    def handle(self, *args, query: str, collection: list[str], **options) -> None:
        user = command_user(options["user"])
        params = SearchParams(
            query=query,
            collections=tuple(dict.fromkeys(collection)),
            mode=options["mode"],
            depth=options["depth"],
            top_k=options["top_k"],
            snippet_chars=options["snippet"],
        )
        try:
            response = search(user, params)
        except InvalidSearch as exc:
            raise CommandError(str(exc)) from None
        except CollectionNotFound:
            slugs = ", ".join(collection)
            raise CommandError(f"no collection {slugs} that {user.get_username()} may read") from None
        if options["json"]:
            self.stdout.write(json.dumps(response.as_dict(), ensure_ascii=False, indent=2, default=str))
            return
        emphasis = self.stdout.isatty() and not options.get("no_color")
        self._print(response, emphasis)

    def _print(self, response: SearchResponse, emphasis: bool) -> None:
        if not response.hits:
            self.stdout.write(f"No results for “{response.query}”.")
        for rank, hit in enumerate(response.hits, 1):
            where = locator_label(hit)
            head = f"[{rank}] {hit.title or hit.source}" + (f" — {where}" if where else "")
            self.stdout.write(f"{head} ({hit.score:.3f} {hit.score_source})")
            self.stdout.write(f"    {terminal_snippet(hit, emphasis=emphasis)}")
            self.stdout.write("")
        if response.hint:
            self.stdout.write(response.hint)
        self.stdout.write(retrieval_note(response))


def terminal_snippet(hit: SearchHit, *, emphasis: bool) -> str:
    """The snippet's <mark> as bold (a terminal) or «…» (a pipe or file), the escaped text as plain text again."""
    start, end = (BOLD, PLAIN) if emphasis else ("«", "»")
    marked = hit.snippet_html.replace("<mark>", start).replace("</mark>", end)
    return " ".join(html.unescape(marked).split())


def retrieval_note(response: SearchResponse) -> str:
    d = response.diagnostics
    mode = d.get("mode_used") or d.get("mode") or "?"
    if d.get("mode") and d.get("mode_used") and d["mode"] != d["mode_used"]:
        mode += f" (asked for {d['mode']})"
    parts = [f"mode {mode}", f"depth {d.get('depth', '?')}"]
    candidates = d.get("candidates") or {}
    parts.append(f"{len(response.hits)} hit(s) of {candidates.get('fused', '?')} candidates")
    reranker = d.get("reranker") or {}
    if reranker:
        state = "used" if reranker.get("used") else "not used"
        available = "available" if reranker.get("available") else "not available"
        reason = f": {reranker['reason']}" if reranker.get("reason") else ""
        parts.append(f"reranker {reranker.get('name') or 'none'} ({available}, {state}{reason})")
    timings = d.get("timings_ms") or {}
    total = timings.get("total", timings.get("cache"))
    if total is not None:
        parts.append(f"{total:.0f} ms" + (" (from the cache)" if response.cached else ""))
    if d.get("degraded"):
        parts.append("degraded: " + "; ".join(d["degraded"]))
    return "Retrieval note: " + " · ".join(parts)


def command_user(username: str):
    users = get_user_model().objects.filter(is_active=True)
    if username:
        user = users.filter(**{get_user_model().USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"no active user {username!r}")
        return user
    user = users.filter(is_superuser=True).order_by("pk").first()
    if user is None:
        raise CommandError("no active superuser to search as; create one (createsuperuser) or pass --user")
    return user
