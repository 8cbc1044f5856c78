"""The ask page, the history and the conversation pages: who may open them, what an answer looks like from stored
data (badges, cards, labels, conflicts, chain, statuses), and real questions answered through the worker's index."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.urls import reverse

from apps.citations.answers.citation import CITATION_VERSION, StoredCitationError, from_hit, stored_citations
from apps.citations.models import Conversation, Message
from apps.documents.models import Chunk, Document, Membership
from tests.citations.hit_factory import make_hit

pytestmark = pytest.mark.django_db

NOTE = (
    b"# Cave lions\n\n"
    b"## Results\n\n"
    b"Cave lions lived across Europe until about 14,000 years ago. "
    b"Their ancient DNA shows a lineage separate from modern lions. <script>alert(2)</script>\n\n"
    b"## Methods\n\n"
    b"Bones from twelve caves were dated by radiocarbon.\n"
)


def _ask_url(slug: str = "lab") -> str:
    return reverse("collection-ask", kwargs={"slug": slug})


def _citation(document: Document, **changes) -> dict:
    """A stored citation object, built as the answer service builds it (answers.citation.from_hit), quoting the
    document fixture's chunk; `changes` go to the search hit it comes from."""
    chunk = document.chunks.get()
    hit = make_hit(
        **{"chunk_id": chunk.pk, "chunk_index": 0, "document_id": document.pk, "title": "Notes on <b>greetings</b>"}
        | {"authors": ["Ada Lovelace", "Charles Babbage"], "year": 1843, "journal": "Sketches", "doi": "10.1000/xyz-1"}
        | {"section": "Intro", "locator_precision": "paragraph", "page": None, "page_end": None, "para_start": 0}
        | {"para_end": 0, "score": 0.5, "viewer_url": f"/documents/{document.pk}/view/?chunk=0", "text": chunk.text}
        | changes
    )
    return from_hit(hit, 1, "hello <script>alert(1)</script> world").as_dict()


def _line(n: int, ref_no: int, **line) -> dict:
    return line | {"cited_by": [{"n": n, "ref_no": ref_no, "label": f"Ref {ref_no}"}]}


def _stored_message(user, document: Document, question: str = "What does it say?", **result) -> Message:
    """A non-strict quick answer as the service stores it: one cited sentence, one not from the library, a
    conflict, and a chain block with its three parts."""
    conversation = Conversation.objects.create(user=user, collection=document.collection, title=question)
    unsourced = "<script>alert(3)</script> The moon is cheese."
    data = {
        "question": question,
        "answer": f"It says hello world [1]. {unsourced}",
        "answered": True,
        "language": "en",
        "depth": "quick",
        "strict": False,
        "sentences": [
            {"text": "It says hello world [1].", "citations": [1], "supported": True, "label": ""},
            {"text": unsourced, "citations": [], "supported": None, "label": "not from the library"},
        ],
        "citations": [_citation(document)],
        "conflicts": [{"text": "Others say goodbye world [1].", "citations": [1]}],
        "chain": {
            "in_library": [_line(1, 14, document_id=document.pk, title="Notes", also_evidence=True)],
            "suggested": [_line(1, 3, text="A. Turing", title="Computing", doi="10.1093/mind/LIX.236.433", year=1950)],
            "related": [{"document_id": document.pk, "title": "Notes again", "reasons": ["shared author"], "of": [1]}],
        },
        "hint": "This was a quick answer. Ask again in deep mode for reranked evidence and the works it cites.",
        "retrieval_note": "quick · hybrid · no reranker · 1 passages · 0.1 s",
    } | result
    fields = {"question": question, "answer": data["answer"], "depth": data["depth"], "strict": data["strict"]}
    return Message.objects.create(conversation=conversation, result=data, composer="extractive", **fields)


def _page(client, message: Message) -> str:
    response = client.get(reverse("conversation-detail", args=[message.conversation_id]))
    assert response.status_code == 200
    return response.content.decode()


# ---- who may open what ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("persona", ["viewer", "editor", "manager", "admin"])
def test_the_ask_page_renders_for_members(page_client_for, collection, persona):
    response = page_client_for(persona).get(_ask_url())
    body = response.content.decode()
    assert response.status_code == 200
    assert '<form class="ask-form card" method="post" action="/c/lab/ask/"' in body
    assert 'name="depth" value="deep" checked' in body  # deep until the user chooses otherwise
    assert 'data-stream-url="/api/v1/ask/stream"' in body and "js/ask.js" in body


def test_the_ask_page_is_not_found_for_outsiders_and_asks_strangers_to_log_in(page_client_for, client, collection):
    response = client.get(_ask_url())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    outsider = page_client_for("outsider")
    assert outsider.get(_ask_url()).status_code == outsider.get(_ask_url("no-such")).status_code == 404
    assert outsider.post(_ask_url(), {"question": "Anything?"}).status_code == 404


def test_another_users_conversation_is_not_found(page_client_for, personas, document):
    message = _stored_message(personas["manager"], document)
    urls = [
        reverse("conversation-detail", args=[message.conversation_id]),
        reverse("message-detail", args=[message.conversation_id, message.pk]),
    ]
    for persona in ("viewer", "outsider"):
        client = page_client_for(persona)
        assert [client.get(url).status_code for url in urls] == [404, 404]
        regenerate = reverse("message-regenerate", args=[message.conversation_id, message.pk])
        assert client.post(regenerate).status_code == 404
        follow_up = {"question": "More?", "conversation": message.conversation_id}
        assert client.post(_ask_url(), follow_up).status_code == 404
    message.refresh_from_db()
    assert message.regenerations == 0
    assert page_client_for("manager").get(urls[0]).status_code == 200
    # nor is someone else's message found through one's own conversation
    mine = _stored_message(personas["viewer"], document)
    assert (
        page_client_for("viewer").get(reverse("message-detail", args=[mine.conversation_id, message.pk])).status_code
        == 404
    )


def test_the_history_lists_own_conversations_while_the_collection_is_readable(page_client_for, personas, document):
    mine = _stored_message(personas["viewer"], document, question="Mine, about greetings?")
    _stored_message(personas["viewer"], document, question="Mine, and newer?")
    _stored_message(personas["manager"], document, question="Somebody else's question?")
    client = page_client_for("viewer")
    body = client.get(reverse("conversation-list")).content.decode()
    assert "Mine, about greetings?" in body and "Somebody else" not in body
    assert body.index("Mine, and newer?") < body.index("Mine, about greetings?")  # newest first
    assert "Mine, about greetings?" in client.get(_ask_url()).content.decode()  # the ask page's own history
    Membership.objects.filter(user=personas["viewer"]).delete()
    assert "Mine, about greetings?" not in client.get(reverse("conversation-list")).content.decode()
    assert client.get(reverse("conversation-detail", args=[mine.conversation_id])).status_code == 404


def test_reading_mode_names_its_document_and_refuses_one_of_another_collection(
    page_client_for, document, other_collection
):
    body = page_client_for("viewer").get(_ask_url(), {"document": document.pk}).content.decode()
    assert "Ask this document" in body and "Notes" in body
    assert f'<input type="hidden" name="document" value="{document.pk}">' in body
    assert page_client_for("viewer").get(_ask_url("other"), {"document": document.pk}).status_code == 404
    assert page_client_for("viewer").get(_ask_url(), {"document": "x"}).status_code == 404
    detail = page_client_for("viewer").get(reverse("document-detail", args=[document.pk])).content.decode()
    assert f'href="{_ask_url()}?document={document.pk}"' in detail


def test_the_pages_link_to_asking_and_to_the_history(page_client_for, collection):
    body = page_client_for("viewer").get(collection.get_absolute_url()).content.decode()
    assert f'href="{_ask_url()}">Ask</a>' in body and f'href="{reverse("conversation-list")}">History</a>' in body


def test_an_empty_question_is_refused_on_the_page(page_client_for, collection):
    response = page_client_for("viewer").post(_ask_url(), {"question": "   ", "depth": "quick"})
    assert response.status_code == 400 and "Type a question." in response.content.decode()
    assert not Conversation.objects.exists()


# ---- how a stored answer looks ---------------------------------------------------------------------------------------
def test_a_stored_answer_has_badges_cards_labels_conflicts_and_the_chain(page_client_for, personas, document):
    Document.objects.filter(pk=document.pk).update(zotero_key="ABCD2345")
    message = _stored_message(personas["viewer"], document)
    body = _page(page_client_for("viewer"), message)
    m, citation_id = message.pk, message.result["citations"][0]["citation_id"]
    assert (
        f'<a class="badge cite" href="#cite-{m}-1" data-n="1" data-citation-id="{citation_id}" '
        f'title="hello &lt;script&gt;alert(1)&lt;/script&gt; world">1</a>' in body
    )
    card = body[body.index(f'id="cite-{m}-1"') :]
    card = card[: card.index("</li>")]
    assert '<a class="card-title" href="https://doi.org/10.1000/xyz-1"' in card
    assert "Notes on &lt;b&gt;greetings&lt;/b&gt;" in card
    assert "Ada Lovelace, Charles Babbage · 1843 · Sketches" in card
    assert "§ Intro · paragraph 1" in card and "located to the paragraph" in card
    assert "0.500 · fusion" in card
    assert f'href="/documents/{document.pk}/view/?chunk=0&amp;message={m}&amp;n=1">open at paragraph 1</a>' in card
    assert 'href="zotero://open-pdf/library/items/ABCD2345"' in card  # no page: the file has none
    # non-strict: the sentence without support is marked, and still escaped
    assert '<span class="claim is-unsourced">&lt;script&gt;alert(3)&lt;/script&gt; The moon is cheese.' in body
    assert '<span class="claim-label">not from the library</span>' in body
    assert "Sources that disagree" in body and "Others say goodbye world" in body
    assert "In your library (found through citations)" in body
    assert "Suggested additions (found through citations)" in body
    assert 'href="https://doi.org/10.1093/mind/LIX.236.433"' in body
    assert "Related documents (similar metadata, no citation link)" in body
    assert re.search(rf'cited by <a class="badge cite" href="#cite-{m}-1" data-n="1">1</a> as Ref 14', body)
    # quick: a one-click deep re-run; the retrieval note is folded
    regenerate = reverse("message-regenerate", args=[message.conversation_id, m])
    assert f'action="{regenerate}"' in body and '<input type="hidden" name="depth" value="deep">' in body
    assert '<details class="retrieval-note small"><summary>Retrieval note</summary>' in body
    assert "<script>alert" not in body


def test_chain_lines_of_documents_deleted_since_have_no_link(page_client_for, personas, document):
    gone = {"document_id": 999_999, "title": "Gone paper", "also_evidence": False, "cited_by": []}
    chain = {"in_library": [gone], "related": [{**gone, "reasons": [], "of": [1]}]}
    message = _stored_message(personas["viewer"], document, chain=chain)
    body = _page(page_client_for("viewer"), message)
    assert body.count('Gone paper <span class="muted small">(no longer in the library)</span>') == 2
    assert "/documents/999999/" not in body


def test_a_card_of_a_pdf_passage_gives_its_page_and_opens_there(page_client_for, personas, document):
    Document.objects.filter(pk=document.pk).update(zotero_key="ABCD2345")
    pdf = _citation(document, locator_precision="bbox", page=3, page_end=3, para_start=None, para_end=None, doi="")
    message = _stored_message(personas["viewer"], document, citations=[pdf], chain={}, conflicts=[])
    body = _page(page_client_for("viewer"), message)
    assert "§ Intro · p. 3" in body and ">open at p. 3</a>" in body
    assert 'href="zotero://open-pdf/library/items/ABCD2345?page=3"' in body
    assert 'class="card-title" href' not in body  # no DOI, no link on the title
    assert "Sources that disagree" not in body and "found through citations" not in body


@pytest.mark.parametrize(
    "doc_type,lines,place,opens",
    [
        ("md", (12, 18), "§ Intro · lines 12–18", "open at line 12"),
        ("txt", (7, 7), "§ Intro · line 7", "open at line 7"),
        ("xlsx", (2, 40), "§ Intro · rows 2–40", "open at row 2"),
    ],
)
def test_a_card_of_a_text_or_spreadsheet_passage_gives_its_lines(
    page_client_for, personas, document, doc_type, lines, place, opens
):
    # a text file is cited by the lines its viewer highlights, not by a paragraph count nobody can see
    cited = _citation(document, doc_type=doc_type, line_start=lines[0], line_end=lines[1])
    assert (cited["line_start"], cited["line_end"]) == lines  # the citation object carries them
    message = _stored_message(personas["viewer"], document, citations=[cited], chain={}, conflicts=[])
    body = _page(page_client_for("viewer"), message)
    assert place in body and f">{opens}</a>" in body and "paragraph 1" not in body


def test_an_answer_stored_before_the_typed_citation_is_brought_up_to_it_by_its_migration(
    page_client_for, personas, document
):
    # given an answer stored before line numbers, the OCR flag, the chunk hash and the status were kept
    dated = ("line_start", "line_end", "ocr", "chunk_hash", "evidence_number", "status", "status_note")
    old = {k: v for k, v in _citation(document).items() if k not in dated} | {"note": "a key the type does not know"}
    message = _stored_message(personas["viewer"], document, citations=[old], chain={}, conflicts=[])
    with pytest.raises(
        StoredCitationError, match="lacks line_start, line_end, ocr, evidence_number, chunk_hash, status, status_note"
    ):
        stored_citations(message.result)

    # when the data migration runs
    import_module("apps.citations.migrations.0004_typed_citations").forwards(django_apps, None)

    # then it reads back typed, at its paragraph, with neither lines nor OCR, and as changed: without its hash the
    # passage cannot be told unchanged (what the page said of it before, too)
    message.refresh_from_db()
    assert message.result["version"] == CITATION_VERSION
    (citation,) = stored_citations(message.result)
    assert (citation.line_start, citation.line_end, citation.ocr, citation.evidence_number) == (None, None, False, 1)
    assert message.result["citations"][0]["note"] == "a key the type does not know"  # nothing stored is lost
    client = page_client_for("viewer")
    body = _page(client, message)
    assert "§ Intro · paragraph 1" in body and "this passage is no longer in it" in body
    stored = client.get(reverse("api-conversation-detail", args=[message.conversation_id]))
    assert stored.status_code == 200, stored.content
    served = stored.json()["messages"][0]["citations"][0]
    assert served["line_start"] is None and served["para_start"] == 0 and served["status"] == "changed"


def test_cards_say_when_a_source_changed_or_was_deleted(page_client_for, personas, document):
    message = _stored_message(personas["viewer"], document)
    Chunk.objects.filter(document=document).update(text="hello there, new world")
    body = _page(page_client_for("viewer"), message)
    assert "this passage is no longer in it" in body and ">open the document</a>" in body
    document.delete()
    body = _page(page_client_for("viewer"), message)
    assert "The document was deleted after this answer." in body
    assert "card-open" not in body and "zotero://" not in body


def test_the_message_partial_is_the_message_alone_and_a_streamed_one_sets_the_depth(
    page_client_for, personas, document
):
    message = _stored_message(personas["viewer"], document)  # asked at depth quick, through the API
    client = page_client_for("viewer")
    partial = reverse("message-detail", args=[message.conversation_id, message.pk])
    body = client.get(partial).content.decode()
    assert body.lstrip().startswith(f'<article class="message-block" id="message-{message.pk}"')
    assert "<html" not in body and f'id="cite-{message.pk}-1"' in body
    # fetched for any other reason than a streamed question, it takes no preference from the message
    assert 'name="depth" value="deep" checked' in client.get(_ask_url()).content.decode()
    client.get(partial, {"streamed": "ask"})
    assert 'name="depth" value="quick" checked' in client.get(_ask_url()).content.decode()


# ---- real questions, answered from what the worker indexed ----------------------------------------------------------
@pytest.fixture
def note(celery_worker_available, api_client_for, api_upload, wait_for_ingest) -> dict:
    client = api_client_for("editor")
    done = wait_for_ingest(client, api_upload(client, "cave-lions.md", NOTE)["id"])
    assert done["status"] == "ready", done["error"]
    return done


def _ask(client, question: str, **fields) -> tuple[int, int]:
    response = client.post(_ask_url(), {"question": question, **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    match = re.fullmatch(r"/conversations/(\d+)/#message-(\d+)", response["Location"])
    assert match, response["Location"]
    return int(match[1]), int(match[2])


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_asking_without_javascript_stores_the_answer_and_shows_it(page_client_for, note):
    client = page_client_for("viewer")
    conversation_id, message_id = _ask(client, "When did cave lions live in Europe?", depth="quick")
    conversation = Conversation.objects.get(pk=conversation_id)
    assert conversation.user.username == "vic" and conversation.collection.slug == "lab"
    body = client.get(reverse("conversation-detail", args=[conversation_id])).content.decode()
    assert f'id="message-{message_id}"' in body and "14,000 years ago" in body
    assert f'href="#cite-{message_id}-1" data-n="1"' in body and f'id="cite-{message_id}-1"' in body
    assert f'href="/documents/{note["id"]}/view/?chunk=' in body and "§ Results" in body
    assert "Re-run deep" in body  # a quick answer offers the deep one
    # the choice of depth is remembered for the next question
    assert 'name="depth" value="quick" checked' in client.get(_ask_url()).content.decode()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_follow_up_adds_a_message_and_regenerating_replaces_one_in_place(page_client_for, note):
    client = page_client_for("viewer")
    conversation_id, first = _ask(client, "When did cave lions live in Europe?", depth="quick")
    again, second = _ask(client, "How were the bones dated?", depth="quick", conversation=conversation_id)
    assert again == conversation_id and second != first
    body = client.get(reverse("conversation-detail", args=[conversation_id])).content.decode()
    assert body.index(f'id="message-{first}"') < body.index(f'id="message-{second}"')
    assert f'name="conversation" value="{conversation_id}"' in body  # the next follow-up continues it

    response = client.post(reverse("message-regenerate", args=[conversation_id, first]), {"depth": "deep"})
    assert response.status_code == 302 and response["Location"].endswith(f"#message-{first}")
    messages = list(Message.objects.filter(conversation_id=conversation_id).order_by("id"))
    assert [(m.pk, m.regenerations, m.depth) for m in messages] == [(first, 1, "deep"), (second, 0, "quick")]
    assert messages[0].result["depth"] == "deep" and messages[0].result["hint"] == ""


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_unanswered_question_is_stated_plainly_and_a_script_in_a_question_is_text(page_client_for, note):
    client = page_client_for("viewer")
    conversation_id, _ = _ask(client, "What is the capital of Peru?", depth="quick")
    body = client.get(reverse("conversation-detail", args=[conversation_id])).content.decode()
    statement = "The documents in this collection do not answer this."
    assert f'<div class="answer answer-plain"><p>{statement}</p></div>' in body
    assert "source-card" not in body and "badge cite" not in body

    conversation_id, _ = _ask(client, "<script>alert(1)</script> When did cave lions live in Europe?", depth="quick")
    body = client.get(reverse("conversation-detail", args=[conversation_id])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; When did cave lions live in Europe?" in body
    history = client.get(reverse("conversation-list")).content.decode()
    assert "&lt;script&gt;alert(1)" in history
    assert "<script>alert" not in body + history


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_asking_in_reading_mode_keeps_the_document(page_client_for, note):
    client = page_client_for("viewer")
    conversation_id, _ = _ask(client, "How were the bones dated?", depth="quick", document=note["id"])
    assert Conversation.objects.get(pk=conversation_id).document_id == note["id"]
    body = client.get(reverse("conversation-detail", args=[conversation_id])).content.decode()
    assert "reading “" in body and "radiocarbon" in body
