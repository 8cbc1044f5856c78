"""Abstaining honestly, through the real worker (issue 15): a collection whose documents are all on one topic, none
holding the answer asked for, gets "the documents do not answer this"; a question one of them answers is answered,
citing that document. Documents are uploaded through the API and read, chunked and embedded by the worker."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.citations.answers.language import phrase

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

# One town, its river and its floods: every document is on the topic; only one says who designed the flood wall,
# none gives the death toll of the 1931 flood: one says that many died (no amount), one gives another event's
# number (the storm's 40 houses). Today's composer answers with such sentences.
DOCUMENTS = {
    "riverton-history.md": (
        "# Riverton and the Alder river\n\n"
        "Riverton grew up on both banks of the Alder river in the nineteenth century. The river flooded the low "
        "town in 1931, in 1954 and again in 1987. After the flood of 1931 the town moved its market to higher "
        "ground. Many people died in the Riverton flood of 1931, and the low town was rebuilt.\n"
    ),
    "riverton-storm-1954.md": (
        "# The storm of 1954\n\n"
        "The storm of October 1954 destroyed 40 houses in the low town of Riverton. The Alder river rose two metres "
        "in one night, and the old bridge was closed for a month.\n"
    ),
    "riverton-flood-wall.md": (
        "# The Riverton flood wall\n\n"
        "The Riverton flood wall was designed by the engineer Margaret Hale and finished in 1962. It runs for three "
        "kilometres along the Alder river and has kept the low town dry ever since.\n"
    ),
    "riverton-zh.txt": (
        "里弗顿的洪水\n\n"
        "里弗顿位于阿尔德河两岸。1931年、1954年和1987年，阿尔德河的洪水三次淹没了低洼的城区。"
        "1954年10月的风暴摧毁了低洼城区的40座房屋。1931年的里弗顿洪水造成许多人死亡。\n"
    ).encode(),
}


def _ask(client, question: str) -> dict:
    response = client.post(reverse("api-ask"), {"question": question, "collection": "lab"}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _titles(answer: dict) -> set[str]:
    return {c.get("source") or c.get("title") for c in answer["citations"]}


def test_topical_documents_without_the_answer_get_no_answer_and_one_that_has_it_is_cited(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest, collection
):
    client = api_client_for("editor")
    for name, content in DOCUMENTS.items():
        document = api_upload(client, name, content if isinstance(content, bytes) else content.encode())
        assert wait_for_ingest(client, document["id"])["status"] == "ready"

    for question, language in (
        ("How many people died in the Riverton flood of 1931?", "en"),
        ("1931年里弗顿洪水造成多少人死亡？", "zh"),
    ):
        answer = _ask(client, question)
        assert answer["answered"] is False, answer["answer"]
        assert answer["answer"].startswith(phrase(language, "no_answer")), answer["answer"]
        assert "40" not in answer["answer"].split("\n")[0]  # not the storm's houses

    answer = _ask(client, "Who designed the Riverton flood wall?")
    assert answer["answered"] is True, answer["answer"]
    first = answer["sentences"][0]
    assert "Margaret Hale" in first["text"] and first["supported"]
    assert "riverton-flood-wall.md" in {c["source"] for c in answer["citations"]}
