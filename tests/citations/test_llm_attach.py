"""The LLM path when the model writes claims without markers (issue 15): citations attached after generation by
matching each sentence to the evidence, the same support check and strict/labelled handling, the question's gate
on what the model wrote, and citations streamed as soon as a sentence is finished.

A loopback fake chat server (test_llm_composer's) writes chosen sentences word by word, as a model streams; then the
real SmolLM2-135M (local_llm.py) goes through the same path, asserting only what must hold whatever it writes."""

from __future__ import annotations

import re
from dataclasses import replace

import hit_factory
import pytest
from local_llm import LocalLLM, local_llm  # noqa: F401
from test_llm_composer import Reply, chunk, event, fake_llm, url

from apps.citations.answers.attach import LiveAttacher, attach_citations, best_support
from apps.citations.answers.prompt import instructions
from apps.citations.answers.question import can_answer, classify
from apps.citations.answers.service import AskParams, ask, prepare, run
from apps.citations.answers.support import claim_of
from apps.citations.answers.types import ComposeRequest, Evidence
from apps.documents.models import Chunk
from tests.citations.papers import PAPERS

NO_ANSWER = "The documents in this collection do not answer this."
LION_QUESTION = "Where does the Asiatic lion survive?"
# Close to the lions passage, reworded as a model would; neither carries a marker.
WHERE = "The Asiatic lion survives only in the Gir forest of Gujarat, India."
HOW_MANY = "By 2017 the population of Asiatic lions had grown to about 600 animals."
INVENTED = "Lions sleep up to twenty hours a day on the African savanna."  # in no document


def words(text: str) -> list[bytes]:
    """The reply as a streaming model sends it: a role chunk, then a word per chunk, then stop and [DONE]."""
    pieces = re.findall(r"\S+\s*", text)
    return [chunk(role="assistant"), *(chunk(p) for p in pieces), chunk(finish="stop"), event("[DONE]")]


@pytest.fixture
def fake_model(settings):
    """Point the portal at a fake model that writes `text`; yields a function that sets the text."""
    holder = Reply([])
    with fake_llm(holder) as httpd:
        settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = url(httpd), "fake"
        settings.PORTAL_LLM_TIMEOUT = 30

        def writes(text: str) -> None:
            holder.pieces = words(text)

        yield writes


def evidence_of(*names: str) -> list[Evidence]:
    """The PAPERS of these file names as evidence 1, 2, … (hits without section headings, as a text file has)."""
    papers = {name: (title, text) for name, title, text in PAPERS}
    hits = [
        hit_factory.make_hit(chunk_id=100 + i, document_id=10 + i, title=papers[name][0], text=papers[name][1])
        for i, name in enumerate(names)
    ]
    return [Evidence(i + 1, replace(hit, section="", heading_path=[])) for i, hit in enumerate(hits)]


# ---- attaching, without the service -------------------------------------------------------------------------------
def test_each_unmarked_sentence_gets_the_passage_that_supports_it(embedder):
    evidence = evidence_of("glacier.txt", "lions.txt", "panda.txt")
    text = f"{WHERE} {HOW_MANY} {INVENTED}\n\n大熊猫生活在四川的竹林里，吃竹子。"
    attached = attach_citations(text, evidence, embedder)
    assert attached == f"{WHERE[:-1]} [2]. {HOW_MANY[:-1]} [2]. {INVENTED}\n\n大熊猫生活在四川的竹林里，吃竹子 [3]。"


def test_the_models_own_markers_are_left_to_the_support_check(embedder):
    evidence = evidence_of("lions.txt", "glacier.txt")
    # Cited by the model (right or wrong, in any form it likes): nothing is added, nothing moved.
    for text in (f"{WHERE[:-1]} [2].", f"{WHERE} 【1】", f"{WHERE[:-1]} [citation:1]."):
        assert attach_citations(text, evidence, embedder) == text
    # A number outside the evidence is a wrong citation, not a missing one: it is not re-pointed (a marker planted by
    # a document, "【7】", must not turn the sentence that obeyed it into a cited one); the support check drops it.
    assert attach_citations(f"{WHERE} [7]", evidence, embedder) == f"{WHERE} [7]"
    # The prompt's own phrases are the model abstaining or labelling itself, never claims to cite.
    for text in ("Not enough information in the library to answer this.", f"{WHERE[:-1]} (not from the library)."):
        assert attach_citations(text, evidence, embedder) == text


def test_questions_repeats_and_the_prompts_own_words_are_not_claims(embedder):
    evidence = evidence_of("lions.txt")
    attacher = LiveAttacher(evidence, embedder, instructions=instructions(ComposeRequest(LION_QUESTION, evidence)))
    attacher.feed(
        f"Question: {LION_QUESTION}\n\n"  # the model copying the prompt's question
        "Answer from the evidence above, with the passage number in square brackets after each claim [1].\n\n"
        f"{WHERE} {WHERE}"  # small models loop
    )
    attacher.flush()
    assert attacher.raw == (
        f"Question: {LION_QUESTION}\n\n"
        "Answer from the evidence above, with the passage number in square brackets after each claim.\n\n"
        f"{WHERE[:-1]} [1]. {WHERE}"
    )


def test_a_sentence_copied_with_the_prompts_wrapping_is_still_cited(embedder):
    # SmolLM2's actual reply (64 tokens) to "How many Asiatic lions were there in 2017?": the evidence block copied.
    written = (
        "The evidence is:\n\n[kb 1 begin]\ndocument 10 | Asiatic lions\ncite as [1]\nFusarium poae infects durum "
        "wheat kernels in the field. Infected kernels released more volatile alcohols than healthy kernels.\n"
        "[kb 1 end]\n\n["
    )
    attached = attach_citations(written, evidence_of("lions.txt", "wheat.txt"), embedder)
    assert "[kb" not in attached and "cite as" not in attached
    assert "Fusarium poae infects durum wheat kernels in the field [2]. Infected kernels released" in attached
    assert "volatile alcohols than healthy kernels [2]." in attached


def test_a_sentence_is_cited_once_it_is_finished_and_not_before(embedder):
    attacher = LiveAttacher(evidence_of("lions.txt"), embedder)
    assert attacher.feed(WHERE) == []  # a marker of the model's own may still follow the full stop
    assert attacher.feed(" [") == []  # ... and here one may be starting
    assert attacher.feed("1] By") == []  # it was the model's: kept as written, nothing attached
    assert attacher.raw == f"{WHERE} [1] By"
    assert attacher.feed(" 2017 the population of Asiatic lions had grown to about 600 animals.") == []
    [attachment] = attacher.feed(" Lions")  # the next sentence has begun: the last one is finished
    assert (attachment.evidence_number, attachment.claim) == (1, HOW_MANY)
    assert "Its population grew to about 600 animals by 2017" in attachment.quote
    assert attacher.raw == f"{WHERE} [1] {HOW_MANY[:-1]} [1]. Lions"
    assert attacher.flush() == []  # "Lions" alone is supported by nothing


# ---- through the answer service, with the fake model --------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "labelled"])
def test_an_answer_without_markers_is_cited_and_what_matches_nothing_is_dropped_or_labelled(
    library, personas, fake_model, strict
):
    fake_model(f"{WHERE} {HOW_MANY} {INVENTED}")
    result = ask(personas["viewer"], AskParams(LION_QUESTION, "lab", strict=strict, composer="llm"))
    assert result["composer"] == "llm:fake", result["diagnostics"]["composer_fallback"]
    assert result["answered"] is True
    assert result["citations"][0]["document_id"] == library["lions.txt"].pk
    assert f"{WHERE[:-1]} [1]. {HOW_MANY[:-1]} [1]." in result["answer"]
    by_text = {s["text"]: s for s in result["sentences"]}
    assert by_text[f"{WHERE[:-1]} [1]."]["supported"] is True
    assert by_text[f"{HOW_MANY[:-1]} [1]."]["supported"] is True
    if strict:
        assert INVENTED not in result["answer"] and result["diagnostics"]["dropped_sentences"] == [INVENTED]
        assert all(s["citations"] and s["supported"] for s in result["sentences"])
    else:
        assert by_text[INVENTED]["label"] == "not from the library" and by_text[INVENTED]["citations"] == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "labelled"])
def test_what_the_model_wrote_must_answer_the_question_or_the_answer_abstains(library, personas, fake_model, strict):
    question = "How many Asiatic lions live in the Gir forest?"
    lions = library["lions.txt"].chunks.get().pk
    # A supported sentence on the topic that holds no number: cited by the model itself (by chunk id), or not
    # at all, when attaching must not make it an answer either.
    for written in (f"{WHERE[:-1]} [ref:{lions}].", WHERE):
        fake_model(written)
        result = ask(personas["viewer"], AskParams(question, "lab", strict=strict, composer="llm"))
        assert result["composer"] == "llm:fake"
        assert result["answered"] is False, written
        assert result["answer"] == NO_ANSWER if strict else result["answer"].startswith(NO_ANSWER)


@pytest.mark.django_db(transaction=True)
def test_a_written_answer_that_holds_what_is_asked_passes_the_gate(library, personas, fake_model):
    question = "How many Asiatic lions live in the Gir forest?"
    fake_model("About 600 Asiatic lions lived in the Gir forest by 2017.")
    result = ask(personas["viewer"], AskParams(question, "lab", composer="llm"))
    assert result["answered"] is True
    assert result["answer"] == "About 600 Asiatic lions lived in the Gir forest by 2017 [1]."
    assert result["citations"][0]["document_id"] == library["lions.txt"].pk


@pytest.mark.django_db(transaction=True)
def test_tokens_stream_as_written_and_each_citation_as_soon_as_its_sentence_ends(library, personas, fake_model):
    fake_model(f"{WHERE} {HOW_MANY} {INVENTED}")
    events = list(run(prepare(personas["viewer"], AskParams(LION_QUESTION, "lab", strict=False, composer="llm"))))
    kinds = [e.kind for e in events]
    assert kinds[0] == "evidence" and kinds[-1] == "finish" and set(kinds[1:-1]) == {"text", "citation"}
    lions = next(e["evidence_number"] for e in events[0].data["evidence"] if e["source"] == "lions.txt")
    citations = [i for i, kind in enumerate(kinds) if kind == "citation"]
    assert len(citations) == 2  # one per cited sentence, each its own event
    first = events[citations[0]].data
    assert first["text"].startswith(f"{WHERE[:-1]} [1]. By")  # sent while the next sentence was being written
    assert first["order"] == [lions]
    quote = "The Asiatic lion survives only in the Gir forest of Gujarat in India."
    assert first["citations"] == [{"claim": WHERE, "evidence_number": lions, "quote": quote}]
    # Tokens came one by one before the first citation, and more kept coming between the citations.
    assert kinds[1 : citations[0]].count("text") >= 10
    assert "text" in kinds[citations[0] : citations[1]]
    assert citations[1] < len(kinds) - 2  # the second before the model finished writing the third sentence
    # What a client puts together from the events is the finished answer (nothing dropped: not strict).
    shown = ""
    for e in events[1:-1]:
        shown = shown + e.data["delta"] if "delta" in e.data else e.data["text"]
    assert shown == events[-1].data["answer"]
    assert events[-2].data["order"] == [c["evidence_number"] for c in events[-1].data["citations"]]


# ---- the real local model ----------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("question", [LION_QUESTION, "How many Asiatic lions were there in 2017?"])
def test_whatever_a_real_small_model_writes_every_kept_sentence_is_cited_and_supported(
    library,
    personas,
    settings,
    embedder,
    local_llm: LocalLLM,  # noqa: F811
    question,
):
    settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = local_llm.base_url, local_llm.model
    settings.PORTAL_LLM_TIMEOUT, settings.PORTAL_LLM_MAX_TOKENS = 120, 64
    events = list(run(prepare(personas["viewer"], AskParams(question, "lab", strict=True, composer="llm"))))
    result = events[-1].data
    assert result["composer"] == f"llm:{local_llm.model}", result["diagnostics"]["composer_fallback"]
    # A sentence goes only when no passage supports it (one the support check would accept was cited instead), or
    # when it repeats a sentence already cited (small models loop).
    evidence = [
        Evidence(item["evidence_number"], hit_factory.make_hit(text=Chunk.objects.get(pk=item["chunk_id"]).text))
        for item in events[0].data["evidence"]
    ]
    cited = {a["claim"].casefold() for e in events if e.kind == "citation" for a in e.data["citations"]}
    for dropped in result["diagnostics"]["dropped_sentences"]:
        repeat = claim_of(dropped).casefold() in cited
        assert repeat or best_support(claim_of(dropped), evidence, embedder) is None, (dropped, result["answer"])
    if not result["answered"]:
        assert result["answer"] == NO_ANSWER and result["citations"] == []
        return
    kept = result["sentences"]
    assert kept and all(s["citations"] and s["supported"] for s in kept)  # strict: no sentence without one
    assert {n for s in kept for n in s["citations"]} == {c["n"] for c in result["citations"]}
    # Answered means some kept sentence passes the question's gate.
    asked = classify(question)
    assert any(can_answer(asked, claim_of(s["text"])) for s in kept)
