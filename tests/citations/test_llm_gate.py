"""The abstention rule on what a language model wrote (issue 15): the extractive composer's gate judges each
supported written claim as a sentence of the passage it rests on (answers.written_gate), and the asked item must be
one the evidence states. With the loopback fake model, which writes no markers, and once through the real SmolLM2.
"""

from __future__ import annotations

import pytest
from local_llm import LocalLLM, local_llm  # noqa: F401
from test_llm_attach import NO_ANSWER, fake_model  # noqa: F401

from apps.citations.answers.service import AskParams, ask

pytestmark = pytest.mark.django_db(transaction=True)

# The wheat passage gives no number: "how many" is on its topic but not answered by it.
KERNELS = "How many durum wheat kernels did Fusarium poae infect?"


@pytest.mark.parametrize(
    "question, answered",
    [
        # The extractive composer answers with this very sentence: its title and the sentence before it name the
        # Asiatic lion, as the composer's gate counts them ("Its population …" names neither).
        ("How large did the Asiatic lion population grow?", True),
        # ... and abstains here (the sentence scores below its MIN_SCORE): so does the written claim.
        ("How many Asiatic lions live in the Gir forest?", False),
    ],
)
def test_a_written_claim_answers_exactly_when_the_extractive_composer_would_answer_with_it(
    library,
    personas,
    fake_model,  # noqa: F811
    question,
    answered,
):
    extracted = ask(personas["viewer"], AskParams(question, "lab", composer="extractive"))
    assert extracted["answered"] is answered
    if answered:
        assert extracted["answer"].startswith("Its population grew to about 600 animals by 2017")
    fake_model("Its population grew to about 600 animals by 2017.")
    result = ask(personas["viewer"], AskParams(question, "lab", composer="llm"))
    assert result["composer"] == "llm:fake"
    assert result["answered"] is answered, result["answer"]
    if answered:
        assert result["answer"] == "Its population grew to about 600 animals by 2017 [1]."
        assert result["citations"][0]["document_id"] == library["lions.txt"].pk
    else:
        assert result["answer"] == NO_ANSWER
        assert [p["document_id"] for p in result["topic_passages"]] == [library["lions.txt"].pk]


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "labelled"])
def test_a_number_the_evidence_never_gives_does_not_answer_and_the_topic_passages_are_offered(
    library,
    personas,
    fake_model,  # noqa: F811
    strict,
):
    # Every other word is the passage's, so the support check accepts the sentence; the number is the model's own.
    fake_model("Fusarium poae infected about 40 durum wheat kernels in the field.")
    result = ask(personas["viewer"], AskParams(KERNELS, "lab", strict=strict, composer="llm"))
    assert result["composer"] == "llm:fake"
    assert result["answered"] is False, result["answer"]
    assert result["answer"] == NO_ANSWER if strict else result["answer"].startswith(NO_ANSWER)
    if not strict:  # kept, labelled as written: supported by the passage, yet not an answer
        [written] = [s for s in result["sentences"] if "40" in s["text"]]
        assert written["supported"] is True and written["citations"] == [1]
    assert [p["document_id"] for p in result["topic_passages"]] == [library["wheat.txt"].pk]


def test_the_number_the_evidence_gives_answers(library, personas, fake_model):  # noqa: F811
    fake_model("About 600 Asiatic lions lived in the Gir forest by 2017.")
    result = ask(personas["viewer"], AskParams("How many Asiatic lions live in the Gir forest?", "lab", composer="llm"))
    assert result["answered"] is True and result["topic_passages"] == []


def test_whatever_the_real_small_model_writes_an_unanswered_question_abstains_with_the_topic_passages(
    library,
    personas,
    settings,
    local_llm: LocalLLM,  # noqa: F811
):
    settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = local_llm.base_url, local_llm.model
    settings.PORTAL_LLM_TIMEOUT, settings.PORTAL_LLM_MAX_TOKENS = 120, 64
    for strict in (True, False):
        result = ask(personas["viewer"], AskParams(KERNELS, "lab", strict=strict, composer="llm"))
        assert result["composer"] == f"llm:{local_llm.model}", result["diagnostics"]["composer_fallback"]
        assert result["answered"] is False, result["answer"]
        assert result["answer"] == NO_ANSWER if strict else result["answer"].startswith(NO_ANSWER)
        assert library["wheat.txt"].pk in [p["document_id"] for p in result["topic_passages"]]
