"""The viewer opened from an answer: it steps through that answer's citations, for the answer's owner only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.citations.answers.service import AskParams, ask

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_viewer_steps_through_the_citations_of_its_answer(library, personas, page_client_for):
    result = ask(
        personas["viewer"],
        AskParams("Where does the Asiatic lion survive, and what do infected wheat kernels release?", "lab"),
    )
    citations = result["citations"]
    assert len(citations) >= 2
    first = citations[0]
    url = f"{first['viewer_url']}&message={result['message']}&n={first['n']}"
    body = page_client_for("viewer").get(url).content.decode()
    steps = body[body.index('class="citation-steps') :]
    steps = steps[: steps.index("</nav>")]
    assert f'class="badge cite is-active" href="{url.replace("&", "&amp;")}"' in steps
    assert "step-previous" not in steps and "citation 2 →" in steps
    assert reverse("conversation-detail", args=[result["conversation"]]) in steps

    # someone else who may read the document opens it without the answer's steps; an outsider not at all
    other = page_client_for("editor").get(url)
    assert other.status_code == 200 and "citation-steps" not in other.content.decode()
    assert page_client_for("outsider").get(url).status_code == 404
