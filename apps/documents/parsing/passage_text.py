"""The sentences of a passage as answers quote them, and the text around them that is not the passage's own:
the heading a chunk starts with, a structured abstract's label. Documents' text utilities (issue 17), used by
answers (quotes, claims) and by the viewer (where a quote lies in its passage)."""

from __future__ import annotations

import re

from .sentences import paragraphs, split_sentences

# A full stop after these does not end a sentence: "et al.", "Fig.", "e.g.", "vs.", initials and genus
# abbreviations ("F. poae", "J. Smith"). Titles only as written ("Ms.", not the "MS." of "GC/MS.").
ABBREVIATION = re.compile(
    r"(?:\b(?:al|e\.g|i\.e|fig|figs|eq|eqs|vs|ca|approx|no|nos|ref|refs|cf|sp|spp|resp|vol|pp|etc)"
    r"|\b(?-i:Dr|Mr|Mrs|Ms|Prof)|(?<![\w.])[A-Za-z])\.$",
    re.I,
)
# A paragraph break always ends a sentence: a title or heading line has no full stop of its own.
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# The labels of a structured abstract ("BACKGROUND Vitamin D …", "Conclusions: We …") are not part of a claim.
# The several-word labels come first: "MAIN OUTCOME MEASURES" must not stop at "MAIN".
_LABEL_WORDS = (
    "methods and findings|methods and results|materials and methods|conclusions and relevance|main outcome measures?"
    "|principal findings|trial registration|study selection|data sources|data extraction|data synthesis"
    "|recent findings|study design|case presentation|key points|background|introduction|context|rationale"
    "|importance|significance|objectives?|aims?|purpose|design|setting|participants|patients|subjects|samples?"
    "|populations?|interventions?|exposures?|measurements?|outcomes?|methodology|methods?|results?|findings"
    "|interpretation|limitations|conclusions?|discussion|summary|funding|abstract"
)
# Further words joined by a comma, "and", "of" or "&": "DESIGN, SETTING, AND POPULATION", "PURPOSE OF REVIEW".
# Only joined words: "RESULTS DNA was…" keeps its acronym.
_LABEL_JOIN = r"(?:\s*,\s*(?:(?i:and)\s+|&\s+)?|\s+(?:(?i:and|of)|&)\s+)"
_LABEL_CAPITALS = re.compile(rf"^(?:{_LABEL_WORDS.upper()})(?:{_LABEL_JOIN}[A-Z]{{3,}})*\s*:?\s+(?=\S)")
# "Conclusion: we …", and IEEE's run-in "Abstract—The …" (an em or en dash, or a spaced hyphen).
_LABEL_WITH_COLON = re.compile(
    rf"^(?:{_LABEL_WORDS})(?:{_LABEL_JOIN}[a-z]{{3,}})*\s*(?::\s+|[—–]\s*|\s-{{1,2}}\s+)(?=\S)", re.I
)
# A Chinese structured abstract's label, only with its colon or brackets ("结果表明…" keeps its word).
_LABEL_ZH = re.compile(
    r"^\s*(?:[【\[]\s*(?:摘\s*要|目的|方法|结果|结论|背景)\s*[】\]]\s*[:：]?|(?:摘\s*要|目的|方法|结果|结论|背景)\s*[:：])\s*(?=\S)"
)
# A section of a structured abstract may follow the last one without a full stop ("… P=.02) CONCLUSION Among …").
# Not after a capital or a comma: "MAIN OUTCOME MEASURES" and "DESIGN, SETTING, AND PARTICIPANTS" are one label.
_LABEL_AHEAD = re.compile(rf"(?<![A-Z,])\s+(?=(?:{_LABEL_WORDS.upper()})(?:{_LABEL_JOIN}[A-Z]{{3,}})*\s*:?\s+[A-Z])")


def sentences(text: str) -> list[str]:
    """The sentences of `text` (whitespace collapsed), not split after abbreviations or a heading's number, and
    split at a paragraph break (unless a PDF put it inside a sentence) and before a structured abstract's label.
    The splitting itself is the documents' sentence splitter (pysbd, English and Chinese), so chunking and answers
    agree on what a sentence is."""
    parts = (part for block in paragraphs(text) for part in _LABEL_AHEAD.split(block))
    return [sentence for part in parts for sentence in split_sentences(part)]


def without_label(sentence: str) -> str:
    """The sentence without a structured abstract's label ("RESULTS Mice …", "Conclusion: we …", "Abstract—The
    …", "【结论】…")."""
    for label in (_LABEL_CAPITALS, _LABEL_WITH_COLON, _LABEL_ZH):
        if head := label.match(sentence):
            return sentence[head.end() :]
    return sentence


def heading_prefix(section: str, heading_path: list[str]) -> re.Pattern | None:
    """A chunk's text often starts with its heading ("2. Results and Discussion The volatile…")."""
    names = sorted({h.strip() for h in [section, *heading_path] if h and h.strip()}, key=len, reverse=True)
    if not names:
        return None
    # "Conclusion" and "Conclusions" alike; only when a new sentence follows ("Results showed …" keeps its word).
    alternatives = "|".join(re.escape(name[:-1] if name.endswith("s") else name) for name in names)
    return re.compile(rf"(?:\d+(?:\.\d+)*\.?\s*)?(?:{alternatives})s?\s*[:.]?\s+(?=(?-i:[A-Z0-9]))", re.I)


def without_heading(text: str, section: str, heading_path: list[str]) -> str:
    """`text` (a chunk, or one of its sentences) without the section heading it starts with ("2. Results and
    Discussion The …"), whitespace collapsed within paragraphs and the paragraph breaks kept for sentences()."""
    text = "\n\n".join(" ".join(paragraph.split()) for paragraph in _PARAGRAPH_BREAK.split(text.strip()))
    if (headings := heading_prefix(section, heading_path)) and (head := headings.match(text)):
        return text[head.end() :]
    return text
