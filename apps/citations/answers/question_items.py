"""The items of a kind a sentence holds: numbers, dates, persons, places, organisations (and for why / how, the
makings of an explanation).

Chinese is read with jieba's part-of-speech tags (nr person, ns place, nt organisation, m numeral, t time);
English with a small mechanism: numbers, years and month names, runs of capitalised words that do not start the
sentence, and organisation words (Inc, University, Institute …). Both are about kinds of tokens, never about one
example.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from apps.citations.answers.question_cues import FACTOID_KINDS
from apps.citations.answers.zh_tags import tagged
from apps.retrieval.keyword.analyzer import STOP_WORDS

_ZH_NUMERALS = "〇零一二三四五六七八九十百千万亿两半"
_ZH_DATE = re.compile(
    rf"(?:\d{{1,4}}|[{_ZH_NUMERALS}]{{1,5}})\s*(?:年代?|月份?|日|号|世纪)|[公西]元前?|[春夏秋冬]季|朝|代"
)
_ZH_ORG_SUFFIX = re.compile(
    r"(?:公司|集团|大学|学院|学校|银行|委员会|协会|学会|组织|政府|研究所|研究院|研究中心|医院|俱乐部|队|党|部|局|厅|署|社|台|报|会|院|所|厂|馆)$"
)
_ZH_ARTICLE_NUMERAL = re.compile(r"^[一]\w?$")  # "一辆", "一个": an article, not an amount

_EN_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
_EN_DATE = re.compile(
    rf"\b(?:1[0-9]{{3}}|20[0-9]{{2}})s?\b|\b{_EN_MONTHS}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_EN_MONTHS}\b|\b{_EN_MONTHS}\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\s+century\b|\b(?:BC|BCE|AD|CE)\b|\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b"
    # A time told as a distance back ("14,000 years ago", "2.5 million years before present", "12 ka BP").
    r"|\b\d[\d,.]*\s*(?:thousand\s+|million\s+|billion\s+)?(?:years?|decades?|centuries|months?|weeks?|days?)"
    r"\s+(?:ago|earlier|before\s+present)\b|\b\d[\d,.]*\s*(?:ka|kya|Ma|mya|cal\s+BP|BP)\b"
)
_EN_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
    r"eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|"
    r"dozen|half|twice|double|triple"
)
# A plural ("dozens", "hundreds of") is vague: not the amount a "how many" asks for.
_EN_NUMBER = re.compile(rf"\d+(?:[.,]\d+)*\s*%?|\b(?:{_EN_NUMBER_WORDS})\b", re.I)
_EN_ORG_WORDS = (
    r"Inc|Ltd|LLC|Corp|Corporation|Company|Co|Group|University|Institute|Institution|College|School|Academy|"
    r"Association|Society|Agency|Organi[sz]ation|Foundation|Council|Committee|Ministry|Department|Bank|Laboratory|"
    r"Laboratories|Centre|Center|Hospital|Party|Union|Federation|Board|Commission|Press|Museum|Club"
)
_EN_ORG = re.compile(rf"\b(?:{_EN_ORG_WORDS})\b|\b[A-Z]{{2,6}}s?\b")
# A capitalised word; a name run is several, possibly joined by "of", "de", "van" …
_EN_CAPITALISED = re.compile(r"[A-Z][a-z'’\-]+|[A-Z]\.|[A-Z]{2,}")
_EN_NAME_JOINERS = frozenset({"of", "de", "van", "von", "der", "da", "di", "la", "le", "del", "bin", "al"})
_EN_NOT_NAMES = re.compile(rf"^(?:{_EN_MONTHS}|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|I)$")


def en_name_runs(sentence: str) -> list[str]:
    """Runs of capitalised words ("Maharaja Gulab Singh", "University of Oxford"). A run that starts the sentence
    counts only with two or more words and not from a function word ("Lions live …", "The Asiatic lion …" hold
    no name; "Apple Inc. makes …" does)."""
    words = re.findall(r"[\w'’\-.]+|[^\w\s]", sentence)
    runs: list[str] = []
    current: list[str] = []
    run_initial = False

    def close() -> None:
        while current and current[-1].lower() in _EN_NAME_JOINERS:
            current.pop()
        if current and (not run_initial or (len(current) >= 2 and current[0].lower() not in STOP_WORDS)):
            runs.append(" ".join(current))
        current.clear()

    for i, raw in enumerate(words):
        initial = i == 0 or (words[i - 1] in {".", ":", "!", "?", '"', "“"} and not current)
        word = raw if re.fullmatch(r"[A-Z]\.", raw) else raw.rstrip(".")
        if word and _EN_CAPITALISED.fullmatch(word) and not _EN_NOT_NAMES.match(word):
            if not current:
                run_initial = initial
            current.append(word)
        elif current and word.lower() in _EN_NAME_JOINERS and i + 1 < len(words) and words[i + 1][:1].isupper():
            current.append(word)
        else:
            close()
        if raw.endswith(".") and len(raw) > 2 and current and not re.fullmatch(_EN_ORG_WORDS + r"\.", raw):
            close()  # "… in Paris. The …": a full stop ends the run
    close()
    return runs


def items(sentence: str, kind: str, language: str) -> set[str]:
    """The items of a factoid `kind` the sentence holds (normalised strings); empty for other kinds."""
    if kind not in FACTOID_KINDS:
        return set()
    text = unicodedata.normalize("NFKC", sentence)
    if language == "zh":
        return _zh_items(text, kind)
    return _en_items(text, kind)


def _zh_items(text: str, kind: str) -> set[str]:
    words = tagged(text)
    found: set[str] = set()
    if kind == "date":
        found |= {m.group(0) for m in _ZH_DATE.finditer(text) if re.search(rf"[\d{_ZH_NUMERALS}]", m.group(0))}
        found |= {w for w, f in words if f == "t" and (_ZH_DATE.search(w) or re.search(r"\d", w))}
        found |= {m.group(0) for m in _EN_DATE.finditer(text)}
        return found
    # The tags that name each kind: a person (nr; a "who" is also answered by an organisation), a place (ns),
    # an organisation (nt; nz and nrt: other proper names and transliterations, which brands mostly are).
    named = {"person": ("nr", "nt"), "place": ("ns",), "organisation": ("nt", "nz", "nrt")}.get(kind, ())
    for i, (word, flag) in enumerate(words):
        if kind == "number":
            # jieba tags "三辑" (numeral + classifier) as a noun at times: the numeral decides.
            numeric = flag in ("m", "mq") or re.fullmatch(rf"[\d{_ZH_NUMERALS}]+(?:\.\d+)?[%\w]?", word)
            # A numeral that is part of a date ("2019 年", "5 日") is not an amount.
            dated = (i + 1 < len(words) and words[i + 1][0][:1] in "年月日号") or re.search(r"[年月日号]$", word)
            amount = re.search(rf"[\d{_ZH_NUMERALS}]", word) and not _ZH_ARTICLE_NUMERAL.match(word)
            if numeric and amount and not dated:
                found.add(word)
        elif flag.startswith(named) and len(word) >= 2:
            found.add(word)
    if kind in ("organisation", "person"):
        # "美国 雷明登 武器 公司", "香港 演艺 学院 (毕业)": a run of nouns up to an organisation word. A person
        # question ("谁赞助了球队") is answered by an organisation as well.
        run: list[str] = []
        for word, flag in words:
            if not (flag[:1] in ("n", "j") or flag == "eng"):
                run = []
                continue
            run.append(word)
            if _ZH_ORG_SUFFIX.search(word) and len("".join(run)) >= 3:
                found.add("".join(run))
    if kind == "place":
        # A place need not have a name: "(活动)于 树木 之上", "置于 口 中": a noun and a locative after 于/在/到.
        for i in range(2, len(words)):
            (w0, f0), (w1, f1), (w2, f2) = words[i - 2], words[i - 1], words[i]
            if f2 == "f" and f1[:1] == "n" and (f0 == "p" or w0[-1:] in "于在到至"):
                found.add(w1 + w2)
        found |= _after_locative(words)
    if kind in ("person", "place", "organisation"):
        # Names written in Latin letters inside Chinese text ("由 Google 开发") are names too.
        found |= {r for r in en_name_runs(" , " + text)}
    return found


# What can make up a place's name or description: nouns (n…: also jieba's nr/ns/nt/nz for the parts of a name it
# does not know, "西 / 布里奇 / 福德"), places and locatives (s, f), abbreviations (j) and Latin-letter words.
_PLACE_PART_FLAGS = ("n", "s", "f", "j", "eng")


def _after_locative(words: Sequence[tuple[str, str]]) -> set[str]:
    """The noun run right after a locative verb or preposition ("位于 西布里奇福德", "置于 口中", "源自 西班牙语 美洲"):
    what is located is named there even when jieba knows no place name in it."""
    found: set[str] = set()
    for i, (word, flag) in enumerate(words):
        locative = (flag == "p" and word in _LOCATIVE_PREPOSITIONS) or (flag[:1] == "v" and word[-1:] in "于在自")
        if not locative:
            continue
        run = []
        for following, tag in words[i + 1 :]:
            if not tag.startswith(_PLACE_PART_FLAGS):
                break
            run.append(following)
        if len("".join(run)) >= 2:
            found.add("".join(run))
    return found


_LOCATIVE_PREPOSITIONS = frozenset({"在", "于", "自", "从", "到", "至"})


def _en_items(text: str, kind: str) -> set[str]:
    if kind == "number":
        # A number that is part of a date ("in 1891", "May 5") is not an amount.
        dates = [m.span() for m in _EN_DATE.finditer(text)]
        return {
            m.group(0).strip().lower()
            for m in _EN_NUMBER.finditer(text)
            if not any(a <= m.start() < b for a, b in dates)
        }
    if kind == "date":
        return {m.group(0) for m in _EN_DATE.finditer(text)}
    runs = set(en_name_runs(text))
    if kind == "organisation":
        return {r for r in runs if _EN_ORG.search(r)} | {m.group(0) for m in re.finditer(r"\b[A-Z]{2,6}\b", text)}
    # person and place alike: a proper name (telling them apart needs a tagger English text does not have here);
    # an organisation's name is not a person.
    return {r for r in runs if not (kind == "person" and re.search(rf"\b(?:{_EN_ORG_WORDS})\b", r))}


# What an explanation is made of: a cause ("because", "由于") for why, a means or steps ("by", "通过") for how.
_EXPLANATION = {
    "why": re.compile(
        r"\b(?:because|due to|owing to|as a result|caused by|causes?|leads? to|led to|results? in|therefore|thus|"
        r"since|so that|reason)\b|因为|由于|所以|因此|导致|造成|原因|使得|以致|从而",
        re.I,
    ),
    "how": re.compile(
        r"\b(?:by|through|using|via|steps?|first|then|method|process|mechanism)\b|通过|利用|使用|采用|方法|步骤|首先|然后|经过|方式",
        re.I,
    ),
}


def holds_kind(sentence: str, kind: str, language: str) -> bool:
    """The sentence holds an item of the asked factoid type (number/date/person/place/organisation), or for why
    and how the makings of an explanation (a cause, a means); True for other kinds."""
    if kind in _EXPLANATION:
        return bool(_EXPLANATION[kind].search(sentence))
    if kind not in FACTOID_KINDS:
        return True
    return bool(items(sentence, kind, language))


def holds_unit(sentence: str, unit: str) -> bool:
    """The sentence writes a number with `unit` right after it ("30,000种", "五个等级", "4万平方米")."""
    if not unit:
        return False
    text = unicodedata.normalize("NFKC", sentence)
    return bool(re.search(rf"[\d{_ZH_NUMERALS}][\d,.{_ZH_NUMERALS}]*\s*[个余多]?\s*{re.escape(unit)}", text))
