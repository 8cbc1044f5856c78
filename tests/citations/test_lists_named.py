"""Lists of the kinds software documentation writes (issue 15, docs-dev): bulleted names over their own paragraphs
("- **Monitoring**" then what it does), one of many same-named lists told apart by the section the question names
("Bugfixes" under every release of a change log), and a list that answers a question that did not ask for one
when no single sentence can ("What does attrs give you?"). The texts are written for these tests."""

from __future__ import annotations

import pytest

from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.language import detect
from apps.citations.answers.list_answer import best_list, written_list
from apps.citations.answers.list_sections import outline_list
from apps.citations.answers.lists import find_lists
from apps.citations.answers.question import classify
from apps.citations.answers.types import ComposeRequest, Evidence
from tests.citations.hit_factory import make_hit

FEATURES = "\n\n".join(
    [
        "Features",
        "- **Tracing**",
        "Every request is followed from the gateway to the database and back, with the time spent in each hop.",
        "See the tracing guide for more.",
        "- **Retries**",
        "Failed calls are tried again with a growing pause, up to a limit you choose per route.",
        "- **Quotas**",
        "Each team gets a share of the cluster, enforced when jobs are queued.",
    ]
)


def _evidence(*chunks: tuple[str, list[str], int]) -> list[Evidence]:
    """(text, heading path, chunk index) of one document, numbered 1..k."""
    return [
        Evidence(i + 1, make_hit(text=text, heading_path=path, section=path[-1], chunk_index=index, chunk_id=50 + i))
        for i, (text, path, index) in enumerate(chunks)
    ]


def test_bulleted_names_over_their_paragraphs_are_one_list_each_name_with_its_first_sentence():
    (block,) = find_lists(_evidence((FEATURES, ["Guide", "Features"], 3)))
    assert [text for _, text in block.items] == [
        "- **Tracing** Every request is followed from the gateway to the database and back, with the time spent in "
        "each hop.",
        "- **Retries** Failed calls are tried again with a growing pause, up to a limit you choose per route.",
        "- **Quotas** Each team gets a share of the cluster, enforced when jobs are queued.",
    ]
    # An item that is no name ends a list of names (a nested list the reader flattened starts there).
    text = FEATURES + "\n\n- **Brokers**\n\n- RabbitMQ, Redis,\n\n- Amazon SQS, and more."
    (names, nested) = find_lists(_evidence((text, ["Guide", "Features"], 3)))
    assert [t.split("**")[1] for _, t in names.items] == ["Tracing", "Retries", "Quotas", "Brokers"]
    assert [t for _, t in nested.items] == ["- RabbitMQ, Redis,", "- Amazon SQS, and more."]
    # Short items one after another, then a paragraph: the list ended; the bullets after it are another list.
    text = "- apples\n\n- pears\n\nFruit keeps longer in a cool room.\n\n- dogs\n\n- cats"
    assert [[t for _, t in b.items] for b in find_lists(_evidence((text, ["Notes"], 3)))] == [
        ["- apples", "- pears"],
        ["- dogs", "- cats"],
    ]
    # Names over paragraphs go on only with another name, not with a sentence item after a paragraph.
    text = "- **Fast**\n\nIt is quick.\n\nOlder releases need this:\n\n- Python 2.7: release 4.4 or earlier."
    (block,) = find_lists(_evidence((text, ["Notes"], 3)))
    assert block.lead == "Older releases need this:" and [t for _, t in block.items] == [
        "- Python 2.7: release 4.4 or earlier."
    ]
    # Numbered names over paragraphs are headings with their sections, not a list.
    assert find_lists(_evidence(("I. INTRODUCTION\n\nText one.\n\nII. RELATED WORK\n\nText two.", ["R"], 3))) == []


CHANGES = [
    (
        "2.5.0 (2024-06-01)\n\nBugfixes\n\n• Fixed a crash when the cache directory is missing.\n\n"
        "• Fixed a leak of file handles on retry.",
        ["Release History", "2.5.0 (2024-06-01)"],
        1,
    ),
    (
        "2.4.1 (2024-05-02)\n\nBugfixes\n\n• Fixed a bug where proxies were ignored for redirected requests.\n\n"
        "• Fixed a bug where timeouts were not applied to streamed bodies.",
        ["Release History", "2.4.1 (2024-05-02)"],
        4,
    ),
    (
        "2.3.0 (2024-03-10)\n\nBugfixes\n\n• Fixed several bugs where request headers were sent twice.\n\n"
        "• Fixed requests hanging when the request body was empty.",
        ["Release History", "2.3.0 (2024-03-10)"],
        9,
    ),
]


def test_of_lists_named_alike_the_one_under_the_section_the_question_names_answers():
    evidence = _evidence(*CHANGES)
    for version, first in [("2.4.1", "proxies"), ("2.5.0", "cache directory"), ("2.3.0", "headers")]:
        question = classify(f"Which bugs were fixed in the {version} release of the request library?")
        best = best_list(question, evidence, 0.3, 0.5)
        assert best is not None and first in best.items[0][1], version
    # The headings of every section a chunk is in name its lists, the release as well as "Bugfixes".
    assert all(b.sections.startswith("Release History 2.") for b in find_lists(evidence))


def _compose(question: str, evidence: list[Evidence]) -> str:
    composer = ExtractiveComposer(use_embeddings=False)
    return "".join(
        p for p in composer.stream(ComposeRequest(question, evidence, language=detect(question))) if isinstance(p, str)
    )


TIDY = "\n\n".join(
    [
        "Example",
        "After *declaring* your fields, *tidy* gives you:",
        "- a readable summary of the record's fields,",
        "- comparison methods,",
        "- an initializer,",
        "*without* writing the same code again and again.",
    ]
)


def test_a_question_that_does_not_ask_for_a_list_gets_the_list_named_as_asked_when_no_sentence_answers():
    # "according to its README" names what no passage holds: no sentence passes the gate, the list's lead-in does.
    question = "After you declare your fields, what does tidy give you, according to its README?"
    assert classify(question).kind != "list"
    answer = _compose(question, _evidence((TIDY, ["Example"], 2)))
    assert answer.splitlines()[0].startswith("After *declaring* your fields, *tidy* gives you:")
    assert "- comparison methods, [1]" in answer and "- an initializer, [1]" in answer
    # A factoid still needs its item in one sentence: a list does not answer "how many".
    assert "comparison methods" not in _compose("How many fields does tidy give you?", _evidence((TIDY, ["E"], 2)))


def test_a_written_list_of_names_keeps_each_name_with_what_it_does():
    (block,) = find_lists(_evidence((FEATURES, ["Guide", "Features"], 3)))
    lines = written_list(block).splitlines()
    assert (
        lines[1]
        == "- **Retries** Failed calls are tried again with a growing pause, up to a limit you choose per route [1]."
    )


# --- a section whose subsections are the list ---------------------------------------------------------------------

GUIDE = [
    ("Tool guide\n\nTool reads text and writes it back in other forms.", ["Tool guide"], 0),
    (
        "命令行\n\n中文分词\n\n使用命令`tool segment`进入交互分词模式，输入一个句子并回车。",
        ["Tool guide", "命令行", "中文分词"],
        1,
    ),
    (
        "升级\n\n通过`tool update`命令来将模型升级到最新版。该命令会获取最新的发布包。",
        ["Tool guide", "命令行", "升级"],
        2,
    ),
    ("安装\n\n通过 pip 安装本工具。", ["Tool guide", "安装"], 3),
]


def test_the_subsections_of_the_section_a_question_names_are_its_list_each_with_its_first_sentence():
    evidence = _evidence(*GUIDE)
    block = outline_list("Tool 的命令行部分介绍了哪些子命令？", evidence)
    assert block is not None and block.heading == "命令行"
    assert block.items == [
        (2, "中文分词 使用命令`tool segment`进入交互分词模式，输入一个句子并回车。"),
        (3, "升级 通过`tool update`命令来将模型升级到最新版。"),
    ]
    # The document's title is named by any question about the document: its sections are no list.
    assert outline_list("Which parts does the Tool guide have?", evidence) is None
    # A section with one subsection in the evidence, or a question that names none, gives no list.
    assert outline_list("Tool 的命令行部分介绍了哪些子命令？", evidence[:2]) is None
    assert outline_list("Tool 支持哪些语言？", evidence) is None
    # A chunk that does not open its subsection (the heading is not a line of it) gives no item.
    inside = _evidence(GUIDE[1], ("该命令会获取最新的发布包。", ["Tool guide", "命令行", "升级"], 2))
    assert outline_list("Tool 的命令行部分介绍了哪些子命令？", inside) is None


GUIDE_MD = "\n\n".join(
    [
        "# Tool guide",
        "Tool reads text and writes it back in other forms. " * 8,
        "## 命令行",
        "### 中文分词",
        "使用命令`tool segment`进入交互分词模式，输入一个句子并回车，工具会输出分词结果。" * 3,
        "### 依存句法分析",
        "命令为`tool parse`，同样支持交互模式和重定向，输出每个词的中心词和依存关系。" * 3,
        "### 升级",
        "通过`tool update`命令来将模型升级到最新版，该命令会获取最新的发布包并替换旧的模型文件。" * 3,
        "## 安装",
        "通过 pip 安装本工具，安装后即可在命令行中使用。" * 3,
    ]
)


@pytest.mark.django_db(transaction=True)
def test_a_list_question_naming_a_section_gets_its_subsections_fetched_and_cited(
    collection, personas, embedder, monkeypatch
):
    from apps.citations.answers import service
    from apps.citations.answers.list_sections import subsections
    from apps.documents.models import Chunk
    from apps.documents.services.bulk import TextItem, add_texts
    from apps.retrieval.search.service import search

    (document,) = add_texts(collection, [TextItem("tool.md", "Tool guide", GUIDE_MD)], embedder)
    chunks = {c.heading_path[-1]: c for c in Chunk.objects.filter(document=document)}
    assert {"中文分词", "依存句法分析", "升级"} <= set(chunks)
    # Retrieval returns only the first command's chunk: the other two are fetched as the section's subsections.
    kept = {chunks["中文分词"].pk}

    def search_one(user, params):
        response = search(user, params)
        response.hits = [h for h in response.hits if h.chunk_id in kept]
        return response

    monkeypatch.setattr(service, "search", search_one)
    question = "Tool 的命令行部分介绍了哪些子命令？"
    result = service.ask(personas["viewer"], service.AskParams(question, collection="lab"))
    number_of = {c["chunk_id"]: c["n"] for c in result["citations"]}
    for heading, command in [("中文分词", "tool segment"), ("依存句法分析", "tool parse"), ("升级", "tool update")]:
        line = next((line for line in result["answer"].split("\n") if command in line), "")
        assert line.startswith(f"- {heading} "), result["answer"]
        assert f"[{number_of[chunks[heading].pk]}]" in line
    # Only for someone who may read the collection.
    evidence = [Evidence(1, h) for h in search(personas["viewer"], service.SearchParams(question, ("lab",))).hits]
    evidence = [e for e in evidence if e.hit.chunk_id in kept]
    assert {h.chunk_id for h in subsections(evidence, personas["viewer"], question)} == {
        chunks["依存句法分析"].pk,
        chunks["升级"].pk,
    }
    assert subsections(evidence, personas["outsider"], question) == []


def test_an_item_the_support_check_reads_as_two_sentences_is_cited_in_both():
    from apps.citations.answers import support

    serve = "服务器\n\n通过`tool serve`来启动服务器，默认地址为：http://localhost:8765 ；也可以访问演示页面。"
    evidence = _evidence(GUIDE[1], (serve, ["Tool guide", "命令行", "服务器"], 2))
    answer = written_list(outline_list("Tool 的命令行部分介绍了哪些子命令？", evidence))
    checks, _ = support.check(answer, {e.number: e.hit.text for e in evidence})
    # "；" ends a claim for the support check: each piece carries its marker and holds up (none dropped, strict).
    assert len(checks) == 3 and all(c.citations and c.supported for c in checks), answer
    assert "tool serve" in support.claim_of(checks[1].text)


def test_a_list_in_the_section_the_question_names_is_named_by_every_heading_above_it():
    features = (FEATURES, ["Introduction to Tool", "Features"], 9)
    other = (
        "Tool is…\n\n- **Simple**\n\nIt is easy to use.\n\n- **Fast**\n\nIt is quick.",
        ["Introduction to Tool", "Tool is…"],
        7,
    )
    evidence = _evidence(other, features)
    question = classify("What features does the Features section of the Introduction to Tool list?")
    best = best_list(question, evidence, 0.3, 0.5)
    assert best is not None and best.items[0][1].startswith("- **Tracing**")
    # The headings above a list count only when the question names its own section.
    question = classify("Which qualities does the Introduction to Tool name?")
    assert best_list(question, _evidence(features), 0.5, 0.5) is None


LEAF_MD = "\n\n".join(
    [
        "# Tool guide",
        "Tool reads text and writes it back in other forms. " * 8,
        "## Features",
        "- **Tracing** follows every request from the gateway to the database and back.",
        "- **Retries** try failed calls again with a growing pause.",
        "- **Quotas** give each team a share of the cluster.",
        "## Installation",
        "Install the tool with pip, then run it from the command line. " * 4,
    ]
)


@pytest.mark.django_db(transaction=True)
def test_the_first_chunks_of_a_named_section_without_subsections_are_fetched(collection, personas, embedder):
    from apps.citations.answers.list_sections import subsections
    from apps.documents.models import Chunk
    from apps.documents.services.bulk import TextItem, add_texts
    from apps.retrieval.search.hits import make_hit as hit_of_chunk
    from apps.retrieval.search.service import Ranked

    (document,) = add_texts(collection, [TextItem("leaf.md", "Tool guide", LEAF_MD)], embedder)
    chunks = {
        c.heading_path[-1]: c for c in Chunk.objects.filter(document=document).select_related("document__collection")
    }
    install = chunks["Installation"]
    evidence = [Evidence(1, hit_of_chunk(install, Ranked(install.pk, 1.0, "fusion"), "", {}, 300))]
    question = "Which features does the Features section of the Tool guide list?"
    (hit,) = subsections(evidence, personas["viewer"], question)
    assert hit.chunk_id == chunks["Features"].pk
    (block,) = [b for b in find_lists([*evidence, Evidence(2, hit)]) if b.number == 2]
    assert [t.split("**")[1] for _, t in block.items] == ["Tracing", "Retries", "Quotas"]
    assert subsections(evidence, personas["outsider"], question) == []
    # A question that names no section fetches nothing.
    assert subsections(evidence, personas["viewer"], "Which teams use the tool?") == []


def test_the_subsections_of_the_named_section_answer_before_a_list_found_elsewhere():
    flow = (
        "Data flow\n\nThe data flow goes like this:\n\n1. The engine hands the requests to the scheduler component."
        "\n\n2. The scheduler component returns the next requests to the engine.",
        ["Architecture", "Data flow"],
        1,
    )
    engine = (
        "Components\n\nEngine\n\nThe engine controls the data flow between all components.",
        ["Architecture", "Components", "Engine"],
        5,
    )
    scheduler = (
        "Scheduler\n\nThe scheduler receives requests from the engine.",
        ["Architecture", "Components", "Scheduler"],
        6,
    )
    question = "Which components does the architecture overview describe?"
    answer = _compose(question, _evidence(flow, engine, scheduler))
    assert answer.splitlines()[0].startswith("- Engine The engine controls") and "1. The engine hands" not in answer
    # A list inside the named section itself answers as it is.
    inside = (
        "Components\n\nThe components are:\n\n• the engine;\n\n• the scheduler.",
        ["Architecture", "Components"],
        4,
    )
    answer = _compose(question, _evidence(inside, engine, scheduler))
    assert answer.splitlines()[0] == "The components are: [1]"


def test_a_list_answers_an_unasked_question_only_by_a_lead_in_that_names_it_and_never_a_statement():
    # A statement to check is not answered by a list that shares its words.
    question = "After you declare your fields, what does tidy give you, according to its README?"
    assert "comparison methods" in _compose(question, _evidence((TIDY, ["Example"], 2)))
    claim = "After you declare your fields, tidy gives you its methods, according to its README."
    assert "comparison methods" not in _compose(claim, _evidence((TIDY, ["Example"], 2)))
    # Clauses after a colon under a passage's title that names the question: the title is no lead-in.
    fish = (
        "美洲似银汉鱼\n\n美洲似银汉鱼（学名：）为辐鳍鱼纲银汉鱼目的一种。本鱼体呈长梭型：吻尖突；齿小而尖；尾鳍深开叉。"
    )
    answer = _compose("美洲似银汉鱼的寿命有多长？", _evidence((fish, ["美洲似银汉鱼"], 0)))
    assert "吻尖突" not in answer and "- " not in answer


TABLE = "\n".join(
    [
        "det_model_name | PyTorch | 模型原始来源 | 模型文件大小",
        "db_shufflenet_v2 | √ | cnocr | 18 M",
        "db_resnet18 | √ | cnocr | 47 M",
        "ch_PP-OCRv5_det | X | ppocr | 4.6 M",
    ]
)


def test_a_table_the_question_names_is_listed_row_by_row_filtered_by_the_cell_it_names():
    hit = make_hit(
        text=TABLE, chunk_type="table", heading_path=["CnOCR", "可使用的检测模型"], section="可使用的检测模型"
    )
    evidence = [Evidence(1, hit)]
    answer = _compose("在 CnOCR 的“可使用的检测模型”表中，模型原始来源是 cnocr 的检测模型有哪些？", evidence)
    assert answer.splitlines() == [
        "- db_shufflenet_v2 | √ | cnocr | 18 M [1]",
        "- db_resnet18 | √ | cnocr | 47 M [1]",
    ]
    # Without a cell value named, every row; a question that names no table is not answered from one this way.
    answer = _compose("Which models are in the 可使用的检测模型 table?", evidence)
    assert len(answer.splitlines()) == 3 and "ch_PP-OCRv5_det" in answer
    assert "db_resnet18 |" not in _compose("CnOCR 的检测模型有哪些？", evidence)
