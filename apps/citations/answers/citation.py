"""The citation object (design.md, "A citation, as every surface sees it"): built in one place, from a search hit,
and serialised the same way for the page, the API, the SSE stream, the CLI and MCP."""

from __future__ import annotations

import hashlib
import re
from copy import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from apps.documents.parsing.sentences import paragraphs, split_sentences
from apps.retrieval.keyword.analyzer import query_terms, terms
from apps.retrieval.search.hits import CONTENT_CHARS
from apps.retrieval.search.types import ChunkSource, SearchHit

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
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


@dataclass
class Citation(ChunkSource):
    n: int  # display number in its answer, 1.. in order of first use
    citation_id: str
    quote: str  # the sentence(s) of the chunk that support the claim
    citations_out: list[dict] = field(default_factory=list)  # deep answers: the evidence's own references
    ocr: bool = False  # the quoted text was recognised by OCR on a scanned page: the card says so

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def citation_id(document_id: int, chunk_id: int, occurrence: int = 0) -> str:
    """Six base-36 characters from a hash of document, chunk and occurrence: short, stable within an answer."""
    value = int.from_bytes(hashlib.sha256(f"{document_id}:{chunk_id}:{occurrence}".encode()).digest()[:8], "big")
    chars = []
    for _ in range(6):
        value, digit = divmod(value, 36)
        chars.append(_BASE36[digit])
    return "".join(chars)


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


# A quote holds the whole sentence it backs: as long as the longest sentence an extractive answer takes (600),
# twice the card's `content` excerpt (CONTENT_CHARS), so a card never cuts the very words the answer repeats.
QUOTE_CHARS = 2 * CONTENT_CHARS


def best_quote(chunk_text: str, target: str, max_chars: int = QUOTE_CHARS) -> str:
    """The sentence of the chunk that shares the most terms with `target` (a claim or the question), extended by
    its best neighbour while it fits; the start of the chunk when nothing is shared."""
    parts = sentences(chunk_text)
    if not parts:
        return ""
    wanted = set(query_terms(target))
    overlap = [len(wanted & set(terms(part))) for part in parts]
    best = max(range(len(parts)), key=lambda i: (overlap[i], -i))
    if overlap[best] == 0:
        best = 0
    quote = parts[best]
    neighbours = sorted((i for i in (best - 1, best + 1) if 0 <= i < len(parts)), key=lambda i: -overlap[i])
    for i in neighbours:
        if overlap[i] and len(quote) + 1 + len(parts[i]) <= max_chars:
            quote = f"{parts[i]} {quote}" if i < best else f"{quote} {parts[i]}"
            break
    return quote if len(quote) <= max_chars else quote[: max_chars - 1].rstrip() + "…"


def from_hit(hit: SearchHit, n: int, quote: str, occurrence: int = 0) -> Citation:
    """The citation numbered `n` for a search hit, quoting `quote` (one of the chunk's sentences).

    Ingest sets a page only where the source has pages (PDF), so a card shows one only when it is real."""
    shared = {f.name: copy(getattr(hit, f.name)) for f in fields(ChunkSource)}
    # The chunk's own heading, glued to its first sentence, is not quoted.
    quote = without_label(without_heading(quote, hit.section, hit.heading_path))
    return Citation(
        **shared,
        n=n,
        citation_id=citation_id(hit.document_id, hit.chunk_id, occurrence),
        quote=quote,
        citations_out=list(hit.citations_out),
        ocr=hit.ocr,
    )
