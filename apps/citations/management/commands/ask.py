"""python manage.py ask "QUESTION" --collection SLUG [--depth quick|deep] [--composer extractive|llm] [--lenient]
[--document ID] [--conversation ID] [--json] [--user USERNAME]

Asks as the first active superuser unless --user is given (then exactly with that person's access). The answer is
stored in a conversation like any other, so --conversation can follow it up. --json prints what POST /api/v1/ask
returns; otherwise, as a person reads them: the answer, each claim with the quote of each source it cites (two
claims citing one passage each show their own), the sources and the retrieval note; for a question the documents
do not answer, that sentence and the passages on the topic (title, place, quote).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.http import Http404

from apps.citations.answers.service import COMPOSERS, AskParams, InvalidQuestion, ask
from apps.citations.display import answer_text
from apps.retrieval.management.commands.search import command_user
from apps.retrieval.search.types import DEPTHS


class Command(BaseCommand):
    help = "Ask a collection a question; the answer cites its sources with [n] (the API's JSON with --json)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("question")
        parser.add_argument("--collection", default="", metavar="SLUG")
        parser.add_argument("--depth", choices=DEPTHS, default="deep")
        parser.add_argument("--composer", choices=COMPOSERS, default="")
        parser.add_argument("--lenient", action="store_true", help="keep unsupported sentences, labelled")
        parser.add_argument("--document", type=int, default=None, help="reading mode: ask this document only")
        parser.add_argument("--conversation", type=int, default=None, help="follow up this conversation")
        parser.add_argument("--json", action="store_true", help="print the API's response body")
        parser.add_argument("--user", default="", metavar="USERNAME", help="ask with this person's access")

    def handle(self, *args, question: str, **options) -> None:
        user = command_user(options["user"])
        params = AskParams(
            question=question,
            collection=options["collection"],
            depth=options["depth"],
            strict=not options["lenient"],
            conversation=options["conversation"],
            document=options["document"],
            composer=options["composer"],
        )
        try:
            result = ask(user, params)
        except InvalidQuestion as exc:
            raise CommandError(str(exc)) from None
        except Http404 as exc:
            raise CommandError(f"{exc} (or {user.get_username()} may not read it)") from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, default=str))
            return
        # The answer, each claim with its own quotes and the sources; unanswered, the passages on the topic.
        self.stdout.write("\n".join(answer_text(result)))
        self.stdout.write(f"\nRetrieval note: {result['retrieval_note']} · conversation {result['conversation']}")
