"""The kinds a question can ask for, and the question words (cues) that tell them, in Chinese and English.

`kind_and_rest()` tries each kind's cue in order (the first match wins) and cuts the cue out of the question, so
its key terms are taken from what is left (a cue carries no content). The other patterns are the words that only
ask (cut before key terms are taken), two questions in one, and a follow-up that only points back.
"""

from __future__ import annotations

import re

from apps.citations.answers.zh_tags import tagged

KINDS = ("number", "date", "person", "place", "organisation", "list", "definition", "how", "why", "yesno", "other")
FACTOID_KINDS = frozenset({"number", "date", "person", "place", "organisation"})
EXPLAIN_KINDS = frozenset({"definition", "how", "why"})

# --- question words ---------------------------------------------------------------------------------------------
# Each kind's cues, tried in order (the first match wins): a list cue before a bare "哪", an organisation noun
# before a place noun. The cue is cut out of the question before its key terms are taken (it carries no content).
_ZH_ORG_NOUNS = (
    r"(?:公司|集团|企业|组织|机构|大学|学校|学院|银行|团队|球队|俱乐部|政党|党派|部门|单位|厂商|品牌|媒体|报社|电视台)"
)
_ZH_PLACE_NOUNS = r"(?:国家|城市|省份?|地区|地方|州|县|市|城|岛|山|河|湖|洲|大陆|国)"
_ZH_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # "…分别用什么命令", "各个命令分别表示什么", "各级标题是什么": each of several things, asked at once.
    (
        "list",
        re.compile(
            r"有哪些|包括哪些|包含哪些|哪几[个种类项条点]|分别是|分别有|分别(?=[^，。？?]{0,3}(?:什么|哪))"
            r"|各[个种类项](?=[^，。？?]{0,8}(?:什么|哪))|列出|列举|哪些"
        ),
    ),
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
    # A duration ("多久", "多长时间") is an amount of time, not a date: before the date cue's bare "时间".
    ("number", re.compile(r"多久|多长时间")),
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
    ("why", re.compile(r"为什么|为何|(?:是?因为|由于|因)什么|什么原因|原因是|的原因|何故")),
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
            r"(?:^|[.?!]\s+)\s*(?:list|name|enumerate|give)\b|\bwhat\s+are\s+(?:the|all|some)\s+\w+(?:\s+\w+)?s\b"
            r"|\bwhich\s+\w+(?:\s+\w+)?\s+are\b|\bwhat\s+(?:steps|items|requirements|assumptions)\b",
            re.I,
        ),
    ),
    ("organisation", re.compile(rf"\b(?:which|what|whose)\s+{_EN_ORG_NOUNS}\b", re.I)),
    ("place", re.compile(rf"\bwhere\b|\b(?:which|what|in\s+what)\s+{_EN_PLACE_NOUNS}\b", re.I)),
    (
        "date",
        re.compile(
            # "When should you use …?", "when to …" ask for the circumstances, not a date.
            r"\bwhen\b(?!\s+(?:should|would|could|can|must|might|may|to)\b)"
            r"|\b(?:what|which)\s+(?:year|date|day|month|century|decade|time|period)\b|\bhow\s+long\s+ago\b",
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
# The nouns that name what kind of thing is asked for ("纳斯卡文明出现的地区是哪里", "the location of …"): like a
# number's unit they say nothing about whether a sentence is on the question (the answer "出现在秘鲁纳斯卡地区"
# and a sentence on another region hold 地区 alike), so they are no key terms of a question of that kind.
KIND_NOUNS = {
    "place": re.compile(r"国家|城市|省份|地区|地方|大陆|位置|地点|地址|\b(?:location|place|region|area)\b", re.I),
}
# Words that only ask (left over after the cue is cut): they are not terms an answer must share.
EN_QUESTION_WORDS = re.compile(
    r"\b(?:what|which|who|whom|whose|when|where|why|how|many|much|list|name|enumerate|give|kind|type|"
    r"sort|exactly|approximately|roughly|did|does|do|mean|called|known)\b",
    re.I,
)
ZH_QUESTION_WORDS = re.compile(
    r"什么|哪[个些里儿位一家种]?|谁|多少|几|怎么|怎样|如何|为什么|为何|是否|吗|呢|吧|请问|请|告诉我"
)
COMPOUND = re.compile(
    r",?\s+and\s+(?:what|where|who|when|how|which|why)\b|[？?]\s*\S.*[？?]|(?:以及|还有|并且|同时)(?:.*?)(?:什么|哪|谁|多少|几|如何|怎么|为什么)",
    re.I,
)
# A follow-up that only points back ("what are they?", "它们分别是什么") asks about the previous question's subject.
EN_ANAPHORA = re.compile(r"\b(?:they|them|those|these|it|its|their|this|that)\b", re.I)
ZH_ANAPHORA = re.compile(r"它们|他们|她们|这些|那些|其中|它|其|这个|那个|具体")

# Chinese words that carry no content: jieba's tags for particles, prepositions, conjunctions, pronouns,
# adverbs, modal and punctuation, and the copulas.
ZH_FUNCTION_FLAGS = ("u", "p", "c", "r", "y", "e", "o", "x", "w", "d", "q")


def is_function_flag(flag: str) -> bool:
    """Whether jieba's tag `flag` marks a word without content. By its first letters, as jieba's tags refine
    ("uj", "ul", "df"), except "eng", a Latin-letter word ("JabRef", "LaTeX"), which starts like "e" (an
    interjection) and is often the question's most telling term."""
    return flag != "eng" and flag.startswith(ZH_FUNCTION_FLAGS)


ZH_COPULAS = frozenset("是有为在叫被把让将和与及的了着过")


def _word_starts(text: str) -> set[int]:
    """Where jieba's words start in `text`."""
    starts, at = set(), 0
    for word, _ in tagged(text):
        starts.add(at)
        at += len(word)
    return starts


# A cue that starts inside a word is part of another word: "什么" inside "为什么" (why) is not "什么" + a place
# noun, nor "为什么" inside "称为 什么" (called what) why. A cue that starts with a question word itself is read even
# when jieba joins it to the word before ("设在哪里": 设在 / 哪里, "含有哪些"), and the search goes on after a cue
# inside a word, so "在哪里" inside "设在哪里" still finds "哪里".
_QUESTION_WORD_HEADS = "谁几哪多何"


def kind_and_rest(text: str, language: str) -> tuple[str, str]:
    """The kind, and the question with its cue cut out."""
    cues = _ZH_CUES if language == "zh" else _EN_CUES
    starts = _word_starts(text) if language == "zh" else None
    for kind, pattern in cues:
        at = 0
        while (match := pattern.search(text, at)) is not None:
            if starts is None or match.start() in starts or text[match.start()] in _QUESTION_WORD_HEADS:
                return kind, text[: match.start()] + " ， " + text[match.end() :]
            at = match.start() + 1
    return "other", text


_HOW_MANY = re.compile(r"(?:多少|几)\s*([个名位人次年岁种只座条场届本部项件家天倍对])?")


def counted_unit(text: str) -> str:
    """The unit a Chinese "how many" question counts (Question.unit): the classifier after 多少/几 when it names
    the thing ("多少种", "几届"), else the noun that follows ("几个等级" → 等级, "多少平方米" → 平方米); "" for none."""
    match = _HOW_MANY.search(text)
    if match is None:
        return ""
    classifier = match.group(1) or ""
    if classifier and classifier != "个":
        return classifier
    following = tagged(text[match.end() :])
    word, flag = following[0] if following else ("", "")
    # A noun, a measure word or a noun-like modifier (jieba tags 等级 "b"); not a verb or a function word.
    return word if flag[:1] not in "upcryeoxwdv" else ""
