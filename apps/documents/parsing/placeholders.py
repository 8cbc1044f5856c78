"""Metadata that names nothing: a title or an author a template, a program or a file left in the document's
properties ("标准名称" from a Chinese standard's Word template, "Microsoft Word - draft3.docx", "Document1",
"elegantpaper", "Administrator", "XXX").

A title is a placeholder when it names a file, a program or a template, is made only of generic words ("Title",
"Thesis Template", "硕士学位论文"), or appears nowhere in the document's opening text (a template's title that the
author never changed is not printed on the page). The parsers then use the heading on the first page instead and
mark it as guessed.
"""

from __future__ import annotations

import re

from .textutil import normalise_for_match

# A file name or a path ("8763205.dvi", "C:\\thesis\\main.tex"), a typesetter's job id ("pone.0115884 1..14").
_FILE_RE = re.compile(
    r"\.(?:dvi|pdf|docx?|dotx?|rtf|odt|tex|indd|qxd|ps|txt|pages|wpd|pptx?|xlsx?)$|\d+\.\.\d+$|^[a-z]:\\", re.I
)
# What a program writes when nobody gave a title: "Microsoft Word - report.docx", "Document1", "Untitled-3",
# "Word Document", "新建 Microsoft Word 文档", "无标题", "<%Title%>", "{{title}}", "$title$", "[Title]",
# "Click here to enter text.", a DOI or a URL.
_PROGRAM_RE = re.compile(
    r"^microsoft (?:word|powerpoint|excel)\s*-|^(?:document|doc|untitled|presentation|book|文档|演示文稿)[\s_-]*\d*$|"
    r"^(?:microsoft )?(?:word|powerpoint|excel|wps) (?:document|presentation|文档)$|新建.*文档|^无标题|^未命名|"
    r"^<%.*%>$|^\{\{.*\}\}$|^\$[\w-]+\$$|^\[[^\]]+\]$|click here|insert (?:the )?title|type (?:the )?title|"
    r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?10\.\d{4,9}/\S+$|^https?://",
    re.I,
)
# Names of templates and document classes, kept as they are spelled ("elegantpaper", "IEEEtran", "…LaTeX模板").
_TEMPLATE_RE = re.compile(
    r"template|模板|模版|\blatex\b|\bxelatex\b|elegant(?:paper|book|note)|ieeetran|elsarticle|revtex|llncs|"
    r"acmart|\bthesis class\b|样式文件",
    re.I,
)


# Words of a title that says only what kind of document it is.
def _words(text: str) -> frozenset[str]:
    """A word list written as one string (the lists below read as prose rather than as 50 quoted items)."""
    return frozenset(text.split())


_GENERIC_WORDS = _words(
    """title subtitle heading name template sample example demo test draft untitled document doc file paper
    article manuscript report thesis dissertation master masters bachelor bachelors doctoral phd undergraduate
    graduate degree final project proposal standard class latex word style guide new my the a an of for and
    in on your here contents index"""
)
_GENERIC_CJK = re.compile(
    r"标准名称|论文题目|目录|目次|文档标题|报告标题|中文题目|英文题目|题目|标题|名称|文档|模板|模版|样例|示例|范例|"
    r"(?:本科|硕士|博士|研究生|毕业|学位|课程|开题)*(?:学位)?(?:论文|设计|报告)|作者|请输入|此处|在此|的"
)
MIN_SHARE = 0.5  # share of a title's words (or CJK characters) the opening text must hold for it to be printed
MIN_TEXT = 200  # opening text shorter than this (a scanned cover) cannot tell whether a title is printed


def is_placeholder_title(title: str, opening_text: str | None = None) -> bool:
    """Whether `title` (from a file's properties) names nothing: a file, a program, a template, generic words only,
    or (given the document's `opening_text`, its first pages) words that are not printed there."""
    title = title.strip()
    if not re.search(r"[^\W\d_]{3}|[\u3400-\u9fff]{2}", title):
        return True
    if _FILE_RE.search(title) or _PROGRAM_RE.search(title) or is_generic_title(title):
        return True
    if opening_text is None or len(opening_text) < MIN_TEXT:
        return False
    printed = _printed(title, opening_text)
    return not printed or (bool(_TEMPLATE_RE.search(title)) and printed < 1.0)


def is_generic_title(title: str) -> bool:
    """Whether `title` says only what kind of document it is ("MASTER THESIS", "Title", "硕士学位论文") or which
    template made it ("elegantpaper", "Thesis Template", "LaTeX模板")."""
    rest = _GENERIC_CJK.sub(" ", _TEMPLATE_RE.sub(" ", title))
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", rest)]
    return all(w in _GENERIC_WORDS for w in words)


def _printed(title: str, text: str) -> float:
    """How much of `title` is in `text`: 1.0 when it is there whole (spacing and punctuation ignored), else the
    share of its words (CJK: characters) found there, 0.0 below MIN_SHARE."""
    key, haystack = normalise_for_match(title), normalise_for_match(text)
    if key and key in haystack:
        return 1.0
    units = [w.lower() for w in re.findall(r"[^\W\d_]{3,}", title) if not re.match(r"[\u3400-\u9fff]", w)]
    units += re.findall(r"[\u3400-\u9fff]", title)
    if not units:
        return 1.0
    share = sum(1 for u in units if normalise_for_match(u) in haystack) / len(units)
    return share if share >= MIN_SHARE else 0.0


# Account and machine names producers write into the author field; they are nobody's name.
_PLACEHOLDER_AUTHORS = _words(
    """admin administrator anonymous author authors default guest microsoft office owner unknown user users windows
    lenovo dell hp asus acer pc 作者 用户 微软用户 管理员 匿名 佚名 未知"""
)
_FILLER_RE = re.compile(r"^(?:[xX×＊*]+|某+|[xX]+某+)$")  # "XXX", "某某"


def is_placeholder_author(author: str) -> bool:
    """Whether an author field names nobody: empty, no letters, an account name ("Administrator", "Microsoft
    Office User", "Windows 用户") or a filler ("XXX", "作者")."""
    words = [w.lower() for w in re.findall(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*", author)]
    if not words or all(len(w) == 1 and w.isascii() for w in words):
        return True  # "C", "i": an initial alone names nobody
    return all(w in _PLACEHOLDER_AUTHORS or _FILLER_RE.match(w) for w in words)


# "πππ", "***", "———": one glyph repeated (not "III" or "000", which are words and numbers).
_DECORATION_RE = re.compile(r"(?:^|\s)([^\sA-Za-z0-9])\1{2,}(?=\s|$)")


def clean_guessed_title(text: str) -> str:
    """A title read off a page without the decoration set in the same type (a run of one repeated glyph)."""
    return re.sub(r"\s+", " ", _DECORATION_RE.sub(" ", text)).strip()
