"""Which sentences may be claims (issue 15, "Claims are sentences"): a claim is a whole sentence, never a heading,
a title, a keyword line, an affiliation, a figure label, a fragment or an ellipsis cut.

Each test is about the shape of the text, in English and Chinese alike, not about particular examples:

- ellipsis: ".." anywhere (a cut quote, a dot leader of a table of contents, a marker removed after "et al."), or
  a text that starts or ends with "…";
- figure label: a caption's label ("Figure 3.", "Table 2:", "图 3-1", "表2") followed by no sentence of its own;
- title / heading: the document's title, or one of the chunk's headings, or nearly so; or a short unterminated
  line that is numbered like a heading ("2.1 Study design", "第二章 …") or set in title case;
- keywords: a line labelled so ("Keywords:", "关键词："), or a run of three or more short terms separated by
  commas or semicolons with nothing in it that makes a clause (no auxiliary, modal, pronoun or relative word);
- affiliation: the front matter of a paper: an institution with its address, an e-mail, correspondence, dates of
  receipt, a licence, a byline of names with affiliation numbers;
- fragment: no sentence end (a list item or a list's lead-in excepted), a start in the middle of a sentence
  (lower case, or CJK punctuation that continues something), an unbalanced bracket or quote (a cut), or too
  few words to say anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from apps.documents.parsing.sentences import LIST_ITEM, cjk_count, is_list_item
from apps.documents.parsing.textutil import normalise_for_match

# The reasons non_claim_reason() gives, so callers can count or log them.
REASONS = ("heading", "title", "keywords", "affiliation", "figure label", "fragment", "ellipsis")

_ELLIPSIS = re.compile(r"\.\s?\.|^\s*…|…\s*$")
# The source's own citation markers and closing marks may follow a sentence's end: "… (Box 1) [2].", "…了。”".
_MARKER = r"\s*(?:\[\d[\d,;\s–-]*\]|\(refs? [\d,;\s–-]+\)|【\d+】)"
_MARKERS = rf"(?:{_MARKER})*"
_CLOSERS = r"[\"'”’」』）)\]》]*"
# A claim ends a sentence; a list's lead-in ends with a colon, a Chinese clause with "；".
_SENTENCE_END = re.compile(rf"(?:[.!?。！？；;:：]){_CLOSERS}{_MARKERS}{_CLOSERS}\s*$")
_CJK_END = re.compile(rf"[。！？；]{_CLOSERS}{_MARKERS}\s*$")
_CAPTION = re.compile(
    r"^\s*(?:(?:Supplementary\s+|Suppl\.\s+|Extended\s+Data\s+)?(?:Fig(?:ure)?s?\.?|Table|Scheme|Chart|Plate|Box|"
    r"Appendix|Exhibit)\s*S?\d+[A-Za-z]?(?:[.\-–]\d+)*|[图表]\s*S?\d+(?:[.\-–]\d+)*)(?P<rest>.*)$",
    re.I | re.S,
)
_NUMBERED_HEADING = re.compile(
    r"^\s*(?:\d+(?:\.\d+)+\.?|[IVX]+\.|第[一二三四五六七八九十百\d]+[章节部分篇条]|[一二三四五六七八九十]+、)\s*[^\W\d_]"
)
_KEYWORD_LABEL = re.compile(
    r"^\s*(?:key\s*words?|index\s+terms|subject\s+terms|abbreviations|关键词|关键字)\s*[:：]", re.I
)
# Words that make a clause in English: where one is, the commas separate parts of a sentence, not terms.
_CLAUSE_WORD = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|do|does|did|can|could|may|might|will|would|shall|should|"
    r"must|we|i|you|he|she|it|they|this|these|those|that|which|who|whom|whose|there|not)\b",
    re.I,
)
_PAST_PARTICIPLE = re.compile(r"^[a-z]{2,}ed$")
_TERM_SEPARATORS = re.compile(r"\s*[,;，；、·•|]\s*")
_KEYWORD_TERM_WORDS, _KEYWORD_TERM_CJK = 5, 12  # longer than this is a phrase of a sentence, not a term
_INSTITUTION = re.compile(
    r"\b(?:Department|Dept\.|University|Universit[éày]|Universidad|Universität|Institute|Institut|School of|"
    r"College|Hospital|Laborator(?:y|ies)|Centre|Center|Faculty|Division of|Academy|Clinic)\b"
    r"|大学|学院|研究所|研究院|研究中心|医院|实验室|重点实验室|公司"
)
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
_FRONT_MATTER = re.compile(
    r"\w@\w|©|\bORCID\b|通讯作者|收稿日期|作者简介|基金项目"
    r"|^\s*\*?\s*(?i:Correspond(?:ence|ing author)|E-?mail|Received|Accepted|Published(?: online)?|Revised"
    r"|Citation|Copyright|Edited by|Academic Editor)\s*(?:[:：]|\s+\d"
    rf"|\s+{_MONTH}\s+\d)|\b(?:Open Access|RESEARCH ARTICLE)\b"
    r"|(?:\b[A-Z][a-z]+(?: [A-Z]\.)?(?: [A-Z][a-z]+)+\s?(?:\d+|\*)(?:,\d+)*\*?,\s*){2}"  # "Ross Barnett1,9*, …"
)
_AFFILIATION_WORDS = 30  # an affiliation with its address is a line or two
_POSTAL = re.compile(r"\b\d{5,6}\b|\b[A-Z]{1,2}\d{1,2} ?\d[A-Z]{2}\b")
# Tokens that start in lower case but start a sentence all the same: "pH", "mRNA", "iPSCs", "p53", "eIF4E".
_LOWER_START_WORD = re.compile(r"^[a-z][a-z]*(?:[A-Z0-9])")
_CJK_CONTINUATION = "，、；：。！？）」』”’》"
_PAIRS = ("()", "[]", "“”", "「」", "『』", "《》", "【】")
_SAME_BRACKETS = str.maketrans("（）［］", "()[]")
# An inline enumerator has a closing bracket only: "assigned to 1) diet, 2) exercise", "a) 安全策略".
_INLINE_ENUMERATOR = re.compile(
    r"(?:^|[\s,;，；：:\-•])(?:\d{1,2}|[a-zA-Z]|[ivx]{1,4}|[一二三四五六七八九十]{1,3})[)）]$"
)
_MIN_WORDS, _MIN_CJK = 3, 3  # fewer says nothing a reader can check ("Yes.", "见上。"); "尾发达。" does
_NEAR_SAME = 0.85  # a sentence this similar to a title or heading is that title or heading


# A source's own reference markers as the chunk or the service writes them ("[12]", "[3, 4]", "[5–7]", "(ref 12)").
# References are numbered from 1: "[0, 1]" is an interval ("scores in [0, 1]"), and removing it broke the sentence.
_SOURCE_MARKER = re.compile(r"\s*(?:\[|\(ref )\s*[1-9]\d{0,2}(?:\s*[-–,;]\s*[1-9]\d{0,2})*\s*[\])]")
_MARKER_BETWEEN_STOPS = re.compile(rf"\.(?:{_SOURCE_MARKER.pattern})+\s*\.")


def without_source_markers(text: str) -> str:
    """`text` without the source's own reference markers, which would read as our badges. A marker between an
    abbreviation's full stop and the sentence's ("et al. [12].", "etc. (ref 3).") leaves one full stop, not ".."."""
    text = _MARKER_BETWEEN_STOPS.sub(".", text)
    return _SOURCE_MARKER.sub("", text)


def non_claim_reason(
    sentence: str, *, title: str = "", section: str = "", heading_path: Sequence[str] = ()
) -> str | None:
    """None when `sentence` can stand as a claim, else why not (one of REASONS).

    `title` is the document's title, `section` and `heading_path` the headings of the chunk the sentence is from:
    a sentence that repeats one of them is that title or heading, not a claim."""
    text = " ".join(sentence.split())
    if not text:
        return "fragment"
    if _ELLIPSIS.search(text):
        return "ellipsis"
    if _is_figure_label(text):
        return "figure label"
    ended, listed = bool(_SENTENCE_END.search(text)), is_list_item(text)
    # A sentence that only nearly equals the title may be the paper's conclusion restating it; a line does not.
    if title and _same_text(text, title, nearly=not ended):
        return "title"
    if any(_same_text(text, heading, nearly=not ended) for heading in (section, *heading_path) if heading):
        return "heading"
    if _is_front_matter(text):
        return "affiliation"
    if is_keyword_line(text):
        return "keywords"
    if not ended and (_NUMBERED_HEADING.match(text) or (not listed and _title_case(text))) and len(text) <= 120:
        return "heading"
    if _is_fragment(text, ended, listed):
        return "fragment"
    return None


def _plain(text: str) -> str:
    """The text without its source markers, enumerator and end punctuation, for comparing with titles."""
    text = re.sub(_MARKER, "", text)
    return normalise_for_match(re.sub(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+", "", text))


def _same_text(text: str, other: str, nearly: bool = True) -> bool:
    a, b = _plain(text), _plain(other)
    if not a or not b or a == b:
        return bool(a) and a == b
    if not nearly:
        return False
    # Nearly equal: a title with its subtitle cut, a heading with a word of the chunk glued on.
    shorter, longer = sorted((a, b), key=len)
    if shorter in longer and len(shorter) >= _NEAR_SAME * len(longer):
        return True
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return (
        matcher.real_quick_ratio() >= _NEAR_SAME
        and matcher.quick_ratio() >= _NEAR_SAME
        and matcher.ratio() >= _NEAR_SAME
    )


def _is_figure_label(text: str) -> bool:
    """A caption's label, alone or with the caption's title after it; "Figure 3 shows that …" is a sentence."""
    match = _CAPTION.match(text)
    if not match:
        return False
    rest = match["rest"].strip()
    if not rest or rest[0] in ".:：|—–-":
        return True
    # "Table 2 Baseline characteristics" (no verb, no end) is a label; "图3显示了…。" and "Table 2 lists …." are not.
    return not _SENTENCE_END.search(rest) and not _CLAUSE_WORD.search(rest)


def is_keyword_line(text: str) -> bool:
    """A line labelled as keywords, or a run of three or more short terms (see the module docstring)."""
    if _KEYWORD_LABEL.match(text):
        return True
    body = re.sub(rf"(?:{_MARKER})+\s*$", "", text).rstrip(" .。;；")
    terms = [t for t in _TERM_SEPARATORS.split(body) if t]
    if len(terms) < 3 or _CLAUSE_WORD.search(body):
        return False
    cjk = cjk_count(body) > len(body) / 3
    if _CJK_END.search(text):
        return False  # "包括A、B、C。": a sentence that lists things
    if not cjk and _SENTENCE_END.search(text) and (len(terms) < 4 or len(body.split()) > 3 * len(terms)):
        return False  # a terminated English line is a keyword line only when it is a long run of short terms
    if not cjk and any(_PAST_PARTICIPLE.match(w) for t in terms for w in t.split()[1:]):
        return False  # "Obesity, smoking, hypertension increased risk": a verb inside a term
    too_long = _KEYWORD_TERM_CJK if cjk else _KEYWORD_TERM_WORDS
    if any((len(t) if cjk else len(t.split())) > too_long for t in terms):
        return False
    # A sentence's list ends "…, and C" / "…或C"; a keyword line does not join its last term.
    return not re.match(r"(?:and|or|as well as|与|和|及|或)\b", terms[-1], re.I)


def _is_front_matter(text: str) -> bool:
    if _FRONT_MATTER.search(text):
        return True
    if _CLAUSE_WORD.search(text) or _CJK_END.search(text) or len(text.split()) > _AFFILIATION_WORDS:
        return False
    # An affiliation names its institution first ("Department of …, University of …, Oxford OX1 3PS, UK",
    # "复旦大学计算机学院，上海 200433"), then its address; a sentence mentioning a university does not start so.
    parts = _TERM_SEPARATORS.split(re.sub(r"^\s*(?:\d{1,2}|[a-z*†‡§])\s*(?=\S)", "", text))
    return bool(_INSTITUTION.search(parts[0])) and (len(parts) >= 2 or bool(_POSTAL.search(text)))


def _title_case(text: str) -> bool:
    """Set like a heading: "Materials and Methods", "Results of the Pilot Study"."""
    words = re.findall(r"[^\W\d_][\w'’-]*", text)
    if not (1 <= len(words) <= 12) or cjk_count(text):
        return False
    minor = {
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "of",
        "on",
        "or",
        "the",
        "to",
        "vs",
        "with",
    }
    major = [w for w in words if w.lower() not in minor]
    return bool(major) and all(w[0].isupper() for w in major)


def _is_fragment(text: str, ended: bool, listed: bool) -> bool:
    """Unterminated, started mid-sentence, cut inside brackets or quotes, or too short; a list item may be
    unterminated and short ("a) 安全策略")."""
    if listed:  # an item needs words, not only its enumerator and numbers
        return _unbalanced(text) or not re.search(r"[^\W\d_]{2}", LIST_ITEM.sub("", text, count=1))
    if not ended or _starts_mid_sentence(text) or _unbalanced(text):
        return True
    # A Chinese character is about a word; a Latin word or a number counts one ("制作公司为Millennium Kitchen。": 7).
    han = len(re.findall(r"[^\W\d_A-Za-z]", text)) if cjk_count(text) else 0
    return han + len(re.findall(r"[A-Za-z0-9]+", text)) < (_MIN_CJK if han else _MIN_WORDS)


def _starts_mid_sentence(text: str) -> bool:
    first = re.sub(r"^(?:\s*[(（]\s*[)）])+", "", text).lstrip("\"'“‘([（ ")  # "（）为…": a name's empty brackets
    if not first:
        return True
    if first[0] in _CJK_CONTINUATION or first[0] in ",;:)]" or (first[0] == "." and not first[1:2].isdigit()):
        return True
    return first[0].islower() and not _LOWER_START_WORD.match(first)


def _unbalanced(text: str) -> bool:
    """A bracket opened and not closed, or closed and not opened (an inline enumerator "1)" aside), or an odd
    number of straight double quotes: the sentence was cut, or glued to the end of another."""
    text = text.translate(_SAME_BRACKETS)  # "(，自称：ulta）": a Chinese text may mix the two widths
    if all(text.count(o) == text.count(c) for o, c in _PAIRS) and text.count('"') % 2 == 0:
        return False  # the common case, without the scan below (a pair crossed like ")(" is rare enough)
    closing_of = {o: c for o, c in _PAIRS}
    stack: list[str] = []
    for i, ch in enumerate(text):
        if ch in closing_of and closing_of[ch] != ch:
            stack.append(closing_of[ch])
        elif ch in closing_of.values():
            if stack and stack[-1] == ch:
                stack.pop()
            elif not (ch in ")）" and _INLINE_ENUMERATOR.search(text[: i + 1])):
                return True
    return bool(stack) or text.count('"') % 2 == 1
