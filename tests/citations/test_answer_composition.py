"""Composing an answer without a database: sentence splitting, the extractive composer, live cleaning of a stream,
the support check, strict mode, "cannot answer", conflicts and the chain block. The embedding model is left out
(embedder=None, use_embeddings=False) so these rules are tested on their own; the service tests use the model."""

from __future__ import annotations

import pytest

from apps.citations.answers import support
from apps.citations.answers.chain import chain_block
from apps.citations.answers.citation import from_hit
from apps.citations.answers.extractive import ExtractiveComposer
from apps.citations.answers.finalize import Draft, finish
from apps.citations.answers.language import detect
from apps.citations.answers.streaming import LiveCleaner
from apps.citations.answers.types import ComposeRequest, Conflict, Evidence
from apps.documents.parsing.passage_text import sentences, without_label
from tests.citations.hit_factory import make_hit

LIONS = (
    "Lions once ranged across Africa and Asia. The Asiatic lion survives only in the Gir forest of India. "
    "Its population grew to about 600 animals by 2017 [12]."
)
WHEAT = "Fusarium poae infects durum wheat kernels. Infected kernels released more volatile alcohols than healthy ones."
WHEAT_AGAINST = "Infected kernels did not release more volatile alcohols than healthy kernels in our field trial."


def _evidence(*texts: str, documents: tuple[int, ...] = ()) -> list[Evidence]:
    return [
        Evidence(i + 1, make_hit(chunk_id=100 + i, document_id=documents[i] if documents else 10 + i, text=t))
        for i, t in enumerate(texts)
    ]


def _compose(question: str, evidence: list[Evidence]) -> tuple[str, list[str]]:
    composer = ExtractiveComposer(use_embeddings=False)
    parts = list(composer.stream(ComposeRequest(question, evidence, language=detect(question))))
    text = "".join(p for p in parts if isinstance(p, str))
    return text, [p.text for p in parts if isinstance(p, Conflict)]


def test_sentences_are_not_split_after_abbreviations_or_decimals():
    text = "Smith et al. found 3.5 mg in F. poae cultures (Fig. 2). Next sentence here. 第一句。第二句！"
    assert sentences(text) == [
        "Smith et al. found 3.5 mg in F. poae cultures (Fig. 2).",
        "Next sentence here.",
        "第一句。",
        "第二句！",
    ]


UK_WARDS = (
    "Two pharmacists observed drug rounds by nurses on two wards in a U.K. hospital and recorded all MAEs "
    "identified. The observers intervened in cases of potentially harmful errors."
)


def test_an_answer_sentence_is_not_cut_at_a_stop_before_a_lower_case_word():
    """SciFact walk: "… in a U.K. | hospital and recorded all MAEs identified [1]." became a fragment claim, since
    the answer's splitter cut where the sources' own splitter does not."""
    answer = UK_WARDS.replace("identified.", "identified [1].")
    assert support.split_sentences(answer) == [
        answer.split(" The observers")[0],
        "The observers intervened in cases of potentially harmful errors.",
    ]
    # A stop that carried its marker still ends the sentence; "pH" and list items start one.
    assert len(support.split_sentences("Rounds were observed [1]. then nurses were asked [1].")) == 2
    assert len(support.split_sentences("The buffer was acidic. pH was 4.1 in all samples.")) == 2
    done = _finish(answer.split(" The observers")[0], _evidence(UK_WARDS))
    assert done.answer == answer.split(" The observers")[0] and done.answered


def test_sentences_end_at_paragraph_breaks_and_after_acronyms_but_not_after_a_heading_number():
    text = (
        "2.1. Volatile analysis\n\nGrains were analysed by GC/MS. Ms. Smith and Dr. Lee ran the assays.\n"
        "They took two weeks.\n\nA title line without a full stop\n\nThe abstract starts here."
    )
    assert sentences(text) == [
        "2.1. Volatile analysis",
        "Grains were analysed by GC/MS.",  # "MS." is not "Ms."
        "Ms. Smith and Dr. Lee ran the assays.",
        "They took two weeks.",
        "A title line without a full stop",  # used to run into the abstract's first sentence
        "The abstract starts here.",
    ]
    # a structured abstract's next section, after a sentence that has no full stop
    assert sentences("Risk fell (HR, 0.42; P=.02) CONCLUSION Among patients, MSCs helped. DNA RESULTS were read.") == [
        "Risk fell (HR, 0.42; P=.02)",
        "CONCLUSION Among patients, MSCs helped.",
        "DNA RESULTS were read.",  # a label word inside a sentence, not followed by a capital, stays
    ]


def test_a_heading_inside_a_passage_is_not_glued_to_the_claim_after_it():
    # a paragraph break ends a sentence in the answer too, not only in the card's quote
    hit = make_hit(
        section="Results",
        heading_path=["Results"],
        text="Results\n\nBones were dated by radiocarbon in two labs.\n\nLion range in Asia\n\n"
        "Asiatic lions once ranged from Greece to India.",
    )
    text, _ = _compose("Where did Asiatic lions range?", [Evidence(1, hit)])
    assert text == "Asiatic lions once ranged from Greece to India [1]."


@pytest.mark.parametrize(
    "sentence,claim",
    [
        ("BACKGROUND Vitamin D deficiency is common in winter.", "Vitamin D deficiency is common in winter."),
        ("METHODS AND FINDINGS We followed 300 patients.", "We followed 300 patients."),
        # forms the answer benchmark still showed after the first version of the list
        ("DESIGN, SETTING, AND POPULATION A cohort of 300 adults.", "A cohort of 300 adults."),
        ("PURPOSE OF REVIEW Lions are endangered.", "Lions are endangered."),
        ("PATIENTS AND METHODS We recruited 40 patients.", "We recruited 40 patients."),
        ("RESULTS DNA was recovered from 12 bones.", "DNA was recovered from 12 bones."),  # the acronym stays
        ("Results of the trial were good.", "Results of the trial were good."),
        ("Conclusions: vitamin D lowered the risk.", "vitamin D lowered the risk."),
        ("DNA Methylation rises with age.", "DNA Methylation rises with age."),  # an acronym, not a label
        ("Results showed a rise.", "Results showed a rise."),  # a word of the sentence, not a label
        # IEEE's run-in label (found walking the portal: "Abstract—" stayed in the claim)
        ("Abstract—Traffic grows in every city.", "Traffic grows in every city."),
        ("Abstracts of the talks are online.", "Abstracts of the talks are online."),
        ("Design-based studies are common.", "Design-based studies are common."),  # a hyphen inside a word
        ("【结论】吸烟增加患肺癌的风险。", "吸烟增加患肺癌的风险。"),
        ("结论：吸烟增加患肺癌的风险。", "吸烟增加患肺癌的风险。"),
        ("结果表明吸烟增加患肺癌的风险。", "结果表明吸烟增加患肺癌的风险。"),  # no colon: a word of the sentence
    ],
)
def test_structured_abstract_labels_are_left_out_of_claims_and_quotes(sentence, claim):
    assert without_label(sentence) == claim
    hit = make_hit(section="Abstract", heading_path=[], text=f"First sentence of nothing much. {sentence}")
    assert from_hit(hit, 1, sentence).quote == claim


def test_an_extractive_answer_does_not_repeat_a_structured_label():
    # a SciFact-style abstract: 80 of 279 deep answers of the answer benchmark began a sentence with such a label
    hit = make_hit(
        section="",
        heading_path=[],
        text="Vitamin D and falls\n\nBACKGROUND Falls are common. RESULTS Vitamin D supplements reduced falls in "
        "older adults by a fifth.",
    )
    text, _ = _compose("Do vitamin D supplements reduce falls in older adults?", [Evidence(1, hit)])
    assert "RESULTS" not in text and "Vitamin D supplements reduced falls in older adults by a fifth [1]." in text


def test_answer_sentences_keep_the_markers_written_after_them():
    text = "Lions live in Gir [1]. They number 600. [2]\n\nA new paragraph [1]"
    assert support.split_sentences(text) == ["Lions live in Gir [1].", "They number 600. [2]", "A new paragraph [1]"]


def test_the_extractive_answer_quotes_evidence_and_cites_each_sentence():
    evidence = _evidence(WHEAT, LIONS)
    text, conflicts = _compose("Where does the Asiatic lion survive?", evidence)
    assert text == "The Asiatic lion survives only in the Gir forest of India [2]."
    assert conflicts == []


def test_a_sources_own_reference_markers_never_become_badges():
    evidence = _evidence(LIONS)
    text, _ = _compose("How large did the lion population grow by 2017?", evidence)
    assert "[12]" not in text and "[1]" in text
    assert "grew to about 600 animals by 2017" in text


def test_nothing_relevant_means_no_sentences():
    text, conflicts = _compose("What is the boiling point of mercury?", _evidence(WHEAT, LIONS))
    assert (text, conflicts) == ("", [])


def test_opposite_findings_of_two_documents_are_listed_as_a_conflict():
    text, conflicts = _compose(
        "Did infected kernels release more volatile alcohols than healthy ones?", _evidence(WHEAT, WHEAT_AGAINST)
    )
    assert "[1]" in text and "[2]" not in text
    assert conflicts == [
        "Infected kernels did not release more volatile alcohols than healthy kernels in our field trial [2]."
    ]


def test_the_question_language_is_preferred_when_the_evidence_has_it():
    evidence = _evidence(
        "大熊猫主要生活在四川的竹林中，以竹子为食。", "Giant pandas eat bamboo in the forests of Sichuan."
    )
    text, _ = _compose("大熊猫吃什么？", evidence)
    assert text.startswith("大熊猫主要生活在四川的竹林中") and "[1]" in text and "[2]" not in text


def test_the_live_cleaner_never_shows_a_marker_that_will_not_survive():
    cleaner = LiveCleaner({1, 2}, {555: 2})
    events = [
        cleaner.feed(piece) for piece in ["Lions live in Gir [", "7] and eat deer [2", "]. They roar [ref:555]", "."]
    ]
    events.append(cleaner.flush())
    shown = ""
    for event in filter(None, events):
        shown = shown + event["delta"] if "delta" in event else event["text"]
        assert "[7]" not in shown and "[2]" not in shown  # 7 is invalid; evidence 2 is shown as [1]
    assert shown == "Lions live in Gir and eat deer [1]. They roar [1]."


def test_the_support_check_accepts_quoted_claims_and_rejects_unrelated_ones():
    checks, quotes = support.check(
        "The Asiatic lion survives only in the Gir forest [1]. Pandas eat bamboo [1]. Lions roar loudly.",
        {1: LIONS},
    )
    assert [c.supported for c in checks] == [True, False, None]
    assert checks[0].lexical == 1.0 and checks[1].lexical == 0.0 and checks[0].semantic is None
    assert "The Asiatic lion survives only in the Gir forest of India." in quotes[1]


def test_a_card_quotes_the_whole_long_sentence_an_answer_repeats():
    from apps.citations.answers.citation import best_quote
    from apps.citations.answers.extractive import MAX_CHARS

    long_sentence = "Lions " + "of the Gir forest " * 27 + "survive."
    assert 300 < len(long_sentence) <= MAX_CHARS
    quote = best_quote(f"Another short sentence. {long_sentence} The end.", long_sentence)
    assert quote.startswith(long_sentence) and "…" not in quote


def _finish(raw: str, evidence: list[Evidence], strict: bool = True, conflicts: list[str] | None = None):
    return finish(Draft(raw, conflicts or []), evidence, "question", "en", strict, deep=False, reading_mode=False)


def test_strict_mode_drops_unsupported_sentences_and_renumbers():
    evidence = _evidence(WHEAT, LIONS)
    raw = "Pandas eat bamboo [1]. The Asiatic lion survives only in the Gir forest of India [2]. Made up [9]."
    done = _finish(raw, evidence)
    assert done.answer == "The Asiatic lion survives only in the Gir forest of India [1]."
    assert [c.evidence_number for c in done.citations] == [2]
    assert [c.n for c in done.citations] == [1]
    assert done.dropped_sentences == ["Pandas eat bamboo [1].", "Made up."]
    assert done.removed_markers == ["[9]"]
    assert done.answered and all(s["supported"] for s in done.sentences)


@pytest.mark.parametrize(
    "raw",
    [
        # A real small model's output (CI, SmolLM2): a lone "[" after the cited sentence.
        "The Asiatic lion survives only in the Gir forest of India [1]. [",
        # A dropped fragment that also occurs inside the kept sentence, before it.
        "The Asiatic lion survives only in the Gir forest of India [1]. forest",
        "The Asiatic lion survives only in the Gir forest of India [1]. India.",
    ],
)
def test_strict_mode_cuts_a_dropped_fragment_where_it_is_not_where_its_text_first_occurs(raw):
    done = _finish(raw, _evidence(LIONS))
    assert done.answer == "The Asiatic lion survives only in the Gir forest of India [1]."
    assert [s["citations"] for s in done.sentences] == [[1]]
    assert done.answered and all(s["supported"] for s in done.sentences)


def test_non_strict_mode_keeps_and_labels_what_the_evidence_does_not_back():
    evidence = _evidence(WHEAT, LIONS)
    done = _finish(
        "Pandas eat bamboo [1]. The Asiatic lion survives only in the Gir forest [2]. Lions roar.",
        evidence,
        strict=False,
    )
    assert [(s["supported"], s["label"]) for s in done.sentences] == [
        (False, "unsupported"),
        (True, ""),
        (None, "not from the library"),
    ]
    assert [c.n for c in done.citations] == [1, 2]


@pytest.mark.parametrize("strict", [True, False])
def test_markers_left_alone_on_a_line_belong_to_the_sentence_before_them(strict):
    """Small models often put the citation on a line of its own; it cites the sentence above, never nothing."""
    raw = "The Asiatic lion survives only in the Gir forest of India.\n\n[1]\n\nPandas eat bamboo.\n\n [2] [1]"
    done = _finish(raw, _evidence(LIONS, WHEAT), strict=strict)
    assert done.answer.startswith("The Asiatic lion survives only in the Gir forest of India. [1]")
    assert "\n[" not in done.answer and not done.answer.startswith("[")
    first = done.sentences[0]
    assert first["citations"] == [1] and first["supported"]
    assert [c.evidence_number for c in done.citations] == ([1] if strict else [1, 2])


def test_an_answer_nothing_supports_says_the_documents_do_not_answer():
    done = _finish("I think it is 42.", _evidence(WHEAT))
    assert (done.answer, done.answered, done.citations) == (
        "The documents in this collection do not answer this.",
        False,
        [],
    )
    reading = finish(Draft(""), _evidence(WHEAT), "q", "zh", True, deep=False, reading_mode=True)
    assert reading.answer == "这份文档没有回答这个问题。"


def test_citations_are_numbered_by_first_use_and_shared_with_conflicts():
    evidence = _evidence(WHEAT, LIONS, WHEAT_AGAINST, documents=(1, 2, 3))
    raw = (
        "The Asiatic lion survives only in the Gir forest of India [2]. Fusarium poae infects durum wheat kernels [1]."
    )
    done = _finish(raw, evidence, conflicts=["Infected kernels did not release more volatile alcohols [3]."])
    assert [c.evidence_number for c in done.citations] == [2, 1, 3]
    assert done.conflicts == [
        {
            "text": "Infected kernels did not release more volatile alcohols [3].",
            "citations": [3],
            "quotes": {"3": WHEAT_AGAINST},
        }
    ]
    ids = {c.citation_id for c in done.citations}
    assert len(ids) == 3 and all(len(i) == 6 for i in ids)
    assert done.citations[2].quote == WHEAT_AGAINST


def test_the_chain_block_names_the_citation_and_ref_that_lead_to_each_work():
    cites_known = {
        "ref_no": 14,
        "label": "Ref 14",
        "text": "Doe 2019",
        "in_library": 77,
        "library_title": "Known paper",
    }
    cites_new = {"ref_no": 3, "label": "Ref 3", "text": "Roe J. New work. 2020", "doi": "10.9/new", "in_library": None}
    first = from_hit(make_hit(document_id=1, chunk_id=1, citations_out=[cites_known, cites_new]), 1, "q")
    second = from_hit(make_hit(document_id=2, chunk_id=2, citations_out=[{**cites_new, "ref_no": 8}]), 2, "q")
    related = {
        1: [{"document_id": 5, "title": "Sibling", "reasons": ["shared author: doe"]}],
        2: [{"document_id": 77, "title": "Known paper", "reasons": []}],
    }
    block = chain_block([first, second], related)
    assert block["in_library"] == [
        {
            "document_id": 77,
            "title": "Known paper",
            "also_evidence": False,
            "cited_by": [{"n": 1, "ref_no": 14, "label": "Ref 14"}],
        }
    ]
    assert [v["ref_no"] for v in block["suggested"][0]["cited_by"]] == [3, 8]
    assert block["related"] == [{"document_id": 5, "title": "Sibling", "reasons": ["shared author: doe"], "of": [1]}]
    assert chain_block([], {}) == {}


def test_headings_front_matter_and_markup_are_not_quoted_as_claims():
    hit = make_hit(
        section="Conclusions",
        heading_path=["Conclusions"],
        text="Conclusion Ancient DNA shows that lions once lived across Africa and Asia.",
    )
    banner = make_hit(
        chunk_id=7,
        document_id=3,
        section="",
        heading_path=[],
        text=(
            "RESEARCH ARTICLE Open Access Revealing lions of Africa and Asia "
            "Ross Barnett1,9*, Beth Shapiro2, Nobuyuki Yamaguchi3."
        ),
    )
    markup = make_hit(chunk_id=8, document_id=4, section="", heading_path=[], text="<script>alert(2)</script> lions.")
    text, _ = _compose(
        "Where did lions once live, in Africa and Asia?", [Evidence(1, hit), Evidence(2, banner), Evidence(3, markup)]
    )
    assert text == "Ancient DNA shows that lions once lived across Africa and Asia [1]."
    results = make_hit(
        section="Results", heading_path=["Results"], text="Results showed that lions lived across Africa and Asia."
    )
    text, _ = _compose("Where did lions live, in Africa and Asia?", [Evidence(1, results)])
    assert text.startswith("Results showed that lions")


def test_a_numbered_heading_is_not_glued_to_the_first_claim():
    # the demo paper's chunk starts "2. Results and Discussion\n\nThe volatile …": "2." alone used to end a
    # sentence, and the heading's words then opened the answer ("Results and Discussion The volatile …")
    hit = make_hit(
        section="Results and Discussion",
        heading_path=["2. Results and Discussion"],
        text="2. Results and Discussion\n\nThe volatile metabolites of infected durum wheat grains were analyzed.",
    )
    text, _ = _compose("Which volatile metabolites do infected durum wheat grains produce?", [Evidence(1, hit)])
    assert text == "The volatile metabolites of infected durum wheat grains were analyzed [1]."


# --- issue 15: answers that answer the question, or say they cannot ---------------------------------------------
# Two events in one region, each with a number: only one is the event asked about.
QUAKE_ZH = (
    "去年五月，山区的长途巴士坠入河谷，造成14人死亡。"
    "地震造成的死亡让当地人至今心有余悸。"  # on the question, but no amount: it must not lead
    "今年三月，该地区发生6.1级地震，地震造成86人死亡，数百人受伤。"
    "救援队在震后两天内抵达灾区。"
)
QUAKE_EN = (
    "In May a bus fell into a ravine in the hill district, and 14 passengers were killed. "
    "People still remember how the earthquake killed and frightened so many in the district. "  # no amount
    "In March a strong earthquake struck the same district; the earthquake killed 86 people and injured hundreds. "
    "Rescue teams reached the villages two days later."
)
# On the topic (the district, its disasters, deaths: each with a number) but silent on the earthquake's toll.
TOPICAL_ZH = (
    "该地区去年五月的巴士事故造成14人死亡。当地政府随后加固了山区公路的护栏。",
    "该地区今年七月发生山体滑坡，造成9人死亡，道路中断三天。",
    "该地区的寺庙每年吸引大量游客，当地政府扩建了通往寺庙的公路。",
)
TOPICAL_EN = (  # chunks of a few sentences each, as ingest makes them
    "A bus accident in the hill district killed 14 passengers last May. The bus left the road in heavy rain. "
    "The district government later rebuilt the guard rails of the mountain road.",
    "A landslide in the hill district killed 9 people in July and closed the road for three days. "
    "Army engineers cleared the debris. Schools in the valley stayed shut for a week.",
    "The temples of the hill district draw many visitors, and the government widened the road to them. "
    "Pilgrims arrive in spring. Hotels in the valley are full from April to June.",
)


@pytest.mark.parametrize(
    "question,evidence_text,expected",
    [
        ("这次地震造成多少人死亡？", QUAKE_ZH, "地震造成86人死亡"),
        ("How many people did the earthquake kill?", QUAKE_EN, "the earthquake killed 86 people"),
    ],
)
def test_a_factoid_answer_leads_with_the_sentence_that_holds_the_asked_fact(question, evidence_text, expected):
    text, _ = _compose(question, _evidence(evidence_text))
    first = support.split_sentences(text)[0]
    assert expected in first
    assert "14" not in first  # the other event's number, in a sentence without the question's key terms


def test_a_one_fact_answer_stays_short():
    more = (
        "The earthquake was felt in three provinces. People slept outside for a week after the earthquake. "
        "The earthquake killed livestock in every village, and people lost their harvest."
    )
    text, _ = _compose("How many people did the earthquake kill?", _evidence(QUAKE_EN, more))
    assert len(support.split_sentences(text)) <= 2 and text.startswith("In March a strong earthquake")


KASHMIR_ZH = tuple(t.replace("该地区", "印控克什米尔地区") for t in TOPICAL_ZH)


@pytest.mark.parametrize(
    "question,topical",
    [
        # the example: the region's other deaths are no answer to the temple stampede's toll
        ("印控克什米尔地区寺庙踩踏事故死亡人数", KASHMIR_ZH),
        ("How many people did the earthquake kill?", TOPICAL_EN),
        ("Who designed the guard rails of the mountain road?", TOPICAL_EN),
    ],
)
def test_topical_evidence_that_does_not_hold_the_answer_gets_no_answer(question, topical):
    text, conflicts = _compose(question, _evidence(*topical))
    assert (text, conflicts) == ("", [])


@pytest.mark.parametrize(
    "question,topical,answering,expected",
    [
        (
            "印控克什米尔地区寺庙踩踏事故死亡人数",
            KASHMIR_ZH,
            "周日，印控克什米尔地区一座寺庙发生踩踏事故，造成12人死亡。",
            "12人死亡",
        ),
        ("How many people did the earthquake kill?", TOPICAL_EN, QUAKE_EN, "killed 86 people"),
    ],
)
def test_the_same_question_is_answered_once_its_passage_is_there(question, topical, answering, expected):
    assert _compose(question, _evidence(*topical))[0] == ""
    text, _ = _compose(question, _evidence(*topical, answering))
    assert expected in support.split_sentences(text)[0] and "[4]" in text


def test_a_why_answer_gives_the_sentences_that_explain():
    passage = (
        "Sea ice in the Arctic is shrinking. The ice shrinks because warmer air and water melt it from above and "
        "below. Less ice then exposes dark water, which absorbs more heat. That heat melts still more ice. "
        "Polar bears hunt seals on the ice."
    )
    text, _ = _compose("Why is the Arctic sea ice shrinking?", _evidence(passage))
    parts = support.split_sentences(text)
    assert parts[0].startswith("The ice shrinks because") and 2 <= len(parts) <= 3
    assert "Polar bears" not in text


MDRPM = (
    "The MDRPM is based upon the following assumptions:\n\n"
    "1. Rainfall is uniform over the whole basin.\n"
    "2. Soil moisture is at field capacity when the storm begins.\n"
    "3. Runoff is routed linearly through the channel network."
)


def test_a_list_question_gets_the_lead_in_and_every_item_each_cited():
    evidence = [Evidence(1, make_hit(section="", heading_path=[], text=MDRPM))]
    text, _ = _compose("What are the assumptions of the MDRPM?", evidence)
    lines = text.split("\n")
    assert lines[0] == "The MDRPM is based upon the following assumptions: [1]"
    assert len(lines) == 4 and all(line.endswith(("[1].", "[1]")) for line in lines)
    assert "Runoff is routed linearly" in lines[3]
    # the support check sees each item as a claim of its own, and strict mode keeps them all
    assert len(support.split_sentences(text)) == 4
    done = finish(Draft(text), evidence, "q", "en", True, deep=False, reading_mode=False)
    assert done.answered and "Soil moisture is at field capacity" in done.answer and not done.dropped_sentences
    assert len([s for s in done.sentences if s["supported"]]) == 4


def test_a_follow_up_asking_for_them_gets_the_list_too():
    evidence = [Evidence(1, make_hit(section="", heading_path=[], text=MDRPM))]
    composer = ExtractiveComposer(use_embeddings=False)
    request = ComposeRequest(
        "What are they?",
        evidence,
        language="en",
        history=[("What does the MDRPM assume?", "The MDRPM is based upon the following assumptions.")],
    )
    text = "".join(p for p in composer.stream(request) if isinstance(p, str))
    assert "Rainfall is uniform over the whole basin" in text and "Runoff is routed linearly" in text


def test_a_sentence_that_announces_what_follows_is_no_claim_without_it():
    # GB/T 7714 examples: "文献工作国家标准汇编:" (the next line, a reference, is no sentence) had become a claim.
    evidence = _evidence(
        "The Asiatic lion survives only in the Gir forest of India, where lions live in prides. Asiatic lions in "
        "the Gir forest hunt deer and antelope.",
        "Threats to the Asiatic lion in the Gir forest of India include the following:",
    )
    text, _ = _compose("Describe the Asiatic lion in the Gir forest of India.", evidence)
    assert "live in prides [1]" in text and "the following" not in text
