"""The LLM composer through the whole answer service, against the real local model (SmolLM2-135M-Instruct served
by llama.cpp, see local_llm.py). That model cites badly or not at all; what is asserted is what the portal makes of
it: only valid, renumbered markers; every cited sentence checked; strict mode keeping only what holds up, or
saying that the documents do not answer; non-strict mode labelling the rest. Never the wording."""

from __future__ import annotations

import re

import pytest
from local_llm import LocalLLM, local_llm  # noqa: F401

from apps.citations.answers.service import AskParams, ask

pytestmark = pytest.mark.django_db(transaction=True)

NO_ANSWER = "The documents in this collection do not answer this."


@pytest.fixture
def llm_settings(settings, local_llm: LocalLLM):  # noqa: F811
    settings.PORTAL_LLM_BASE_URL = local_llm.base_url
    settings.PORTAL_LLM_MODEL = local_llm.model
    settings.PORTAL_LLM_TIMEOUT = 120
    settings.PORTAL_LLM_MAX_TOKENS = 48  # a shared 2-core machine: short answers keep the test bounded
    return settings


def _valid(result: dict) -> None:
    used = [int(n) for n in re.findall(r"\[(\d+)\]", result["answer"])]
    numbers = [c["n"] for c in result["citations"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert set(used) <= set(numbers)
    assert list(dict.fromkeys(used)) == numbers[: len(set(used))]  # numbered in order of first use
    assert "[kb" not in result["answer"] and "cite as" not in result["answer"]
    for sentence in result["sentences"]:
        if sentence["citations"]:
            assert sentence["supported"] in (True, False) and sentence["score"] is not None


@pytest.mark.parametrize("strict", [True, False])
def test_a_real_models_answer_is_cleaned_checked_and_stored(library, personas, llm_settings, strict):
    result = ask(
        personas["viewer"], AskParams("Where does the Asiatic lion survive?", "lab", strict=strict, composer="llm")
    )
    assert result["composer"] == "llm:" + llm_settings.PORTAL_LLM_MODEL, result["diagnostics"]["composer_fallback"]
    _valid(result)
    if strict:
        # Only supported sentences survive; if none does, the answer says so instead.
        assert all(s["supported"] for s in result["sentences"] if s["text"] != NO_ANSWER)
        assert result["answered"] or result["answer"] == NO_ANSWER
    else:
        labels = {s["label"] for s in result["sentences"]}
        assert labels <= {"", "unsupported", "not from the library"}
        uncited = [s for s in result["sentences"] if not s["citations"] and s["text"] != NO_ANSWER]
        assert all(s["label"] == "not from the library" for s in uncited)
