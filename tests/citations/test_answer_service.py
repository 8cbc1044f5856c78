"""The answer service on the real database and embedding model: answers and their citations, "cannot answer",
Chinese, follow-ups, regenerate, reading mode, access, stored citations after re-ingest and delete, and the
extractive fallback when the language model is down."""

from __future__ import annotations

import socket

import pytest
from django.http import Http404

from apps.citations.answers.citation import stored_citations
from apps.citations.answers.service import AskParams, InvalidQuestion, ask
from apps.citations.answers.store import with_status
from apps.citations.models import Conversation, Message
from apps.documents.models import Chunk, Document

pytestmark = pytest.mark.django_db(transaction=True)


def _ask(user, question, **kw):
    kw.setdefault("collection", "lab")
    return ask(user, AskParams(question, **kw))


def _assert_consistent(result: dict) -> None:
    """Every marker names a citation, numbers run 1..k in order of first use, quotes come from their chunk."""
    import re

    used = [int(n) for n in re.findall(r"\[(\d+)\]", result["answer"])]
    numbers = [c["n"] for c in result["citations"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert list(dict.fromkeys(used)) == numbers[: len(dict.fromkeys(used))]
    for citation in result["citations"]:
        chunk = Chunk.objects.get(pk=citation["chunk_id"])
        assert citation["quote"].rstrip("…") in " ".join(chunk.text.split())
        assert citation["viewer_url"].endswith(f"?chunk={chunk.chunk_index}")


def test_an_answer_cites_the_passage_that_says_it_and_is_stored(library, personas):
    result = _ask(personas["viewer"], "Where does the Asiatic lion survive?")
    assert result["answered"] is True
    assert "Gir forest" in result["answer"] and "[1]" in result["answer"]
    assert result["citations"][0]["document_id"] == library["lions.txt"].pk
    assert all(s["supported"] for s in result["sentences"])
    _assert_consistent(result)
    message = Message.objects.get(pk=result["message"])
    assert message.conversation_id == result["conversation"]
    assert message.conversation.user == personas["viewer"]
    assert message.result["citations"] == result["citations"]
    assert message.answer == result["answer"] and message.composer == "extractive"


def test_the_support_check_asks_the_model_only_when_word_overlap_leaves_it_open(embedder):
    from apps.citations.answers import support

    chunk = "The Asiatic lion survives only in the Gir forest of Gujarat in India."
    text = (
        "The Asiatic lion survives only in the Gir forest [1]. "  # overlap decides: supported
        "Asiatic lions now live in just one Indian woodland [1]. "  # a paraphrase: the model decides
        "Quarterly revenue rose by four percent [1]."  # nothing shared: unsupported
    )
    checks, _ = support.check(text, {1: chunk}, embedder)
    assert [c.semantic is None for c in checks] == [True, False, True]
    assert checks[0].supported is True and checks[2].supported is False
    assert 0.0 <= checks[1].semantic <= 1.0 and checks[1].lexical < 0.5


def test_a_question_the_documents_do_not_answer_says_so(library, personas):
    result = _ask(personas["viewer"], "What is the boiling point of mercury?")
    assert result["answered"] is False
    assert result["answer"] == "The documents in this collection do not answer this."
    assert result["citations"] == []


def test_a_chinese_question_is_answered_from_chinese_evidence(library, personas):
    result = _ask(personas["viewer"], "大熊猫吃什么？")
    assert result["answered"] and result["language"] == "zh"
    assert "竹子" in result["answer"]
    assert result["citations"][0]["document_id"] == library["panda.txt"].pk


def test_quick_answers_offer_deep_and_deep_answers_carry_a_chain_block(library, personas):
    quick = _ask(personas["viewer"], "Where does the Asiatic lion survive?", depth="quick")
    assert quick["hint"] and quick["depth"] == "quick" and quick["retrieval_note"].startswith("quick")
    deep = _ask(personas["viewer"], "Where does the Asiatic lion survive?")
    assert deep["hint"] == "" and deep["diagnostics"]["search"]["depth"] == "deep"
    assert set(deep["chain"]) <= {"in_library", "suggested", "related"}


def test_follow_ups_share_the_conversation_and_regenerate_replaces_the_answer(library, personas):
    first = _ask(personas["viewer"], "Where does the Asiatic lion survive?")
    follow = _ask(personas["viewer"], "How many animals were there by 2017?", conversation=first["conversation"])
    assert follow["conversation"] == first["conversation"]
    assert "Asiatic lion" in follow["diagnostics"]["retrieval_query"]
    assert "600" in follow["answer"]
    again = ask(personas["viewer"], AskParams("", regenerate=follow["message"], depth="quick"))
    assert again["message"] == follow["message"]
    message = Message.objects.get(pk=follow["message"])
    assert message.regenerations == 1 and message.depth == "quick" and message.result["depth"] == "quick"
    assert Message.objects.filter(conversation_id=first["conversation"]).count() == 2


def test_reading_mode_cites_only_the_document_asked(library, personas):
    wheat = library["wheat.txt"]
    result = _ask(personas["viewer"], "Where does the Asiatic lion survive?", document=wheat.pk)
    assert all(c["document_id"] == wheat.pk for c in result["citations"])
    assert Conversation.objects.get(pk=result["conversation"]).document == wheat
    if not result["answered"]:
        assert result["answer"] == "This document does not answer this."


def test_access_is_checked_for_collections_documents_conversations_and_messages(library, personas, other_collection):
    first = _ask(personas["viewer"], "Where does the Asiatic lion survive?")
    with pytest.raises(Http404):
        _ask(personas["outsider"], "Where does the Asiatic lion survive?")
    with pytest.raises(Http404):
        _ask(personas["outsider"], "lions", collection="other", document=library["lions.txt"].pk)
    with pytest.raises(Http404):
        _ask(personas["editor"], "And in 2017?", conversation=first["conversation"])
    with pytest.raises(Http404):
        ask(personas["editor"], AskParams("", regenerate=first["message"]))
    with pytest.raises(InvalidQuestion):
        _ask(personas["viewer"], "   ")
    with pytest.raises(InvalidQuestion):
        _ask(personas["viewer"], "lions", depth="deepest")


def test_stored_citations_say_when_their_source_was_reingested_or_deleted(library, personas):
    lions, wheat = library["lions.txt"], library["wheat.txt"]
    result = _ask(
        personas["viewer"], "Where does the Asiatic lion survive, and what do infected wheat kernels release?"
    )
    stored = stored_citations(Message.objects.get(pk=result["message"]).result)
    by_document = {c.document_id: c for c in stored}
    assert {lions.pk, wheat.pk} <= set(by_document)
    assert {c.status for c in with_status(stored)} == {"current"}

    # Re-ingest the way ingest does it: the chunks are replaced. Same text for lions, new text for wheat.
    old = Chunk.objects.get(pk=by_document[lions.pk].chunk_id)
    Chunk.objects.filter(pk=old.pk).delete()
    old.pk, old.chunk_index = None, old.chunk_index + 3
    old.save()
    changed = Chunk.objects.get(pk=by_document[wheat.pk].chunk_id)
    changed.text = "An entirely rewritten passage about something else."
    changed.save()
    now = {c.document_id: c for c in with_status(stored)}
    assert now[lions.pk].status == "moved"
    assert now[lions.pk].chunk_id == old.pk and now[lions.pk].viewer_url.endswith(f"?chunk={old.chunk_index}")
    assert now[wheat.pk].status == "changed" and "no longer" in now[wheat.pk].status_note
    assert "?chunk=" not in now[wheat.pk].viewer_url

    Document.objects.filter(pk=lions.pk).delete()
    now = {c.document_id: c for c in with_status(stored)}
    assert now[lions.pk].status == "deleted" and now[lions.pk].viewer_url == ""


def test_a_language_model_that_is_down_leaves_an_extractive_answer_that_says_why(library, personas, settings):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    settings.PORTAL_LLM_BASE_URL = f"http://127.0.0.1:{port}/v1"
    settings.PORTAL_LLM_MODEL = "absent"
    settings.PORTAL_LLM_TIMEOUT = 5
    result = _ask(personas["viewer"], "Where does the Asiatic lion survive?", composer="llm")
    assert result["composer"] == "extractive"
    assert "llm:absent unavailable" in result["diagnostics"]["composer_fallback"]
    assert result["answered"] and "Gir forest" in result["answer"]
    settings.PORTAL_LLM_BASE_URL = ""
    with pytest.raises(InvalidQuestion, match="No language model"):
        _ask(personas["viewer"], "Where does the Asiatic lion survive?", composer="llm")


def test_a_sources_own_reference_markers_never_become_badges(collection, personas, embedder):
    """A passage that cites its sources as "[2]" or "【2】" is answered from without those numbers turning into
    badges of this answer (which would open whatever our evidence 2 is)."""
    from apps.documents.services.bulk import TextItem, add_texts

    add_texts(
        collection,
        [
            TextItem("lynx.txt", "Iberian lynx", "The Iberian lynx feeds mainly on European rabbits 【2】 [3]."),
            TextItem("ibex.txt", "Ibex", "The Alpine ibex climbs steep dams to lick salt from the stones."),
            TextItem("hare.txt", "Hares", "Mountain hares turn white in winter in the Scottish highlands."),
        ],
        embedder,
    )
    result = _ask(personas["viewer"], "What does the Iberian lynx feed on?", depth="quick")
    assert result["answered"], result["answer"]
    assert "European rabbits" in result["answer"] and "【" not in result["answer"]
    assert [c["source"] for c in result["citations"]] == ["lynx.txt"]
    _assert_consistent(result)
