"""Recognising the standard sections of a paper and how much each one counts: English and Chinese names, and the
names Portuguese, Spanish, French, German, Italian and Russian papers print for the sections reading relies on
(the reference list above all; an ABNT article's "Referências" is its list).

A section name is recognised from a heading, from a short block that is nothing but a section name
(PDFs without an outline), or from a run-in heading at the start of a paragraph ("Methods: We ...").
Numbering in front of the name ("2.", "2.1", "III.", "一、", "（二）", "第三章") is ignored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# canonical name -> aliases (already in normalised form: lowercase, single spaces, "&" spelled "and")
# fmt: off
_ALIASES: dict[str, tuple[str, ...]] = {
    "Abstract": (
        "abstract", "摘要", "内容摘要", "中文摘要", "内容提要", "提要",
        "resumo", "resumen", "résumé", "zusammenfassung", "kurzfassung", "riassunto", "sommario", "аннотация",
    ),
    "Keywords": (
        "keywords", "key words", "keyword", "index terms", "关键词", "关键字", "关 键 词",
        "palavras-chave", "palabras clave", "mots-clés", "mots clés", "schlüsselwörter", "schlagwörter",
        "parole chiave", "ключевые слова",
    ),
    "Introduction": (
        "introduction", "background", "backgrounds", "context", "引言", "前言", "绪论", "导言", "背景",
        "研究背景", "引 言",
        "introdução", "introducción", "einleitung", "einführung", "introduzione", "введение",
    ),
    "Objective": ("objective", "objectives", "aim", "aims", "purpose", "aims and objectives", "目的", "研究目的"),
    "Methods": (
        "methods", "method", "materials and methods", "material and methods", "methods and materials",
        "methodology", "experimental", "experimental section", "experimental procedures", "patients and methods",
        "subjects and methods", "study design", "methods and design", "design and methods", "materials and method",
        "方法", "材料与方法", "材料和方法", "研究方法", "资料与方法",
        "对象与方法", "实验方法",
    ),
    "Results": ("results", "result", "findings", "结果", "研究结果", "实验结果"),
    "Results and Discussion": ("results and discussion", "results and discussions", "结果与讨论", "结果与分析"),
    "Discussion": ("discussion", "discussions", "general discussion", "讨论", "分析与讨论"),
    "Conclusions": (
        "conclusion", "conclusions", "concluding remarks", "conclusions and future work", "summary and conclusions",
        "conclusion and future work", "conclusions and outlook", "结论", "结语", "总结", "结论与展望",
        "conclusão", "conclusões", "considerações finais", "conclusión", "conclusiones", "schlussfolgerungen",
        "fazit", "conclusioni", "заключение", "выводы",
    ),
    "Limitations": ("limitations", "limitations of the study", "study limitations", "局限性"),
    "Abbreviations": ("abbreviations", "list of abbreviations", "缩略语"),
    "Supplementary material": (
        "supplementary material", "supplementary materials", "supplementary information", "supporting information",
        "supplementary data", "additional files", "additional file", "electronic supplementary material",
        "补充材料", "附加材料",
    ),
    "Data availability": (
        "data availability", "data availability statement", "availability of data and materials",
        "data accessibility", "数据可用性",
    ),
    "Funding": ("funding", "funding information", "financial support", "grant information", "sources of funding",
                "funding statement", "基金", "基金项目", "资助"),
    "Author contributions": (
        "author contributions", "authors contributions", "authors' contributions", "author's contributions",
        "contributors", "credit authorship contribution statement", "作者贡献", "作者贡献声明",
    ),
    "Competing interests": (
        "competing interests", "competing interest", "conflict of interest", "conflicts of interest",
        "conflict of interests", "declaration of competing interest", "disclosure", "disclosures",
        "declaration of interests", "利益冲突", "利益冲突声明",
    ),
    "Acknowledgements": (
        "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "致谢", "鸣谢", "致 谢",
        "agradecimentos", "agradecimientos", "remerciements", "danksagung", "ringraziamenti", "благодарности",
    ),
    "References": (
        "references", "reference", "bibliography", "literature cited", "references and notes", "works cited",
        "cited literature", "literature", "参考文献", "参 考 文 献", "引用文献", "本文参考文献", "主要参考文献",
        "referências", "referências bibliográficas", "referencias", "referencias bibliográficas", "références",
        "références bibliographiques", "bibliographie", "bibliografia", "bibliografía", "literatur",
        "literaturverzeichnis", "riferimenti bibliografici", "список литературы", "литература",
    ),
    "Appendix": ("appendix", "appendices", "附录", "apêndice", "apéndice", "anexo", "annexe", "anhang", "appendice"),
}
# fmt: on

# Retrieval weight per canonical section (design: the reference list is kept for citations but never ranked). Hybrid
# search multiplies reciprocal-rank scores by these, and those are flat (1/61 for rank 1, 1/70 for rank 10), so a
# weight must stay close to 1. Measured on SciFact (every document an abstract, so the label is noise there):
# nDCG@10 0.707 with no boost, 0.703 at 1.02, 0.696 at 1.05, 0.691 at 1.1 (the earlier 1.5 would be worse still).
# 1.05 lifts an abstract chunk over a body chunk ranked up to about three places above it, for
# papers, whose abstract states the findings an answer should cite.
# A reference list is never ranked: its entries are cited through the chain, and as passages they answer nothing.
# Declarations (acknowledgements, funding, competing interests, contributions) answer questions about the work
# itself ("Who funded the survey?") and nothing else: 0.9 lets them through only when they rank near the top (0.9 ×
# rank 1 is about rank 7). An appendix is the document's own content (NIST SP 800-223's "A.2. Virtualized and
# Containerized HPC Environments"): ranked as the body is. (Until 2026-12-03 all of these were 0.)
DECLARATION_WEIGHT = 0.9
# Declarations after the body: sections of their own, whatever size their heading is set in.
DECLARATIONS = frozenset({"Acknowledgements", "Funding", "Competing interests", "Author contributions"})
WEIGHTS: dict[str, float] = {
    "Abstract": 1.05,
    "References": 0.0,
    **dict.fromkeys(sorted(DECLARATIONS), DECLARATION_WEIGHT),
}
DEFAULT_WEIGHT = 1.0

# Sub-heads of a structured abstract: inside an abstract they do not end it.
ABSTRACT_PARTS = frozenset(
    {
        "Introduction",
        "Objective",
        "Methods",
        "Results",
        "Results and Discussion",
        "Discussion",
        "Conclusions",
        "Limitations",
    }
)
# Run-in names that open a structured abstract when no section has been seen yet (Hindawi's abstracts start
# "Introduction. Semen analysis is ..." well before the body's "1. Introduction").
ABSTRACT_OPENERS = frozenset(
    {"background", "objective", "objectives", "aim", "aims", "purpose", "context", "introduction", "目的", "背景"}
)

CANONICAL_NAMES = frozenset(_ALIASES)
_BY_ALIAS = {alias: name for name, aliases in _ALIASES.items() for alias in aliases}
# "Appendix A", "Appendix 2: Questionnaire", "附录一"
_APPENDIX_RE = re.compile(
    r"^(appendix|附录|apêndice|apéndice|anexo|annexe|anhang|appendice)\s*([a-z]|\d+|[一二三四五六七八九十]+)?\b",
    re.IGNORECASE,
)
_CN_NUM = "一二三四五六七八九十百零〇"
_NUMBER_PREFIX_RE = re.compile(
    r"^\s*(?:"
    r"\d+(?:\.\d+)*\.?\)?\s+"  # 2  2.  2.1  2.1.  2)
    r"|\d+(?:\.\d+)*\.?(?=[^\W\d_])"  # 2Methods / 2.Methods (no space after the number)
    r"|[IVXLC]+[.)]\s*"  # III. / IV)
    r"|[IVXLC]+\s+(?=[A-Z])"  # III RESULTS
    r"|[A-H][.)]\s+"  # A. / B)
    rf"|[{_CN_NUM}]+\s*[、.．]\s*"  # 一、
    rf"|[（(]\s*[{_CN_NUM}\d]+\s*[）)]\s*"  # （二） (3)
    rf"|第\s*[{_CN_NUM}\d]+\s*[章节部分篇]\s*"  # 第三章
    r"|§\s*\d+(?:\.\d+)*\s*"
    r")"
)
_TRAIL_RE = re.compile(r"[\s:：.．。\-–—]+$")
# Run-in heading: the name, then ":"/". "/a dash, or (Chinese) a full-width colon / space / bracket.
_BRACKETS = "[]【】〔〕"
_REMARK_RE = re.compile(r"\s*\([^()]{1,60}\)$")  # after NFKC, "（…）" is "(…)"
_CAPTION_RE = re.compile(
    r"^\s*(?:(?i:(?:Supplementary\s+|Suppl\.\s+|Extended\s+Data\s+)?(?:Fig\.|Figs\.|Figure|Table|Tab\.|Scheme|Plate))"
    r"\s*S?\d+[A-Za-z]?(?:\s*[.:|\-\u2013\u2014]|\s+[A-Z(\[\u201c\"]|\s*$)"
    r"|[图表]\s*\d+(?:[-.－]\d+)?)"
)


@dataclass(frozen=True)
class SectionMatch:
    name: str  # canonical name
    alias: str  # the normalised words that matched
    end: int  # for a run-in heading, where the body text starts; else len(text)


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("&", " and ").replace("/", " and ")
    text = re.sub(r"\s+", " ", text).strip().lower()
    return _TRAIL_RE.sub("", text)


def strip_numbering(text: str) -> str:
    """ "2.1 Study area" -> "Study area"; "（二）方法" -> "方法". Applied once; "2019 cohort" loses its year,
    which is why callers only use this to compare against known names."""
    return _NUMBER_PREFIX_RE.sub("", text, count=1)


def canonical_section(text: str) -> SectionMatch | None:
    """The canonical section when the whole text is a section name (numbering and a trailing colon ignored)."""
    if len(text) > 80:
        return None
    key = normalise(strip_numbering(text))
    key = key.strip("".join(_BRACKETS)).strip()
    name = _BY_ALIAS.get(key) or _BY_ALIAS.get(key.replace(" ", ""))
    # A remark in brackets after the name: "本文参考文献（反向引用页码是设定backref = true 产生的）".
    remark = _REMARK_RE.sub("", key)
    name = name or (_BY_ALIAS.get(remark) if remark != key else None)
    if name:
        return SectionMatch(name, key, len(text))
    if _APPENDIX_RE.match(key) and len(key) <= 60:
        return SectionMatch("Appendix", key, len(text))
    return None


def inline_section(text: str) -> SectionMatch | None:
    """A run-in heading at the start of a paragraph: "Methods: We recruited ...", "Competing interests The
    authors ...", "摘要：本文 ...". Without a colon or dash the rest must be a sentence of 20+ characters."""
    body = strip_numbering(text)
    offset = len(text) - len(body)
    lead = body.lstrip("".join(_BRACKETS))
    offset += len(body) - len(lead)
    if lead[:1].islower():
        return None  # "limitations. These limitations are ..." goes on with a sentence from the column before
    low = unicodedata.normalize("NFKC", lead[:60]).replace("\u2019", "'").lower()
    for alias in _ALIASES_LONGEST_FIRST:
        if not low.startswith(alias):
            continue
        rest = lead[len(alias) :]
        # IEEE sets its run-in heads with a closed-up em dash: "Abstract—Reward functions ...".
        m = re.match(r"\s*[\]】〕]?\s*(?:[:：]|\.\s|\s[-–—]\s|[-–—]\s|—(?=[A-Z]))\s*", rest)
        min_rest = 3  # "Keywords: a, b" is a run-in heading however short the rest
        if m is None and is_han(alias[-1]):
            m = re.match(r"\s+", rest)  # "摘要 本文": never without a gap ("方法学" is not "方法")
            min_rest = 6
        if m is None:
            # No punctuation: the body must visibly start a new sentence ("Methods Twenty patients ..."); a
            # digit is not enough ("Reference 5 shows").
            m = re.match(r"\s+(?=[A-Z\u201c\"(\[])", rest)
            min_rest = 20
        if m is None:
            continue
        start = offset + len(alias) + m.end()
        if len(text) - start >= min_rest:
            return SectionMatch(_BY_ALIAS[alias], alias, start)
    return None


_ALIASES_LONGEST_FIRST = sorted(_BY_ALIAS, key=len, reverse=True)


def section_weight(name: str) -> float:
    return WEIGHTS.get(name, DEFAULT_WEIGHT)


# What reference entries are made of: years, "et al", journal abbreviations, volumes and pages, DOIs and arXiv
# identifiers (the reference parser's signals, apps/citations/refparse, read the same way). An arXiv identifier
# counts twice, its name and its number, as "doi:10.1103/…" does: physics lists cite many works by it alone
# ("[5] D. B. Franzosi and F. Sannino, arXiv:1506.04392."), old-style ones too ("hep-ph/0001025").
REFERENCE_SIGNAL = re.compile(
    r"\b(?:1[6-9]|20)\d{2}[a-z]?\b|\bet al\b|\bJ\.|\bProc\.?\b|\bvol\.|\bpp\.|\bdoi\b|10\.\d{4,}/|Journal|Conference|"
    r"\bIn:|Press\b|\d+\s*\(\d+\)|\d+\s*[:,]\s*\d+\s*[-\u2013]\s*\d+|"
    r"\barXiv\b|(?<=arXiv:)\s?\d{4}\.\d{4,5}|\b(?:hep-(?:ph|th|ex|lat)|astro-ph|gr-qc|nucl-(?:th|ex)|quant-ph|cond-mat)/\d{7}\b",
    re.IGNORECASE,
)
# Signals per 100 characters from which a passage reads as reference entries. Measured on the 11 JATS papers: the
# chunks of F1000's reference columns interleaved with its declarations run 0.9–1.8, those mixing acknowledgement
# and entries 0.57–0.74; declarations alone 0–0.22 (the MDPI, BMC, Hindawi and PMC papers).
REFERENCE_DENSITY = 0.5


def reads_as_references(text: str) -> bool:
    """Whether `text` is mostly reference entries (a two-column layout that put part of the reference list under
    a declaration heading: "Acknowledgements" followed by "Carey AF, Wang G, … et al.: … 2008; 3(8): e3045.")."""
    return len(REFERENCE_SIGNAL.findall(text)) * 100 >= REFERENCE_DENSITY * max(1, len(text))


def is_caption(text: str) -> bool:
    """ "Figure 1. ...", "Fig. 2 ...", "Table 3 Baseline ...", "图1 ...", "表 2-1 ..." at the start of a block.
    "Table 1 shows ..." (lower case after the number) is body text that mentions a table, not a caption."""
    return bool(_CAPTION_RE.match(text))


def is_han(ch: str) -> bool:
    """A Chinese character (CJK unified ideographs and extension A), which headings may run on without a space."""
    return "\u3400" <= ch <= "\u9fff"
