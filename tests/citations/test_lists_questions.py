"""List questions asked by their plural noun, lists written inside a sentence, and the fresh split of the list
benchmark (issue 15). No database: the composer runs on hand-made evidence, without the embedding model."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.list_questions import asks_for_several, enumerates
from apps.citations.answers.question import classify
from apps.citations.answers.types import ComposeRequest, Evidence
from tests.citations.hit_factory import make_hit


def _evidence(*texts: str) -> list[Evidence]:
    return [
        Evidence(n, make_hit(text=text, chunk_index=n, chunk_id=100 + n, section="Methods", heading_path=["Methods"]))
        for n, text in enumerate(texts, start=1)
    ]


def _answer(question: str, evidence: list[Evidence]) -> str:
    composer = ExtractiveComposer(use_embeddings=False)
    return "".join(p for p in composer.stream(ComposeRequest(question, evidence)) if isinstance(p, str))


@pytest.mark.parametrize(
    "question",
    [
        "Which PDFs are filtered out before parsing?",
        "What components do virtualized clusters typically contain?",
        "In which patients is the purgative contraindicated?",
        "What are examples of node sanitization?",
        "Besides the threats to single zones, what other threats do clusters face?",
        "Which four groups of stakeholders did the committee choose?",
        "Which toxins produced by the fungus are named?",
    ],
)
def test_a_wh_question_on_a_plural_noun_asks_for_several(question):
    assert asks_for_several(question, classify(question).kind)


@pytest.mark.parametrize(
    "question",
    [
        "Which gene regulates the clock?",  # "regulates" is the verb after the noun "gene"
        "What is the status of the project?",
        "What does the model assume?",
        "How many patients were enrolled?",  # a number, whatever its noun
        "What causes the delay in flowering?",  # a cause
        "Which process is used?",
    ],
)
def test_a_question_on_one_thing_does_not(question):
    assert not asks_for_several(question, classify(question).kind)


def test_a_plural_question_of_another_kind_is_answered_by_the_list_it_asks_for():
    question = "What instruments do string quartets usually contain?"
    assert classify(question).kind != "list"  # the classifier's cues miss it: the plural noun asks for the list
    # The best sentence is not the list's lead-in, so without the list the answer would be that sentence alone.
    evidence = _evidence(
        "A string quartet usually contains instruments that are played with a bow, in four parts.\n\n"
        "The instruments of a string quartet are:\n\n"
        "• two violins, which play the melody and the inner voice;\n\n"
        "• a viola, which plays the inner harmony;\n\n"
        "• a cello, which plays the bass line."
    )
    answer = _answer(question, evidence)
    assert "a viola" in answer and "a cello" in answer
    assert answer.count("[1]") == 4  # the lead-in and each item, each on its own line
    assert "played with a bow" not in answer


def test_a_plural_question_without_a_list_is_answered_as_its_own_kind():
    question = "What instruments do string quartets usually contain?"
    evidence = _evidence("A string quartet usually contains instruments of the violin family only.")
    assert "violin family" in _answer(question, evidence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Ultrasound, computed tomography, and magnetic resonance imaging are common imaging methods.",
        "The diagnosis is mainly based on US, CT, MRI and other imaging methods.",
        "该宏包有三个命令\\toprule、\\midrule 和\\bottomrule 能方便你制作三线表。",
        "你可以把你的图放到如下子目录下(./image/, ./img/, ./fig/)。",
    ],
)
def test_a_sentence_that_names_three_things_in_a_row_enumerates(sentence):
    assert enumerates(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "However, the effect of rainfall and temperature was small.",  # an adverbial, then two things
        "In this paper, the application of imaging methods will be discussed.",
        "他来自北京，在上海工作。",
    ],
)
def test_a_sentence_that_names_fewer_does_not(sentence):
    assert not enumerates(sentence)


PHC = (
    "In this paper, the application of the common imaging methods in the diagnosis of primary hepatic carcinoma "
    "will be discussed in detail. Ultrasound, computed tomography, magnetic resonance imaging, and positron "
    "emission tomography are common imaging methods in the diagnosis of primary hepatic carcinoma."
)


def test_a_list_question_is_answered_by_the_sentence_that_lists_when_no_list_is_written_out():
    # The sentence that repeats the question's words best ("In this paper, …") names no imaging method.
    question = classify("Which imaging methods are common in the diagnosis of primary hepatic carcinoma?")
    answer = ExtractiveComposer(use_embeddings=False).list_answer(question, _evidence(PHC))
    assert answer.startswith("Ultrasound, computed tomography, magnetic resonance imaging, and positron")
    assert answer.count("[1]") == 2  # the sentence the composer would have chosen still follows


def test_a_lead_in_that_names_things_is_not_the_list_it_announces():
    question = classify("列表环境的示例列出了哪几项？")
    evidence = _evidence("你可以使用列表环境（itemize、enumerate、description），示例列出如下几项：")
    assert ExtractiveComposer(use_embeddings=False).list_answer(question, evidence) == ""


# --- the benchmark's fresh split -------------------------------------------------------------------------------

BENCH = Path(__file__).resolve().parents[2] / "bench" / "answers"


def _datasets():
    spec = importlib.util.spec_from_file_location("bench_answers_datasets_lists", BENCH / "datasets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_question_with_its_own_split_keeps_it_and_moves_no_other_question(tmp_path):
    datasets = _datasets()

    def question(qid, source, **extra):
        return {"id": qid, "source": source, "question": "?", "items": ["x"], **extra}

    old = [question("a", "a.pdf"), question("b", "b.pdf"), question("c", "c.pdf")]
    path = tmp_path / "lists.json"
    path.write_text(json.dumps({"questions": old}), encoding="utf-8")
    before = {q.qid: q.split for q in datasets.list_questions(path)}
    # A fresh file sorting first would shift every old file's even/odd place if it took one.
    path.write_text(json.dumps({"questions": [question("f", "0.pdf", split="fresh"), *old]}), encoding="utf-8")
    after = {q.qid: q.split for q in datasets.list_questions(path)}
    assert after == {**before, "f": datasets.FRESH}
    assert before == {"a": datasets.TUNE, "b": datasets.HELD_OUT, "c": datasets.TUNE}


def test_the_benchmark_has_a_fresh_split_of_at_least_ten_questions_three_in_chinese():
    data = json.loads((BENCH / "lists.json").read_text(encoding="utf-8"))
    fresh = [q for q in data["questions"] if q.get("split") == "fresh"]
    assert len(fresh) >= 10 and sum(q["language"] == "zh" for q in fresh) >= 3
    used_before = {q["source"] for q in data["questions"] if "split" not in q}
    assert not used_before & {q["source"] for q in fresh}  # from files nobody tuned on
    assert all(q["source"] in data["sources"] for q in data["questions"])  # each file's licence is written down


def test_a_latin_word_in_a_chinese_question_is_one_of_its_key_terms():
    # jieba tags "JabRef" "eng", which starts like "e" (an interjection): it had been cut out as a function word,
    # though it names what the question is about.
    assert "jabref" in classify("JabRef 管理文献有哪些基本功能？").key_terms
    assert "algorithm" in classify("algorithm 算法环境中的各个命令分别表示什么？").key_terms
    assert "nba" in classify("NBA总决赛哪年开始？").key_terms


@pytest.mark.parametrize(
    "question",
    ["大连民族大学硕士论文 LaTeX 模板里各级标题分别用什么命令？", "algorithm 算法环境中的各个命令分别表示什么？"],
)
def test_each_of_several_things_asked_at_once_is_a_list_question_and_the_cue_takes_no_content(question):
    asked = classify(question)
    assert asked.kind == "list"
    assert "命令" in asked.key_terms
    assert "标题" in classify(question).key_terms or "algorithm" in asked.key_terms


def test_bigrams_across_jieba_words_that_no_evidence_holds_do_not_count_against_a_chinese_list():
    # "用这个学位论文模板插入表格时要用到哪些命令" yields "文模", "板插", "入表" …: with them the right list's
    # coverage was 0.21, under the bar; they are noise, as no passage holds them.
    question = "用这个学位论文模板插入表格时要用到哪些命令？"
    assert {"文模", "板插"} <= classify(question).joins
    evidence = _evidence(
        "第三章表格引用\n\n1）table 为插入表格提示符；\n\n2）bicaption 为表格标题提示符；\n\n"
        "3）hline 为表格行添加的横线。"
    )
    answer = _answer(question, evidence)
    assert "bicaption" in answer and "hline" in answer


def test_a_how_question_is_answered_by_the_numbered_steps_for_it():
    question = "怎样用 JabRef 新建文献库？"
    evidence = _evidence(
        "JabRef 是一个文献管理软件，可以在官网下载。\n\n4.2 JabRef 新建文献库的方法\n\n"
        "1）文件——新建库——ctrl+s 保存，选择一个文件夹；\n\n2）添加参考文献：新建一个 article；\n\n"
        "3）最后将 BibTex 源代码粘贴到 reference 里面。"
    )
    answer = _answer(question, evidence)
    assert "新建库" in answer and "article" in answer and "BibTex" in answer
    # Without counted steps, a how-question is answered by its sentences as before.
    plain = _evidence("JabRef 新建文献库时，先在文件菜单中选择新建库，再保存到一个文件夹中。")
    assert "新建库" in _answer(question, plain)
