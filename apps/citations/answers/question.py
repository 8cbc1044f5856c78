"""What a question asks for, and whether one evidence sentence can answer it.

`classify()` reads a question's kind (a number, a date, a person, a place, an organisation; a list; a definition;
how or why; yes or no; anything else) from its question words, in Chinese and English, and its key terms: the
content terms an answering sentence must share. `can_answer()` is the composer's per-sentence gate: the sentence
holds an item of the asked kind (a number for "how many", a name for "who"), not one the question itself names,
and covers enough of the key terms. When no evidence sentence passes, the documents do not answer the question.

Chinese is read with jieba's part-of-speech tags (nr person, ns place, nt organisation, m numeral, t time); English
with a small mechanism: numbers, years and month names, runs of capitalised words that do not start the sentence,
and organisation words (Inc, University, Institute …). Both are about kinds of tokens, never about one example.
"""

from __future__ import annotations

import logging
import re
import tempfile
import threading
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from apps.citations.answers.language import detect
from apps.retrieval.keyword.analyzer import STOP_WORDS, query_terms

KINDS = ("number", "date", "person", "place", "organisation", "list", "definition", "how", "why", "yesno", "other")
FACTOID_KINDS = frozenset({"number", "date", "person", "place", "organisation"})
EXPLAIN_KINDS = frozenset({"definition", "how", "why"})

# The share of the question's key terms (weighted when weights are given) an answering sentence must hold.
# Calibrated on the TUNE splits (bench/answers/calibrate_gate.py); see docs/benchmarks.md.
KEY_COVERAGE = {"zh": 0.3, "en": 0.3}


@dataclass(frozen=True)
class Question:
    text: str
    language: str  # "zh" | "en" (answers.language.detect)
    kind: str  # one of KINDS
    key_terms: frozenset[str]  # content terms an answering sentence must share (analyzer terms, question words out)
    # The names, numbers and titles the question is about ("九龙巴士86线", "Aceh", "2004"): an answering sentence,
    # the sentence before it or its document's title must name every one (casefolded).
    anchors: frozenset[str] = frozenset()

    @property
    def factoid(self) -> bool:
        return self.kind in FACTOID_KINDS


# --- question words ---------------------------------------------------------------------------------------------
# Each kind's cues, tried in order (the first match wins): a list cue before a bare "哪", an organisation noun
# before a place noun. The cue is cut out of the question before its key terms are taken (it carries no content).
_ZH_ORG_NOUNS = (
    r"(?:公司|集团|企业|组织|机构|大学|学校|学院|银行|团队|球队|俱乐部|政党|党派|部门|单位|厂商|品牌|媒体|报社|电视台)"
)
_ZH_PLACE_NOUNS = r"(?:国家|城市|省份?|地区|地方|州|县|市|城|岛|山|河|湖|洲|大陆|国)"
_ZH_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("list", re.compile(r"有哪些|包括哪些|包含哪些|哪几[个种类项条点]|分别是|分别有|列出|列举|哪些")),
    (
        "organisation",
        re.compile(rf"(?:哪[个一家所支]?|什么|何)\s*{_ZH_ORG_NOUNS}|由谁(?:公司|机构)"),
    ),
    (
        "place",
        # "在哪" asks where, unless a noun follows ("在哪一部电影": which film)
        re.compile(
            rf"在?哪[里儿]|何处|何地|什么地方|在哪(?![一个些部种位本首只条项类样])|(?:哪[个一座片]?|什么){_ZH_PLACE_NOUNS}|位于|坐落"
        ),
    ),
    (
        "date",
        re.compile(
            r"哪一?年|何年|哪一?天|何时|什么时候|什么时间|几月|几号|哪个(?:月|朝代|时期|年代|世纪)|哪一?朝|年份|日期|时间"
        ),
    ),
    ("person", re.compile(r"谁|哪[位个]人|哪一?位|什么人|何人|哪个(?:人|演员|作者|作家|导演|球员|歌手|皇帝)")),
    (
        "number",
        re.compile(
            # The unit counted ("多少人", "how many people") is cut with the cue: every amount has one, so it says
            # nothing about whether a sentence is on the question (a bus crash's "14人死亡" has 人 too).
            r"(?:多少|几(?![乎何]))[个名位人次年岁种只座条场届本部项件家天倍]?|多[大高长重远久深宽厚]|"
            r"(?:人数|数量|数目|面积|人口|比例|比率|金额|价格|票房|销量|长度|高度|重量|距离|温度|速度|得分|排名)(?=[？?。]?$|是|为|有)"
        ),
    ),
    ("why", re.compile(r"为什么|为何|什么原因|原因是|的原因|何故")),
    ("how", re.compile(r"怎么|怎样|如何|什么方法|什么方式|方法是")),
    ("definition", re.compile(r"什么是|是指|指什么|指的是|是什么|的定义|的含义|什么意思|意思是")),
    ("yesno", re.compile(r"是否|是不是|能不能|可不可以|有没有|会不会|吗[？?]?$|吗")),
)
_EN_ORG_NOUNS = (
    r"(?:company|companies|firm|corporation|organi[sz]ations?|institutions?|institutes?|universit(?:y|ies)|"
    r"agenc(?:y|ies)|bank|team|club|party|publisher|brand|manufacturer|school|college|group)"
)
_EN_PLACE_NOUNS = r"(?:country|countries|city|cities|region|place|state|province|continent|island|town|area|location)"
_EN_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "list",
        re.compile(
            r"^\s*(?:list|name|enumerate|give)\b|\bwhat\s+are\s+(?:the|all|some)\s+\w+(?:\s+\w+)?s\b"
            r"|\bwhich\s+\w+(?:\s+\w+)?\s+are\b|\bwhat\s+(?:steps|items|requirements|assumptions)\b",
            re.I,
        ),
    ),
    ("organisation", re.compile(rf"\b(?:which|what|whose)\s+{_EN_ORG_NOUNS}\b", re.I)),
    ("place", re.compile(rf"\bwhere\b|\b(?:which|what|in\s+what)\s+{_EN_PLACE_NOUNS}\b", re.I)),
    (
        "date",
        re.compile(
            r"\bwhen\b|\b(?:what|which)\s+(?:year|date|day|month|century|decade|time|period)\b|\bhow\s+long\s+ago\b",
            re.I,
        ),
    ),
    ("person", re.compile(r"\bwho(?:m|se)?\b|\b(?:which|what)\s+(?:person|people|scientist|author|man|woman)\b", re.I)),
    (
        "number",
        re.compile(
            r"\bhow\s+(?:(?:many|much)(?:\s+(?!of\b|did\b|does\b|do\b|is\b|are\b|was\b|were\b)[a-z]+)?|long|old|far|big|"
            r"large|tall|high|often|fast)\b"
            r"|\b(?:what|which)\s+(?:percentage|proportion|number|amount|fraction|rate|share|size|dose)\b",
            re.I,
        ),
    ),
    ("why", re.compile(r"\bwhy\b|\bwhat\s+(?:causes|caused|is\s+the\s+reason)\b|\breasons?\s+for\b", re.I)),
    ("how", re.compile(r"\bhow\b|\bin\s+what\s+way\b", re.I)),
    (
        "definition",
        re.compile(
            r"^\s*(?:what\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(?=\S)|define\b)|\bwhat\s+does\s+.+\s+mean\b"
            r"|\bmeaning\s+of\b|\bdefinition\s+of\b",
            re.I,
        ),
    ),
    ("yesno", re.compile(r"^\s*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|may)\b", re.I)),
)
# Words that only ask (left over after the cue is cut): they are not terms an answer must share.
_EN_QUESTION_WORDS = re.compile(
    r"\b(?:what|which|who|whom|whose|when|where|why|how|many|much|list|name|enumerate|give|kind|type|"
    r"sort|exactly|approximately|roughly|did|does|do|mean|called|known)\b",
    re.I,
)
_ZH_QUESTION_WORDS = re.compile(
    r"什么|哪[个些里儿位一家种]?|谁|多少|几|怎么|怎样|如何|为什么|为何|是否|吗|呢|吧|请问|请|告诉我"
)
_COMPOUND = re.compile(
    r",?\s+and\s+(?:what|where|who|when|how|which|why)\b|[？?]\s*\S.*[？?]|(?:以及|还有|并且|同时)(?:.*?)(?:什么|哪|谁|多少|几|如何|怎么|为什么)",
    re.I,
)
# A follow-up that only points back ("what are they?", "它们分别是什么") asks about the previous question's subject.
_EN_ANAPHORA = re.compile(r"\b(?:they|them|those|these|it|its|their|this|that)\b", re.I)
_ZH_ANAPHORA = re.compile(r"它们|他们|她们|这些|那些|其中|它|其|这个|那个|具体")

# Chinese words that carry no content: jieba's tags for particles, prepositions, conjunctions, pronouns,
# adverbs, modal and punctuation, and the copulas.
_ZH_FUNCTION_FLAGS = ("u", "p", "c", "r", "y", "e", "o", "x", "w", "d", "q")
_ZH_COPULAS = frozenset("是有为在叫被把让将和与及的了着过")


# --- jieba ------------------------------------------------------------------------------------------------------
_jieba_lock = threading.Lock()
_jieba_ready = False


def _cache_dir() -> Path:
    """The portal's var/cache when Django is configured and it can be written, else the system's temp dir."""
    try:
        from django.conf import settings

        directory = Path(settings.VAR_DIR) / "cache"
        directory.mkdir(parents=True, exist_ok=True)
        return directory
    except Exception:  # settings not configured (a bench script) or the directory is read-only
        return Path(tempfile.gettempdir())


def _posseg():
    """jieba.posseg, its dictionary loaded once (jieba's own first-use load is not guarded across threads)."""
    global _jieba_ready
    import jieba
    import jieba.posseg

    if not _jieba_ready:
        with _jieba_lock:
            if not _jieba_ready:
                jieba.setLogLevel(logging.WARNING)
                jieba.dt.tmp_dir = str(_cache_dir())
                jieba.dt.cache_file = "jieba-portal.cache"
                jieba.dt.initialize()
                jieba.posseg.dt.initialize()
                _jieba_ready = True
    return jieba.posseg


@lru_cache(maxsize=20_000)
def _tagged(text: str) -> tuple[tuple[str, str], ...]:
    """(word, part-of-speech) pairs; cached, as the same evidence sentences are read for every question on them."""
    return tuple((pair.word, pair.flag) for pair in _posseg().cut(text))


# --- items of a kind in a sentence ------------------------------------------------------------------------------
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


def _en_name_runs(sentence: str) -> list[str]:
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
    tagged = _tagged(text)
    found: set[str] = set()
    if kind == "date":
        found |= {m.group(0) for m in _ZH_DATE.finditer(text) if re.search(rf"[\d{_ZH_NUMERALS}]", m.group(0))}
        found |= {w for w, f in tagged if f == "t" and (_ZH_DATE.search(w) or re.search(r"\d", w))}
        found |= {m.group(0) for m in _EN_DATE.finditer(text)}
        return found
    # The tags that name each kind: a person (nr; a "who" is also answered by an organisation), a place (ns),
    # an organisation (nt; nz and nrt: other proper names and transliterations, which brands mostly are).
    named = {"person": ("nr", "nt"), "place": ("ns",), "organisation": ("nt", "nz", "nrt")}.get(kind, ())
    for i, (word, flag) in enumerate(tagged):
        if kind == "number":
            # jieba tags "三辑" (numeral + classifier) as a noun at times: the numeral decides.
            numeric = flag in ("m", "mq") or re.fullmatch(rf"[\d{_ZH_NUMERALS}]+(?:\.\d+)?[%\w]?", word)
            # A numeral that is part of a date ("2019 年", "5 日") is not an amount.
            dated = (i + 1 < len(tagged) and tagged[i + 1][0][:1] in "年月日号") or re.search(r"[年月日号]$", word)
            amount = re.search(rf"[\d{_ZH_NUMERALS}]", word) and not _ZH_ARTICLE_NUMERAL.match(word)
            if numeric and amount and not dated:
                found.add(word)
        elif flag.startswith(named) and len(word) >= 2:
            found.add(word)
    if kind in ("organisation", "person"):
        # "美国 雷明登 武器 公司", "香港 演艺 学院 (毕业)": a run of nouns up to an organisation word. A person
        # question ("谁赞助了球队") is answered by an organisation as well.
        run: list[str] = []
        for word, flag in tagged:
            if not (flag[:1] in ("n", "j") or flag == "eng"):
                run = []
                continue
            run.append(word)
            if _ZH_ORG_SUFFIX.search(word) and len("".join(run)) >= 3:
                found.add("".join(run))
    if kind == "place":
        # A place need not have a name: "(活动)于 树木 之上", "置于 口 中": a noun and a locative after 于/在/到.
        for i in range(2, len(tagged)):
            (w0, f0), (w1, f1), (w2, f2) = tagged[i - 2], tagged[i - 1], tagged[i]
            if f2 == "f" and f1[:1] == "n" and (f0 == "p" or w0[-1:] in "于在到至"):
                found.add(w1 + w2)
    if kind in ("person", "place", "organisation"):
        # Names written in Latin letters inside Chinese text ("由 Google 开发") are names too.
        found |= {r for r in _en_name_runs(" , " + text)}
    return found


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
    runs = set(_en_name_runs(text))
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


# --- classification ---------------------------------------------------------------------------------------------
def _kind_and_rest(text: str, language: str) -> tuple[str, str]:
    """The kind, and the question with its cue cut out."""
    cues = _ZH_CUES if language == "zh" else _EN_CUES
    for kind, pattern in cues:
        match = pattern.search(text)
        if match:
            return kind, text[: match.start()] + " ， " + text[match.end() :]
    return "other", text


def _zh_key_terms(text: str) -> set[str]:
    """Bigrams of the question's content runs: jieba marks the function words (particles, prepositions,
    pronouns …), which are cut out; what is left is bigrammed as the analyzer does, across jieba's own word
    boundaries, so a name jieba splits ("梦野久作" → 梦 / 野久 / 作) still yields its bigrams. (Measured on the CMRC
    TUNE split: one-character words as terms of their own matched too much by chance, and sharing a word's weight
    among its bigrams made a long name count too little: it is what tells the passage on the topic apart.)"""
    text = _ZH_QUESTION_WORDS.sub("，", text)
    kept = [
        "，" if flag.startswith(_ZH_FUNCTION_FLAGS) or word in _ZH_COPULAS else word for word, flag in _tagged(text)
    ]
    return set(query_terms("".join(kept)))


def _en_key_terms(text: str) -> set[str]:
    return set(query_terms(_EN_QUESTION_WORDS.sub(" ", text)))


def key_terms_of(text: str, language: str) -> set[str]:
    """The content terms of `text` once its question words are out."""
    return _zh_key_terms(text) if language == "zh" else _en_key_terms(text)


# jieba's tags for names: person, place, organisation, other proper noun, transliteration, Latin-letter word.
_ZH_NAME_FLAGS = ("nr", "ns", "nt", "nz", "eng")
_TITLE = re.compile(r"《([^》]{1,40})》|“([^”]{1,40})”|\"([^\"]{1,40})\"")


# Statements (a claim to check) and yes/no questions assert their numbers ("10% of SIDS deaths …"): the evidence
# may well give another value, so only the names they mention are anchors. (SciFact TUNE: 28% of claims missed.)
_STATEMENT_KINDS = frozenset({"other", "yesno"})


def anchors_of(text: str, language: str, kind: str = "other") -> set[str]:
    """What the question names (see Question.anchors): quoted titles, numbers and codes (not for a statement's
    kinds), and names (jieba's name tags in Chinese; runs of capitalised words in English)."""
    found = {next(g for g in m.groups() if g) for m in _TITLE.finditer(text)}
    bare = _TITLE.sub("，", text)
    if kind not in _STATEMENT_KINDS:
        # "86", "E23P", "11-87", "2004", "p53": numbers and codes, ASCII only (a Chinese word may follow unspaced)
        found |= {m.strip(".-") for m in re.findall(r"[A-Za-z]*\d[A-Za-z0-9.\-]*", bare)}
    if language == "zh":
        for word, flag in _tagged(_ZH_QUESTION_WORDS.sub("，", bare)):
            if flag.startswith(_ZH_NAME_FLAGS) and len(word) >= 2 and not re.search(r"\d", word):
                found.add(word)
    else:
        found |= set(_en_name_runs(bare))
    return {a.casefold() for a in found if a.strip()}


def anchors_found(question: Question, text: str) -> bool:
    """Every anchor of the question is named in `text` (a passage); for a statement one of them is enough: a claim
    names its matter several ways ("Bone Marrow (BM) transplantation", "acute myeloid leukemia (AML)")."""
    if not question.anchors:
        return True
    folded = unicodedata.normalize("NFKC", text).casefold()
    named = [anchor in folded for anchor in question.anchors]
    return any(named) if question.kind in _STATEMENT_KINDS else all(named)


def classify(question: str, history: Sequence[str] = ()) -> Question:
    """The question's language, kind and key terms. `history`: the earlier questions, oldest first; a follow-up that
    only points back ("what are they?") takes the previous question's subject, and its kind when it names none."""
    text = " ".join(unicodedata.normalize("NFKC", question).split())
    language = detect(text)
    kind, rest = _kind_and_rest(text, language)
    if _COMPOUND.search(text):
        # Two questions in one ("Where does X live, and what does Y release?"): no one kind fits both parts,
        # so it is answered as a general question from the sentences on either part.
        kind, rest = "other", _ZH_QUESTION_WORDS.sub("，", _EN_QUESTION_WORDS.sub(" ", text))
    terms = key_terms_of(rest, language)
    # A compound question's names belong to one part each: a passage on the other part need not name them.
    anchors = set() if _COMPOUND.search(text) else anchors_of(rest, language, kind)
    anaphora = _ZH_ANAPHORA if language == "zh" else _EN_ANAPHORA
    if history and (len(terms) <= 1 or anaphora.search(text)) and (len(terms) <= 2):
        earlier = classify(history[-1], history[:-1])
        terms |= set(earlier.key_terms)
        anchors |= set(earlier.anchors)
        if kind in ("other", "definition") or (earlier.kind == "list" and kind == "yesno"):
            kind = earlier.kind
    return Question(text=text, language=language, kind=kind, key_terms=frozenset(terms), anchors=frozenset(anchors))


# --- the gate ---------------------------------------------------------------------------------------------------
def _holds_term(term: str, sentence_terms: set[str], sentence_text: str) -> bool:
    # A Chinese key term of one character (a one-character word of the question) is found in the text itself:
    # the analyzer gives a sentence's Chinese only as bigrams.
    return term in sentence_terms or (len(term) == 1 and not term.isascii() and term in sentence_text)


def key_coverage(
    question: Question, sentence: str, weights: Mapping[str, float] | None = None, terms: Iterable[str] | None = None
) -> float:
    """The (weighted) share of the question's key terms the sentence holds; 0 when the question has none."""
    if not question.key_terms:
        return 0.0
    text = unicodedata.normalize("NFKC", sentence).casefold()
    found = set(terms) if terms is not None else set(query_terms(sentence))
    evidence = weights or {}

    def weight(term: str) -> float:
        return evidence.get(term, 1.0)

    total = sum(weight(t) for t in question.key_terms)
    return sum(weight(t) for t in question.key_terms if _holds_term(t, found, text)) / total


def new_items(question: Question, sentence: str) -> set[str]:
    """The sentence's items of the asked kind that the question does not itself name (a question about the 2019
    crash is not answered by a sentence whose only number is 2019). A question that names several items of its
    kind offers the answer's candidates ("in Africa or Asia?"): then those count too."""
    asked = items(question.text, question.kind, question.language)
    found = items(sentence, question.kind, detect(sentence))
    if len(asked) >= 2:
        return found
    # Chinese is tagged per sentence, so compare by containment: "湖南省" in the question covers "湖南".
    return {i for i in found if not any(i in a or a in i for a in asked)}


def can_answer(
    question: Question,
    sentence: str,
    weights: Mapping[str, float] | None = None,
    min_coverage: float | None = None,
    context: str = "",
) -> bool:
    """The gate's per-sentence test: holds an item of the asked kind (not one the question names) AND covers
    enough key terms (KEY_COVERAGE of the language, or `min_coverage`) AND names what the question names (in the
    sentence or its `context`: the sentence before it, the document's title)."""
    threshold = KEY_COVERAGE.get(question.language, 0.5) if min_coverage is None else min_coverage
    if key_coverage(question, sentence, weights) < threshold:
        return False
    if not anchors_found(question, f"{context} {sentence}"):
        return False
    return question.kind not in FACTOID_KINDS or bool(new_items(question, sentence))
