"""Lists in answers (issue 15): the items after a lead-in or a numbered/lettered/bulleted run, each cited with the
evidence number of its own chunk, items joined across chunks, and the chunks a list runs into fetched even when
retrieval did not return them."""

from __future__ import annotations

import re

import pytest

from apps.citations.answers.list_answer import written_list
from apps.citations.answers.lists import ListBlock, continuations, find_lists, is_lead_in
from apps.citations.answers.service import AskParams, ask
from apps.citations.answers.types import Evidence
from apps.documents.models import Chunk, DocumentStatus
from apps.documents.services.bulk import TextItem, add_texts
from apps.retrieval.search.hits import make_hit as hit_of_chunk
from apps.retrieval.search.service import Ranked, search
from tests.citations.hit_factory import make_hit
from tests.citations.papers import PAPERS

MDRPM_EN = "\n\n".join(
    [
        "# The MDRPM runoff model",
        (
            "The Multi-Day Runoff Prediction Model (MDRPM) estimates how much of a storm's rain leaves a small "
            "catchment as streamflow over the following days. It was built for upland basins of less than fifty "
            "square kilometres, where gauges are sparse and the hydrologist must rely on rainfall records and a "
            "map of soils. The model splits each day into a wet and a dry period, routes the rain through a soil "
            "store and a channel store, and reports the daily flow at the outlet together with a band of "
            "uncertainty. Field teams use it to plan culverts, to warn villages downstream and to judge whether a"
            " flood of record is likely in the coming season. Its parameters are few, so a catchment can be "
            "calibrated from one wet year of records, and the same parameters are then reused for neighbouring "
            "basins of similar geology. The MDRPM is based upon the following assumptions:"
        ),
        (
            "1. Rain falls evenly over the whole catchment during each wet period, so that one gauge can stand "
            "for the basin and no storm cell is tracked across it from hour to hour."
        ),
        (
            "2. The soil store empties at a rate proportional to its content, which makes the recession of every "
            "hydrograph exponential once the rain has stopped falling on the slopes."
        ),
        (
            "3. Evaporation during a wet period is negligible compared with the rain, and during a dry period it "
            "takes water only from the soil store and never from the channel."
        ),
        (
            "4. The channel store passes water downstream without losses to groundwater, so that every drop "
            "routed into the channel reaches the outlet within the same or the next day."
        ),
        (
            "5. Land use does not change during the simulated period, so the parameters calibrated for one wet "
            "year remain valid for every later year in the same basin."
        ),
    ]
)

SECURITY_ZH = "\n\n".join(
    [
        "# 信息系统安全保护要求",
        (
            "本标准规定了信息系统在规划、建设、运行和废止各阶段应当满足的基本安全保护要求，适用于党政机关、企事业"
            "单位自建或者委托建设的各类信息系统。运营使用单位应当依据本标准开展定级、建设整改和等级测评工作，主管"
            "部门依据本标准进行监督检查。为了便于理解和实施，本标准按照技术和管理两个方面组织安全控制措施，并对每"
            "一项措施给出了明确的测评方法和判定准则。各级信息系统的运营使用单位应当每年至少开展一次自查，发现问题"
            "及时整改，并将整改情况报送主管部门备案。第三级以上的信息系统还应当定期委托具有资质的测评机构进行等级"
            "测评，测评结论作为系统能否继续运行的重要依据。对于承载重要业务或者大量个人信息的系统，运营使用单位应"
            "当建立专门的安全管理队伍，明确安全负责人，落实安全责任制，并为安全工作提供必要的经费和人员保障。在系"
            "统发生重大变更，例如迁移到新的机房、接入新的网络或者上线新的业务功能时，运营使用单位应当重新评估系统"
            "的安全保护等级，必要时重新定级并办理备案变更手续。主管部门可以根据工作需要，对运营使用单位的安全保护"
            "工作进行抽查，对发现的问题提出整改意见，并跟踪整改结果。信息系统的安全保护能力包括以下14个安全要素"
            "："
        ),
        "a) 物理安全，指机房选址、防盗窃和防破坏、防雷击、防火、防水和防潮等要求；",
        "b) 网络安全，指结构安全、访问控制、安全审计、边界完整性检查和入侵防范等要求；",
        "c) 主机安全，指身份鉴别、访问控制、安全审计、剩余信息保护和恶意代码防范等要求；",
        "d) 应用安全，指应用系统的身份鉴别、访问控制、通信完整性和软件容错等要求；",
        "e) 数据安全，指数据完整性、数据保密性以及备份和恢复等要求；",
        "f) 安全管理制度，指管理制度的制定、发布、评审和修订等要求；",
        "g) 安全管理机构，指岗位设置、人员配备、授权和审批以及沟通和合作等要求；",
        "h) 人员安全管理，指人员录用、人员离岗、人员考核和安全意识教育等要求；",
        "i) 系统建设管理，指系统定级、安全方案设计、产品采购和自行软件开发等要求；",
        "j) 系统运维管理，指环境管理、资产管理、介质管理和设备维护管理等要求；",
        "k) 密码管理，指密码算法、密钥生成、密钥分发和密钥销毁等要求；",
        "l) 应急响应管理，指应急预案的制定、演练、启动和总结等要求；",
        "m) 安全监测，指对网络流量、系统日志和安全事件进行持续监测的要求；",
        "n) 供应链安全，指对供应商的选择、评估和持续监督等要求。",
    ]
)

ZH_ITEMS = re.findall(r"^[a-n]\) .*$", SECURITY_ZH, re.M)
EN_ITEMS = re.findall(r"^\d\. .*$", MDRPM_EN, re.M)


def _evidence(*texts: str, document: int = 9, first_index: int = 2) -> list[Evidence]:
    """Evidence of consecutive chunks of one document, numbered 1..k."""
    return [
        Evidence(i + 1, make_hit(text=text, document_id=document, chunk_index=first_index + i, chunk_id=100 + i))
        for i, text in enumerate(texts)
    ]


# --- find_lists: what a list is ---------------------------------------------------------------------------------


def test_an_english_lead_in_with_numbered_items_is_a_list_each_item_verbatim():
    text = (
        "The model is small. The MDRPM is based upon the following assumptions:\n\n"
        "1. Rain falls evenly over the catchment.\n\n2. The soil store empties exponentially.\n\n"
        "It is calibrated yearly."
    )
    assert find_lists(_evidence(text)) == [
        ListBlock(
            1,
            "The MDRPM is based upon the following assumptions:",
            [(1, "1. Rain falls evenly over the catchment."), (1, "2. The soil store empties exponentially.")],
        )
    ]


def test_chinese_lettered_items_after_a_numbered_lead_in_each_line_or_inside_one_line():
    lines = [f"{chr(ord('a') + i)}) 第{i + 1}个要素；" for i in range(14)]
    on_lines = "信息系统的安全保护能力包括以下14个安全要素：\n\n" + "\n\n".join(lines)
    (block,) = find_lists(_evidence(on_lines))
    assert block.lead == "信息系统的安全保护能力包括以下14个安全要素："
    assert [text for _, text in block.items] == lines  # a) … n), all fourteen
    in_one_line = "本标准适用于各类系统。安全保护能力包括以下3个安全要素：a) 物理安全；b) 网络安全；c) 主机安全。"
    (block,) = find_lists(_evidence(in_one_line))
    assert block.lead == "安全保护能力包括以下3个安全要素："
    assert block.items == [(1, "a) 物理安全；"), (1, "b) 网络安全；"), (1, "c) 主机安全。")]
    for _, item in block.items:
        assert item in in_one_line


def test_bullets_and_other_enumerators_make_lists():
    bullets = "General HPC systems face the following:\n\n• Physical threats to facilities.\n\n• Supply chain threats."
    (block,) = find_lists(_evidence(bullets))
    assert [t for _, t in block.items] == ["• Physical threats to facilities.", "• Supply chain threats."]
    zh = "主要内容如下：\n\n一、总则\n\n二、适用范围\n\n（一）适用的系统\n\n（二）不适用的系统\n\n① 第一款\n\n② 第二款"
    (block,) = find_lists(_evidence(zh))
    assert len(block.items) == 6 and block.items[2] == (1, "（一）适用的系统")
    dashes = "The parser keeps:\n\n- headings\n\n- tables\n\nNothing else is kept."
    assert [t for _, t in find_lists(_evidence(dashes))[0].items] == ["- headings", "- tables"]


def test_a_numbered_run_without_a_lead_in_is_a_list_but_a_single_item_or_figure_panels_are_not():
    (block,) = find_lists(_evidence("Steps.\n\n1) Open the valve.\n\n2) Read the gauge.\n\n3) Close the valve."))
    assert block.lead == "" and [t for _, t in block.items] == [
        "1) Open the valve.",
        "2) Read the gauge.",
        "3) Close the valve.",
    ]
    assert find_lists(_evidence("Intro.\n\n1. Introduction\n\nThe text goes on.")) == []
    # Sub-figure labels out of order are no list: counters must count up.
    assert find_lists(_evidence("(c) Factor graph\n\n(b) Unrolled through time\n\n(a) Spatio-temporal graph")) == []


def test_items_go_on_in_the_next_chunk_of_the_same_document_with_that_chunk_s_number():
    first = "The MDRPM is based upon the following assumptions:\n\n1. Rain falls evenly.\n\n2. The soil store empties."
    second = "3. Evaporation is negligible.\n\n4. Land use does not change.\n\n5 Calibration"
    (block,) = find_lists(_evidence(first, second))
    assert block.number == 1
    assert block.items == [
        (1, "1. Rain falls evenly."),
        (1, "2. The soil store empties."),
        (2, "3. Evaporation is negligible."),
        (2, "4. Land use does not change."),
    ]
    # Not the next chunk (a gap), or another document: the second chunk's items do not belong to the first list.
    gap = [Evidence(1, make_hit(text=first, chunk_index=2)), Evidence(2, make_hit(text=second, chunk_index=4))]
    other = [Evidence(1, make_hit(text=first, document_id=1)), Evidence(2, make_hit(text=second, document_id=2))]
    for evidence in (gap, other):
        lists = find_lists(evidence)
        assert [n for n, _ in lists[0].items] == [1, 1]
        assert all(b.lead == "" for b in lists[1:])


def test_a_numbered_heading_opening_the_next_chunk_does_not_join_a_bullet_list():
    first = "Other threats:\n\n• Supply chain threats.\n\n• Insider threats."
    second = "4. HPC Security Posture\n\nAccess control regulates who can use resources."
    (block,) = find_lists(_evidence(first, second))
    assert [n for n, _ in block.items] == [1, 1]


def test_items_with_bodies_and_enumerations_inside_prose():
    faq = "常见问题\n\n1). 如何删除版本信息？\n\n导言区不写版本命令即可。\n\n2). 如何删除日期？\n\n注释日期命令。"
    assert [t for _, t in find_lists(_evidence(faq))[0].items] == ["1). 如何删除版本信息？", "2). 如何删除日期？"]
    labels = "Differences are:\n\n• Domain:\n\nA balanced corpus.\n\n• Vocab:\n\nA new vocabulary."
    assert [t for _, t in find_lists(_evidence(labels))[0].items] == ["• Domain:", "• Vocab:"]
    # Numbered headings, each with its section, are no list: they announce no body.
    assert find_lists(_evidence("I. INTRODUCTION\n\nText one.\n\nII. RELATED WORK\n\nText two.")) == []
    prose = (
        "Prior to running GROBID, we filter out PDFs that (i) fail to parse, (ii) have over 50 pages, "
        "and (iii) are slides."
    )
    (block,) = find_lists(_evidence(prose))
    assert block.lead == "Prior to running GROBID, we filter out PDFs that"
    assert [t for _, t in block.items] == ["(i) fail to parse,", "(ii) have over 50 pages, and", "(iii) are slides."]


def test_a_sentence_that_merely_contains_following_is_not_a_lead_in():
    assert not is_lead_in("The following year, the company grew.")
    assert not is_lead_in("Following the storm, the river rose by two metres.")
    assert not is_lead_in("以下是本公司的简介，请阅读后签字确认，并于三日内交回人事部门存档备查。")
    assert is_lead_in("The MDRPM is based upon the following assumptions.")
    assert is_lead_in("Virtualized HPC architectures typically contain the following components [63]:")
    assert is_lead_in("分析结果如下。")
    text = "The following year, the company grew.\n\n1. Sales rose.\n\nProfits fell."
    assert find_lists(_evidence(text)) == []


def test_a_letter_that_closes_a_parenthesis_is_no_counter():
    # "(Grade A) … (category of evidence, 2a; grade of recommendation, B)" read as items "A)" and "B)" had made a
    # list out of two recommendations, which then answered a question about contraindications.
    text = (
        "PEG-based regimens are first-line recommendation (Grade A) [3]. Purgatives are recommended "
        "(category of evidence, 2a; grade of recommendation, B) [1]."
    )
    assert find_lists(_evidence(text)) == []
    # A counter with its own opening bracket, or after a closed one, still counts.
    (block,) = find_lists(_evidence("The filter (see above) drops PDFs that (a) fail, (b) are long, (c) are slides."))
    assert [t for _, t in block.items] == ["(a) fail,", "(b) are long,", "(c) are slides."]
    (block,) = find_lists(_evidence("Two rules (both old): a) one; b) two; c) three."))
    assert [t for _, t in block.items] == ["a) one;", "b) two;", "c) three."]


def test_clauses_after_a_colon_separated_by_semicolons_are_items():
    text = (
        "Sex was determined by inspection. The following measurements were made using digital calipers: "
        "snout-vent length (SVL) – from cloaca to tip of snout; head width (HW) – widest distance; "
        "head length (HL) – to tip of snout; hand length (HA) – from"
    )
    (block,) = find_lists(_evidence(text))
    assert block.lead == "The following measurements were made using digital calipers:"
    # The last clause, cut off where the chunk ends, is no item.
    assert [t for _, t in block.items] == [
        "snout-vent length (SVL) – from cloaca to tip of snout;",
        "head width (HW) – widest distance;",
        "head length (HL) – to tip of snout;",
    ]
    (block,) = find_lists(_evidence("安全保护能力包括：物理安全；网络安全；主机安全。"))
    assert [t for _, t in block.items] == ["物理安全；", "网络安全；", "主机安全。"]
    # Two clauses are a sentence with a semicolon, not a list.
    assert find_lists(_evidence("Results: the yield rose; the cost fell.")) == []


def test_labelled_counters_with_their_text_on_the_next_line_and_the_lines_that_name_the_list():
    # GB/T 7714's examples as a PDF gives them: "示例1:" on a line, its text on the next; the list has no
    # lead-in, but the lines before it name it.
    first = (
        "个人著者\n\n作者姓名示例\n\n示例1:\n\n李时珍\n\n示例2:\n\n乔纳斯\n\n"
        "多位著者\n\n8.1.2\n\n作者姓名示例\n\n示例1:\n\n钱学森, 刘再复\n\n示例2:"
    )
    second = "李四光, 华罗庚, 茅以升\n\n缺省著者"
    personal, several = find_lists(_evidence(first, second))
    assert personal.items == [(1, "示例1: 李时珍"), (1, "示例2: 乔纳斯")]
    assert "个人著者" in personal.context
    # The text of "示例2:" is in the next chunk: the item is that text, cited there.
    assert several.items == [(1, "示例1: 钱学森, 刘再复"), (2, "李四光, 华罗庚, 茅以升")]
    assert several.context == "多位著者 8.1.2 作者姓名示例"
    # Without the next chunk, "示例2:" has no text: the written list leaves the bare label out.
    (_, alone) = find_lists(_evidence(first))
    assert written_list(alone) == "- 示例1: 钱学森, 刘再复 [1]"
    steps = "Installation\n\nStep 1: Download the archive.\n\nStep 2: Unpack it.\n\nStep 3: Run setup."
    (block,) = find_lists(_evidence(steps))
    assert [t for _, t in block.items] == ["Step 1: Download the archive.", "Step 2: Unpack it.", "Step 3: Run setup."]
    # A word with a number in running text is no counter ("Phase 2 trials").
    assert find_lists(_evidence("Phase 2 trials began.\n\nPhase 3 trials followed.")) == []


def test_a_copyright_sign_opens_no_item_and_a_keyword_line_does_not_name_a_list():
    # A paper's first page: the correspondence footnote and "© 2014 …" had read as a bulleted run of two, named
    # by the keyword line above it, and answered "Which five domains were proposed …?".
    text = (
        "Keywords: Non-specific low back pain, Core outcome set, Domains\n\n"
        "* Correspondence: a.author@vu.nl\n\n© 2014 Chiarotto et al.; licensee BioMed Central."
    )
    assert find_lists(_evidence(text)) == []
    (block,) = find_lists(_evidence("Keywords: pain, domains, outcome sets\n\n• One item.\n\n• Another item."))
    assert block.context == ""


def test_an_item_that_announces_a_list_in_the_next_chunk_is_its_lead_in():
    # A revtex paper: "a. Epistemic status …" is a run-in paragraph label read as item "a.", and its last sentence
    # announces the "(i) …" list, which starts the next chunk (where no sub-list is read under an item).
    first = "Several concepts are effective descriptors.\n\na. Epistemic status. We distinguish three levels:"
    second = "(i) quantities fixed by observables; (ii) phenomenological fields; and (iii) analogies. Each is tagged."
    (block,) = find_lists(_evidence(first, second))
    assert block.lead == "We distinguish three levels:"
    assert [t.split(";")[0] for _, t in block.items] == [
        "(i) quantities fixed by observables",
        "(ii) phenomenological fields",
        "(iii) analogies. Each is tagged.",
    ]
    # An item whose last sentence announces nothing does not lead the list after it.
    (block,) = find_lists(_evidence("a. Epistemic status. We tag each variable.", second))
    assert block.lead == ""


def test_pseudo_code_line_numbers_are_counted_items_named_by_the_caption_before_them():
    caption = (
        "The edge factors are shared across nodes of one class.\n\nAlgorithm 1 From spatio-temporal graph to S-RNN"
    )
    steps = (
        "Input G = (V, E) Output S-RNN graph 1: Semantically partition edges 2: Find factor components of G "
        "3: Represent each factor with a nodeRNN Return the graph"
    )
    (block,) = find_lists(_evidence(caption, steps))
    assert block.lead == ""  # "Input G … Output …" heads the steps; the steps do not finish its sentence
    assert [t for _, t in block.items] == [
        "1: Semantically partition edges",
        "2: Find factor components of G",
        "3: Represent each factor with a nodeRNN Return the graph",
    ]
    # Named by the caption at the end of the chunk before, and by the steps' own header.
    assert block.context == "Algorithm 1 From spatio-temporal graph to S-RNN Input G = (V, E) Output S-RNN graph"
    # One per line, as most PDFs print an algorithm.
    (block,) = find_lists(_evidence("1: Partition edges\n\n2: Find factors\n\n3: Represent factors"))
    assert len(block.items) == 3
    # A ratio or a time is no counter.
    assert find_lists(_evidence("Mix the buffer 1:2 with water, and wait until 10:30 before reading.")) == []


def test_the_sentence_before_a_list_without_a_lead_in_names_it():
    text = (
        "UNDERSTANDING YOUR CAT\n\nAbout cats.\n\nThe needs of cats have changed little from those of their wild "
        "ancestor, the African wildcat.\n\n• Cats are solitary hunters.\n\n• Cats are territorial animals."
    )
    (block,) = find_lists(_evidence(text))
    assert block.lead == "" and "the African wildcat." in block.context
    # Only the sentence right before the list: a paragraph further up, or one not ended, names nothing.
    assert "About cats." not in block.context
    text = "The needs of cats have changed little, as the wildcat\n\n• Cats are hunters.\n\n• Cats are territorial."
    (block,) = find_lists(_evidence(text))
    assert block.context == ""
    # Nor does it name numbered headings that do not start a count ("III." then "A."): a paragraph ends before them.
    text = "This points to a gap in the literature.\n\nIII. PROBLEM BACKGROUND\n\nA. Reinforcement Learning"
    assert [b.context for b in find_lists(_evidence(text))] == [""]


def test_a_label_is_no_lead_in_and_a_keyword_line_is_no_list():
    (block,) = find_lists(_evidence("注：\n\n1）运行latex 后显示pdf；\n\n2）按住ctrl 双击也可显示pdf。"))
    assert block.lead == "" and block.context == "注："
    assert not written_list(block).startswith("注")
    (block,) = find_lists(_evidence("This paper contributes:\n\n(1) A reading tool.\n\n(2) A lab study."))
    assert block.lead == "This paper contributes:"
    # The clause items after a colon are not read in a keyword line.
    assert find_lists(_evidence("Keywords: Afforestation; Flow duration curves; Flow reduction; Plantations")) == []
    # Nor are a figure's panels, named in its caption, a list.
    caption = "Figure 2: A nodule in the left lobe. (a) CT showed enhancement. (b) MRI showed a typical pattern."
    assert find_lists(_evidence(caption)) == []


def test_lists_are_read_the_same_by_many_threads_at_once():
    # The reader keeps a pysbd segmenter per thread (it holds the text it splits); shared, threads would cut one
    # another's lead-ins. Each thread reads its own lists, over and over, and must get what one thread alone does.
    from concurrent.futures import ThreadPoolExecutor

    texts = [
        "a. Epistemic status. We distinguish three levels:\n\n(i) observables; (ii) fields; and (iii) analogies.",
        "The MDRPM is based upon the following assumptions:\n\n1. Rain falls evenly.\n\n2. The store empties.",
        "安全保护能力包括以下3个安全要素：a) 物理安全；b) 网络安全；c) 主机安全。",
        "Input G Output S 1: Partition edges 2: Find factors 3: Represent factors",
        "The needs of cats are old ones, from the African wildcat.\n\n• Cats hunt alone.\n\n• Cats are territorial.",
    ]
    # Long paragraphs before each lead-in, so that the splitter's work on one thread overlaps another's.
    filler = [" ".join(f"Sentence {n} of text {k} says little." for n in range(40)) for k in range(len(texts))]
    texts = [f"{before} {t}" for before, t in zip(filler, texts, strict=True)]
    alone = [find_lists(_evidence(t, document=k)) for k, t in enumerate(texts)]
    assert all(len(found) == 1 and found[0].lead for found in alone[:3])

    def read(k: int) -> bool:
        return all(find_lists(_evidence(texts[k], document=k)) == alone[k] for _ in range(10))

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(read, [k % len(texts) for k in range(40)]))


# --- continuations: the chunks a list runs into, from the database ------------------------------------------------


@pytest.fixture
def list_library(collection, personas, embedder):
    docs = add_texts(
        collection,
        [TextItem(n, t, x) for n, t, x in PAPERS]
        + [TextItem("mdrpm.md", "MDRPM", MDRPM_EN), TextItem("security.md", "信息系统安全", SECURITY_ZH)],
        embedder,
    )
    return {d.original_name: d for d in docs}


def _chunks(document) -> list[Chunk]:
    return list(Chunk.objects.filter(document=document).select_related("document__collection").order_by("chunk_index"))


def _as_evidence(chunk: Chunk, number: int = 1) -> Evidence:
    return Evidence(number, hit_of_chunk(chunk, Ranked(chunk.pk, 1.0, "fusion"), "", {}, 300))


@pytest.mark.django_db(transaction=True)
def test_continuations_fetch_the_next_chunk_of_a_list_as_a_search_hit_for_readers_only(list_library, personas):
    lead_chunk, items_chunk = _chunks(list_library["mdrpm.md"])
    evidence = [_as_evidence(lead_chunk)]
    (hit,) = continuations(evidence, personas["viewer"], query="assumptions")
    assert (hit.chunk_id, hit.document_id, hit.chunk_index) == (items_chunk.pk, lead_chunk.document_id, 1)
    assert hit.text == items_chunk.text and hit.title == "MDRPM" and hit.viewer_url.endswith("?chunk=1")
    (block,) = find_lists([*evidence, Evidence(2, hit)])
    assert [text for _, text in block.items] == EN_ITEMS and {n for n, _ in block.items} == {2}
    # Someone who may not read the collection gets nothing; nor does anyone for a document not ready.
    assert continuations(evidence, personas["outsider"]) == []
    assert continuations(evidence, personas["viewer"], limit=0) == []
    # The next chunk already in the evidence is not fetched again; a chunk with no open list fetches nothing.
    assert continuations([*evidence, _as_evidence(items_chunk, 2)], personas["viewer"]) == []
    lion = _chunks(list_library["lions.txt"])[0]
    assert continuations([_as_evidence(lion)], personas["viewer"]) == []
    list_library["mdrpm.md"].status = DocumentStatus.PROCESSING
    list_library["mdrpm.md"].save(update_fields=["status"])
    assert continuations(evidence, personas["viewer"]) == []


# --- through the answer service -------------------------------------------------------------------------------


def _item_lines(answer: str, items: list[str]) -> dict[str, str]:
    """Each item's line in the answer (its enumerator and source markers aside)."""
    found = {}
    for item in items:
        body = item.split(" ", 1)[1].rstrip("。；.;")
        found[item] = next((line for line in answer.split("\n") if body in line), "")
    return found


def _retrieval_without(monkeypatch, chunks: list[Chunk]) -> None:
    """Retrieval that misses `chunks` (as it does in a large library, where the items' own words do not match the
    question): the answer service's search, with those hits taken out."""
    from apps.citations.answers import service

    missing = {c.pk for c in chunks}

    def search_missing(user, params):
        response = search(user, params)
        response.hits = [h for h in response.hits if h.chunk_id not in missing]
        return response

    monkeypatch.setattr(service, "search", search_missing)


@pytest.mark.django_db(transaction=True)
def test_a_list_question_and_its_follow_up_get_every_item_each_cited(list_library, personas, monkeypatch):
    _, items_chunk = _chunks(list_library["mdrpm.md"])
    _retrieval_without(monkeypatch, [items_chunk])
    first = ask(personas["viewer"], AskParams("What are the assumptions of the MDRPM?", collection="lab"))
    follow = ask(personas["viewer"], AskParams("What are they?", conversation=first["conversation"]))
    for result in (first, follow):
        assert result["answered"] is True
        number_of = {c["chunk_id"]: c["n"] for c in result["citations"]}
        assert items_chunk.pk in number_of  # fetched as the list's continuation
        for item, line in _item_lines(result["answer"], EN_ITEMS).items():
            assert line, f"{item!r} missing from {result['answer']!r}"
            assert f"[{number_of[items_chunk.pk]}]" in line  # each item cites the chunk it is in


@pytest.mark.django_db(transaction=True)
def test_a_chinese_list_question_and_its_follow_up_get_all_fourteen_items(list_library, personas, monkeypatch):
    first_chunk, second_chunk = _chunks(list_library["security.md"])
    _retrieval_without(monkeypatch, [second_chunk])
    assert "n) " in second_chunk.text and "a) " in first_chunk.text  # m) and n) are in the next chunk
    first = ask(
        personas["viewer"], AskParams("信息系统的安全保护能力包括哪些安全要素？", collection="lab", depth="quick")
    )
    follow = ask(personas["viewer"], AskParams("分别是什么？", conversation=first["conversation"], depth="quick"))
    for result in (first, follow):
        assert result["answered"] is True
        number_of = {c["chunk_id"]: c["n"] for c in result["citations"]}
        lines = _item_lines(result["answer"], ZH_ITEMS)
        assert all(lines.values()), result["answer"]
        for item, line in lines.items():
            chunk = first_chunk if item in first_chunk.text else second_chunk
            assert f"[{number_of[chunk.pk]}]" in line


@pytest.mark.django_db(transaction=True)
def test_a_question_that_asks_for_a_list_or_steps_is_answered_from_twice_the_passages(
    list_library, personas, monkeypatch
):
    from apps.citations.answers import service

    asked_for = []
    real = service.search
    monkeypatch.setattr(service, "search", lambda user, params: asked_for.append(params.top_k) or real(user, params))
    for question in ("What are the assumptions of the MDRPM?", "How is the MDRPM calibrated?", "When was it built?"):
        ask(personas["viewer"], AskParams(question, collection="lab", depth="quick"))
    quick = 3  # the quick preset's passages
    assert asked_for == [2 * quick, 2 * quick, None]
