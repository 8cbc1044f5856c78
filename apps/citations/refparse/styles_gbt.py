"""GB/T 7714 (the Chinese national standard for reference lists): the grammar of one entry.

    作者. 题名[J]. 刊名, 年, 卷(期): 页码.          余雄庆. 飞机总体…方向[J]. 南京航空航天大学学报, 2008(04): 417-426.
    作者. 书名[M]. 出版地: 出版者, 年: 页码.         陈登原. 国史旧闻: 第 1 卷[M]. 北京: 中华书局, 2000: 29.
    作者. 题名[C]//编者. 文集名. 出版地: 出版者, 年.  Deng J, Dong W, et al. IMAGENET: …[C]//. 2010.
    作者. 题名[EB/OL]. (更新日期)[引用日期]. URL.

The bracketed type code ([M] [C] [N] [J] [D] [R] [S] [P] [G] [Z] [A] [CP] [DB] [EB], with "/OL" when online) ends
the title: it is what tells this family apart, in any script (Chinese, English, Japanese, Russian entries share
it). Authors are "SURNAME Initials" (LI Q, Deng J) or names in CJK, separated by commas and closed by ". "; an
entry without an author (a standard, a dictionary) starts with its title.
"""

from __future__ import annotations

import re

TYPE_CODE_RE = re.compile(r"\s?\[(?:M|C|N|J|D|R|S|P|G|Z|A|K|CP|DB|EB|CM|DS)(?:/(?:OL|MT|DK|CD))?\]")
# The author list ends at the first full stop (ASCII ". ", or the full-width "．" "。").
_AUTHORS_END_RE = re.compile(r"\.\s|[．。]\s?")
_NAME_INITIAL_RE = re.compile(r"(?:^|[.,，、]\s*|\band\s+)[A-Z]$|\b(?:Jr|Sr)$")
_ETAL_RE = re.compile(r"^(?:et al\.?|eds?\.|等|他|ほか|외|и др\.?|Jr\.?|Sr\.?)$", re.IGNORECASE)
_LATIN_NAME_RE = re.compile(
    r"^[A-Z\u00c0-\u00de\u0410-\u042f][\w'\u2019\-.]*(?:\s(?:[A-Z\u00c0-\u00de\u0410-\u042f][\w'\u2019\-.]*|of|and|for|the|on|de|des|du|van|von|der|la|le|&))*$"
)
# The year closing an author list in the author-year form: "(1975a)", "（c1980）", "(1957–1990)", ", 2018".
_NAMES_YEAR_RE = re.compile(
    r"(?:\s*[(（]c?((?:1[5-9]|20)\d{2})[a-z]?(?:[–-](?:1[5-9]|20)\d{2})?[)）]|[,，]\s*((?:1[5-9]|20)\d{2})[a-z]?)\s*$"
)
_YEAR_RE = re.compile(r"(?<!\d)((?:1[5-9]|20)\d{2})(?!\d)")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")  # with kana and Hangul


def is_gbt(text: str) -> bool:
    return bool(TYPE_CODE_RE.search(text))


def parse_gbt(text: str) -> dict | None:
    """{authors, first_author, title, venue, year} of a GB/T 7714 entry, or None when it does not read as one."""
    code = TYPE_CODE_RE.search(text)
    if not code:
        return None
    head, tail = text[: code.start()].strip(), text[code.end() :]
    authors, title, year = _split_head(head)
    title = title.strip(' .,:;\u201c\u201d"')  # caspervector quotes a contribution's title
    if len(title) < 2:
        return None
    year = year or _year(tail)
    return {
        "authors": authors,
        "first_author": authors[0] if authors else "",
        "title": title,
        # A journal or newspaper ([J], [N]) names its venue after the code; a book's tail is its publisher.
        "venue": _venue(tail) if code.group(0).strip()[1] in "JN" or tail.lstrip().startswith("//") else "",
        "year": year,
    }


def _split_head(head: str) -> tuple[list[str], str, int | None]:
    """(authors, title, year) of the part before the type code. With no full stop it is all title; with one, the
    part before the first stop that reads as an author list gives the authors ("U.S. Department …" is not cut at
    "U.S."). When no stop gives an author list, the title is unknown: rather none than one holding the authors.
    The author-year form puts the year after the names ("钟文发(1996)。", "Kennedy (1975a). ", "胡振震, 2018. ")."""
    # A stop after an initial that starts a name ("P. Kime", "and F. Charette", "D. R. Veblen") is not the end;
    # one after an initial that follows a surname ("LI Q.", "CARLSTROM C T.") is.
    # A stop right before the author-year's year ("Center, Inc. (2000).", "Yufin, ed. (2001).") is inside the names.
    stops = [
        m
        for m in _AUTHORS_END_RE.finditer(head)
        if not _NAME_INITIAL_RE.search(head[: m.start()]) and not re.match(r"[(（]c?\d{4}", head[m.end() :])
    ]
    if not stops:
        return [], head, None
    for m in stops:
        segment = head[: m.start()]
        dated = _NAMES_YEAR_RE.search(segment)
        names = _author_names(segment[: dated.start()] if dated else segment)
        if names is not None:
            return names, head[m.end() :].strip(), int(dated.group(1) or dated.group(2)) if dated else None
    return [], "", None


def _author_names(segment: str) -> list[str] | None:
    """Surnames (Latin) or whole names (CJK) of the author list, or None when the segment is not one (then the
    entry starts with its title). An organisation as author ("中国职工教育研究会", "World Health Organization")
    counts as one name."""
    parts = [p.strip() for p in re.split(r"[,，、;；]\s*|\s+and\s+", segment) if p.strip()]
    if not parts or len(segment) > 300:
        return None
    names = []
    for part in parts:
        if _ETAL_RE.match(part):
            continue
        part = re.sub(r"\s+(?:et al\.?|ed\.|eds\.)$", "", part)  # "M. Kawahito et al", "S. A. Yufin, ed."
        if _CJK_RE.search(part):
            if len(part) > 30 or re.search(r"[:：]", part):
                return None
            names.append(part)
            continue
        if not _LATIN_NAME_RE.match(part) or len(part.split()) > 8:
            return None
        words = part.split()
        # "LI Q", "Deng J", "CARLSTROM C T": the surname comes first, the initials after it.
        if len(words) > 1 and all(len(w) <= 2 for w in words[1:]):
            names.append(words[0])
        elif len(words) > 1 and all(re.fullmatch(r"(?:[A-Z]\.)+(?:-[A-Z]\.)?", w) for w in words[:-1]):
            names.append(words[-1])  # "P. Lehman", "D. R. Veblen": initials first (GB/T 7714-2005 styles)
        elif (initials := re.match(r"^(?:(?:[A-Z]\.)+(?:-[A-Z]\.)?\s)+(?=[a-z])", part)) is not None:
            names.append(part[initials.end() :])  # "D. J. des Marais": a surname with its particle
        else:
            names.append(part)
    return names or None


def _year(tail: str) -> int | None:
    """The year of publication is after the type code: "2008(04)", ", 2000: 29", "(2013-04-16)"; a bracketed
    access date "[2012-01-26]" is not it."""
    body = re.sub(r"\[\d{4}-\d{1,2}-\d{1,2}\]|https?://\S+", " ", tail)
    m = _YEAR_RE.search(body)
    return int(m.group(1)) if m else None


def _venue(tail: str) -> str:
    """The journal ([J]: up to its year or volume) or the host work of a "//" contribution; empty otherwise."""
    tail = tail.strip()
    if tail.startswith("//"):
        tail = tail[2:]
        host = re.split(r"[.．]\s", tail, maxsplit=2)
        venue = host[1] if len(host) > 1 and host[0] and len(host[0]) < 60 else host[0]
    elif tail.startswith((".", "．", "。")):
        venue = re.split(r"[,，]\s?(?:\d|\()|\s\d{4}", tail[1:].strip(), maxsplit=1)[0]
        if ":" in venue or "：" in venue:  # "北京: 中华书局": a publisher, not a venue
            return ""
    else:
        return ""
    venue = venue.strip(" .,:;")
    return venue if 2 <= len(venue) <= 120 else ""
