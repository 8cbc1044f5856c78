"""Sources that disagree: two sentences conflict only when they say opposite things about the same thing (opposite
directions of change, a finding and its denial, a change against a null finding, different values of one measure),
in English and Chinese; a sentence that shares words, or whose negation is about another clause, does not.

Each case is a pair: a conflict and its near twin that is not one, so each test fails on the old rule (any negation
or change word on one side of a pair sharing a third of its terms) in one direction or the other."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from apps.citations.answers.conflicts import disagree
from apps.citations.answers.similarity import content_terms


@dataclass
class Sentence:
    text: str
    document_id: int
    terms: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.terms = content_terms(self.text)


def _disagree(a: str, b: str) -> bool:
    return disagree(Sentence(a, 1), Sentence(b, 2))


@pytest.mark.parametrize(
    "conflict,twin",
    [
        pytest.param(
            (
                "Vitamin D supplementation increased bone mineral density in postmenopausal women.",
                "Vitamin D supplementation decreased bone mineral density in postmenopausal women over two years.",
            ),
            (
                "Exercise increased muscle strength in older adults.",
                "Exercise not only increased muscle strength but also improved balance in older adults.",
            ),
            id="increased-decreased / not only",
        ),
        pytest.param(
            (
                "Aspirin did not reduce the risk of stroke in older adults.",
                "Aspirin reduced the risk of stroke in older adults with atrial fibrillation.",
            ),
            (
                "Vitamin D supplementation reduced the risk of hip fractures in elderly women.",
                "Vitamin D supplementation did not reduce falls in nursing home residents.",
            ),
            id="did not reduce / about something else",
        ),
        pytest.param(
            (
                "There was no significant difference in body weight between the treated and control mice.",
                "The treatment increased body weight in mice.",
            ),
            (
                "Treatment increased blood pressure in the mice.",
                "There was no significant difference in body weight, but blood pressure increased in the treated mice.",
            ),
            id="null finding / negation of another clause",
        ),
        pytest.param(
            (
                "Statin therapy is not associated with cognitive decline in the elderly.",
                "Statin therapy is associated with cognitive decline in the elderly.",
            ),
            ("Lions are native to Africa and India.", "Lions are not native to the Americas."),
            id="predicate denied / a different complement",
        ),
        pytest.param(
            (
                "The Asiatic lion survives only in the Gir forest of India.",
                "The Asiatic lion does not survive in the Gir forest of India any more.",
            ),
            (
                "The Asiatic lion survives only in the Gir forest of India.",
                "Lions are not native to the Americas, and the Asiatic lion survives only in the Gir forest.",
            ),
            id="negation scope ends with its phrase",
        ),
        pytest.param(
            (
                "Calcium cycling in beige fat is a UCP1-dependent thermogenic mechanism.",
                "Calcium cycling in beige fat is a UCP1-independent thermogenic mechanism.",
            ),
            (
                "The switch from unstable to stable attachments requires the destruction of cyclin A.",
                "The switch to stable attachments requires the destruction of cyclin A.",
            ),
            id="dependent-independent / from unstable to stable",
        ),
        pytest.param(
            ("补充维生素D增加了绝经后女性的骨密度。", "补充维生素D降低了绝经后女性的骨密度。"),
            ("该政策不仅提高了农民收入，而且增加了就业。", "该政策提高了农民收入。"),
            id="zh 增加-降低 / 不仅",
        ),
        pytest.param(
            ("该药物没有降低患者的死亡率。", "该药物降低了重症患者的死亡率。"),
            ("不同地区的踩踏事故死亡人数差异很大。", "踩踏事故死亡人数在多个地区增加。"),
            id="zh 没有降低 / 不同 is no negation",
        ),
        pytest.param(
            ("两组患者的血压没有显著差异。", "治疗组患者的血压明显升高。"),
            ("未来三年该地区的降雨量将保持稳定。", "该地区的降雨量保持稳定。"),
            id="zh null finding / 未来 is no negation",
        ),
    ],
)
def test_opposed_statements_about_one_thing_conflict_and_their_twins_do_not(conflict, twin):
    assert _disagree(*conflict) and _disagree(*reversed(conflict))
    assert not _disagree(*twin) and not _disagree(*reversed(twin))


@pytest.mark.parametrize(
    "conflict,twins",
    [
        pytest.param(
            (
                "The 30-day mortality of patients with septic shock was 12%.",
                "Among patients with septic shock, 30-day mortality was 30%.",
            ),
            [
                (
                    "The 30-day mortality of patients with septic shock was 12%.",
                    "The 90-day mortality of patients with septic shock was 30%.",  # another measure
                ),
                (
                    "The 30-day mortality of patients with septic shock was 12%.",
                    "Among patients with septic shock, 30-day mortality was 12.3%.",  # the same figure, rounded
                ),
                (
                    "In 30-day follow-up, mortality was 12% (Fig. 2).",
                    "In 30-day follow-up, mortality was 12% (Fig. 3).",  # labels are not quantities
                ),
                ("We enrolled 120 patients with septic shock.", "We enrolled 45 patients with septic shock."),
            ],
            id="en",
        ),
        pytest.param(
            ("印控克什米尔地区寺庙踩踏事故造成10人死亡。", "印控克什米尔地区寺庙踩踏事故的死亡人数为二十五人。"),
            [
                # the same region and toll words, another event
                ("印控克什米尔地区寺庙踩踏事故造成10人死亡。", "印控克什米尔地区一辆公交车坠入山谷，造成25人死亡。"),
                # the same measure at two times is a change, not a disagreement
                ("2010年该保护区的亚洲狮数量为411只。", "2015年该保护区的亚洲狮数量为523只。"),
            ],
            id="zh",
        ),
    ],
)
def test_different_values_of_one_measure_conflict_but_not_of_other_measures_or_times(conflict, twins):
    assert _disagree(*conflict)
    for twin in twins:
        assert not _disagree(*twin), twin


def test_a_neutral_sentence_or_one_document_never_conflicts():
    neutral = (
        "The Asiatic lion survives only in the Gir forest of India.",
        "Its population grew to about 600 animals.",
    )
    assert not _disagree(*neutral)
    same_document = (
        Sentence("Aspirin did not reduce the risk of stroke.", 7),
        Sentence("Aspirin reduced the risk of stroke.", 7),
    )
    assert not disagree(*same_document)
    # and, once more, a negation about something else in a sentence sharing every other word
    assert not _disagree(
        "The Asiatic lion survives only in the Gir forest of India.",
        "The Asiatic lion, not the African one, survives only in the Gir forest of India.",
    )
