"""Grammars of the reference styles whose title cannot be found by "the first sentence after the authors".

- Year after the authors (ACL, ACM acmart, Elsevier Harvard, APA, NIST): "Riaz Ahmad and Muhammad Tanvir
  Afzal. 2018. Title. Venue.", "Bosch, J.M., 1979. Title. Venue 108, 29–37.", "Wei, H., & Li, Z. (2019, July).
  Title. In Venue.", "INTEL (2024) What Is a GPU? Available at …". The year closes the author list, so the
  authors need not be recognised name by name: the title is the sentence after the year.
- Comma style (APS/REVTeX, elsarticle numeric, IEEE without quotes): "C. H. Bennett, The thermodynamics of
  computation—a review, Int. J. Theor. Phys. 21, 905 (1982)." The title runs to the comma before the venue,
  found from the publication data that follows it (volume and pages, "(Publisher, 1996)", ", in:", a URL).
- Small-capital authors (LNCS, old ACM): "AHO, A. V., SETHI, R., AND ULLMAN, J. D. Title. Venue". The
  extracted capitals carry glyph debris ("HRIT¸CU", "GENEV`ES", "BAN ÂTRE") that no name pattern of mixed case
  reads; the list is read as capitals, initials and AND.
Each returns None when its grammar does not fit, and the generic reading is used.
"""

from __future__ import annotations

import re

_PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "del", "dos", "y", "bin", "al", "st"}
# English words that join a title's or an organisation's words, never a person's name.
_TITLE_WORDS = {"of", "the", "for", "in", "on", "to", "with", "from", "by", "a", "an", "into", "at", "its"}
# A name is capitalised words (no full stop: "Learning." ends a sentence, not a name) or initials ("J.M", "J.-P.").
_INITIALS = r"(?:[A-Z]\.-?){0,3}[A-Z]\.?"
_NAME_TOKEN_RE = re.compile(
    rf"^(?:[\u02c7\u02d8`]?[A-Z\u00c0-\u00de][\w'\u2019\-\u00c0-\u024f\u0300-\u036f\u02c7\u02d8`\u00b8]*|{_INITIALS})$"
)
_YEAR_AFTER_AUTHORS_RE = re.compile(
    r"^(?P<auth>.{2,700}?)(?:[.,]\s+|\s+\((?:[A-Z][a-z]{2,8}\.?(?:\s\d{1,2}(?:\s?[-\u2013]\s?\d{1,2})?)?,?\s)?|\s+)"
    r"(?P<year>(?:1[6-9]|20)\d{2}[a-z]?)(?P<more>,\s*[A-Za-z][^)]{0,25})?"
    r"(?:\)\.?|\.)\s+(?P<rest>\S.*)$"
)
_ORG_RE = re.compile(r"^[A-Z][A-Z0-9&.'\u2019\- ]{1,60}$")  # "INTEL", "NETWORK TIME FOUNDATION", "RED HAT"
_SEP_RE = re.compile(r"\s*,\s*(?:and\s+|&\s+)?|\s+and\s+|\s*&\s*")
_ETAL_RE = re.compile(r"\s*,?\s*et\s+al\.?\s*$")
_EDITORS_RE = re.compile(r"\s*\((?:[Ee]ds?)\.?\)\s*$")  # "Jacques Cohen (Ed.). 1996. Special issue: …"
_ABBREV = {
    "al",
    "vs",
    "eds",
    "ed",
    "sp",
    "spp",
    "nov",
    "var",
    "e.g",
    "i.e",
    "st",
    "no",
    "vol",
    "jr",
    "dr",
    "mr",
    "ms",
    "inc",
    "co",
}
_QUOTED_START_RE = re.compile(r"^[\u201c\"](.+?)[,.]?[\u201d\"]")


def name_list(segment: str) -> list[str] | None:
    """Surnames of an author list written with full names, initials or as an organisation, or None when the
    segment is not an author list (then a year after it does not make it one)."""
    segment = _EDITORS_RE.sub("", _ETAL_RE.sub("", segment.strip().rstrip(",")))
    if segment.endswith(".") and not re.search(r"(?:^|[\s.\-])[A-Z]\.$", segment):
        segment = segment[:-1]  # the full stop closing the list, not an initial's
    if not segment:
        return None
    if _ORG_RE.match(segment):
        return [segment]
    names = []
    for piece in _SEP_RE.split(segment):
        piece = piece.strip().lstrip("/")  # "/&": an ampersand escaped in the source
        if not piece or piece in ("...", "\u2026"):  # APA's ellipsis for the authors left out
            continue
        tokens = piece.split()
        if not 1 <= len(tokens) <= 6:
            return None
        inner = tokens[1:-1]  # "Cheng xiang Zhai": a lower-case given-name part between two capitalised ones
        if not all(
            _NAME_TOKEN_RE.match(t) or t.lower() in _PARTICLES or (t in inner and t.isalpha() and len(t) <= 8)
            for t in tokens
        ):
            return None
        names.append(tokens)
    if not names:
        return None
    if any(_is_initials(t) for tokens in names for t in tokens) and any(
        t in _TITLE_WORDS for tokens in names for t in tokens[1:-1]
    ):
        # People named with initials, then "Mayfield Handbook of Technical and Scientific Writing": the title run
        # on, not more names. An organisation alone keeps its "of" ("University of Chicago Press. 2017. …").
        return None
    surnames = []
    for i, tokens in enumerate(names):
        if all(_is_initials(t) for t in tokens):
            continue  # the initials of "Surname, A. B." that the comma split from their surname
        if i + 1 < len(names) and all(_is_initials(t) for t in names[i + 1]):
            surnames.append(" ".join(tokens))  # "Surname, A." / "Von Gadow, K.": the surname comes first
            continue
        words = [t for t in tokens if not _is_initials(t) and t.lower() not in _PARTICLES]
        surnames.append(words[-1] if words else tokens[-1])
    return surnames or None


def _is_initials(token: str) -> bool:
    return bool(re.fullmatch(_INITIALS, token)) or (token.isupper() and len(token) <= 3 and token.isalpha())


_CAP_CHARS = "A-Z\u00c0-\u00de"
_CAPS_NAME = (
    rf"[{_CAP_CHARS}][{_CAP_CHARS}'\u2019`\u00b8\u0300-\u036f\-]+(?:\s[{_CAP_CHARS}][{_CAP_CHARS}'\u2019`\u00b8\-]*)*"
)
_CAPS_AUTHOR = rf"({_CAPS_NAME}),\s(?:[{_CAP_CHARS}]\.\s?-?){{1,4}}"
# Names joined by commas and "AND", or by semicolons (ABNT NBR 6023: "WILSON, P.; MADSEN, L. Title.").
_CAPS_LIST_RE = re.compile(rf"^(?:{_CAPS_AUTHOR}(?:\s*[,;])*\s*(?:AND\s+)?)+")


def caps_authors(text: str) -> dict | None:
    """Authors and title of an entry whose author list is set in capitals ("AHO, A. V., AND ULLMAN, J. D.",
    "WILSON, P.; MADSEN, L.")."""
    m = _CAPS_LIST_RE.match(text)
    if not m:
        return None
    authors = [re.sub(r"^AND\s+", "", a) for a in re.findall(_CAPS_AUTHOR, m.group(0))]
    title, after = cut_sentence(text[m.end() :])
    if not authors or not title:
        return None
    return {"authors": authors, "title": title, "after": after}


_VANCOUVER_NAME_RE = re.compile(
    rf"^(?:(?:van|von|de|der|den|da|di|du|la|le|del|dos)\s)*[{_CAP_CHARS}][\w'\u2019\-]+(?:\s[{_CAP_CHARS}][\w'\u2019\-]+)?"
    r"\s[A-Z]{1,4}$"
)
_COLON_LIST_RE = re.compile(r"^([^:.()\d]{3,600}?):\s+(\S.*)$")  # no year or bracket before the colon


def colon_after_authors(text: str) -> dict | None:
    """BMC's "Furlan AD, Pennick V, …, Editorial Board, Cochrane Back Review Group: Title. Venue 2009, 34:1929."
    The colon closes the author list, which may hold a group author the name patterns do not read; most of its
    names are "Surname INITIALS"."""
    m = _COLON_LIST_RE.match(text)
    if not m:
        return None
    pieces = [p.strip() for p in re.split(r",\s*", m.group(1)) if p.strip()]
    names = [p for p in pieces if _VANCOUVER_NAME_RE.match(p)]
    if not pieces or not _VANCOUVER_NAME_RE.match(pieces[0]) or len(names) < 0.6 * len(pieces):
        return None
    title, after = cut_sentence(m.group(2))
    if not title:
        return None
    return {"authors": [n.rsplit(" ", 1)[0] for n in names], "title": title, "after": after}


def year_after_authors(text: str) -> dict | None:
    """Authors, year and title of an entry whose author list is closed by its year."""
    m = _YEAR_AFTER_AUTHORS_RE.match(text)
    if not m:
        return None
    authors = name_list(m.group("auth"))
    if authors is None:
        return None
    quoted = _QUOTED_START_RE.match(m.group("rest"))  # Frontiers: "(1995). “Title,” in Book, ed …"
    if quoted:
        title, after = quoted.group(1).strip(" ,."), m.group("rest")[quoted.end() :].lstrip(" ,.")
    else:
        title, after = cut_sentence(m.group("rest"))
    if not title:
        return None
    return {"authors": authors, "year": int(m.group("year")[:4]), "title": title, "after": after}


_LEAD_YEAR_RE = re.compile(
    r"^(?P<lead>(?:[^()]|\([A-Z][A-Z&\-]{1,10}\)){3,200}?)\.?\s+\((?P<year>(?:1[6-9]|20)\d{2})[a-z]?\)\.?\s+(?P<rest>\S.*)$"
)
_ACRONYM_RE = re.compile(r"^\([A-Z][A-Z&\-]{1,10}\)$")  # "(FHWA)" after an organisation's name


def year_after_lead(text: str) -> dict | None:
    """An author-year entry whose lead is no person's name: an organisation in capitalised words ("Federal
    Highway Administration (FHWA) (1991). Evaluating scour at bridges. Rep., …"), or, with no author, the title in
    the author's place as APA and ASCE put it ("Lotus 1-2-3 reference manual; release 2.01 (1985). Lotus
    Development Corp."). A lead that is neither, or an organisation's next sentence that starts with no word
    ("Federal Register (1988). 33(No. 146; …)"), gives nothing: rather no title than a wrong one."""
    m = _LEAD_YEAR_RE.match(text)
    if not m:
        return None
    lead, year = m.group("lead").strip(), int(m.group("year"))
    tokens = lead.split()
    if re.search(r"(?:^|\s)[A-Z]\.", lead) or "," in lead:
        return None  # initials or commas: a list of names the name grammars could not read
    lower = [t for t in tokens if t[0].islower() and t.lower() not in _PARTICLES | _TITLE_WORDS | {"and", "&"}]
    if len(tokens) >= 3 and len(lower) >= 2:
        return {"year": year, "title": lead, "after": m.group("rest")}
    organisation = 2 <= len(tokens) <= 10 and all(
        t[0].isupper() or t in _TITLE_WORDS | {"and", "&"} or _ACRONYM_RE.match(t) for t in tokens
    )
    title, after = cut_sentence(m.group("rest"))
    # The title is followed by its venue or publisher: "Deep Learning (2016). MIT Press." is a title-cased title
    # before its publisher, not an organisation's work called "MIT Press".
    if organisation and not re.search(r"\d", lead) and title[:1].isalpha() and after:
        return {"authors": [lead], "year": year, "title": title, "after": after}
    return None


_YEAR_FIRST_RE = re.compile(r"^((?:1[6-9]|20)\d{2})[a-z]?\.\s+(?=\S)")


def year_first(text: str) -> dict | None:
    """ACM's entries with no author, whose year comes first ("2019. CHI ’19: Proceedings of … (Glasgow). ACM.")."""
    m = _YEAR_FIRST_RE.match(text)
    if not m:
        return None
    title, after = cut_sentence(text[m.end() :])
    return {"year": int(m.group(1)), "title": title, "after": after} if title else None


def cut_sentence(text: str) -> tuple[str, str]:
    """The text up to the first sentence end that is not an abbreviation or an initial, and the rest. A "?" or
    "!" ending stays in the title ("What Is a GPU?")."""
    for m in re.finditer(r"[.?!](?=\s|$)", text):
        word = text[: m.start()].rsplit(" ", 1)[-1]
        before = word.lstrip("([{\u201c\"'")  # "(L. Johnson)": an initial inside brackets
        ordinal_edition = before == "ed" and re.search(r"\d(?:st|nd|rd|th)\s+ed$", text[: m.start()])
        if m.group(0) == "." and (len(before) <= 1 or before.lower() in _ABBREV) and not ordinal_edition:
            continue
        head = text[: m.start()]
        if head.count("(") > head.count(")"):
            continue  # inside brackets: "(1st. ed.)", "(Nov. 1996)"
        end = m.end() if m.group(0) in "?!" else m.start()
        return text[:end].strip(), text[m.end() :].strip()
    return "", ""


# Publication data after a comma-style title: volume and pages, "(Publisher, City, 1996)", "(2008)", a URL.
_DATA_RE = re.compile(
    r"\s\d+\s*(?:\(\d+[\-\u2013]?\d*\))?\s*,\s*[A-Za-z]?\d+"  # "21, 905" / "20 (1), 70" / "75, 126001"
    r"|\s\d+\s*\(\d+\)"  # "15 (3)"
    r"|\s\d+\s*\((?:1[6-9]|20)\d{2}\)"  # "5 (1961)"
    r"|,\s*(?:vol\.|Vol\.|pp\.|no\.|pages\s)"
    r"|,\s*(?:1[6-9]|20)\d{2}[a-z]?\s*[.,]"
)
_BOOK_RE = re.compile(
    r"\s\((?:[^()]*,\s*)?(?:1[6-9]|20)\d{2}\)|,\s*(?:in:?|In:?|edited by)\s|,\s*(?:https?://|arXiv|doi)"
)


def comma_title(rest: str) -> tuple[str, str] | None:
    """(title, venue) of the part after a comma-closed author list, or None when no publication data is found."""
    book = _BOOK_RE.search(rest)
    data = _DATA_RE.search(rest)
    if data and (not book or data.start() < book.start()):
        head = rest[: data.start()]
        cut = head.rfind(", ")
        title, venue = (head[:cut], head[cut + 2 :]) if cut > 0 else (head, "")
        # "Title. Publisher, City": a sentence end inside ends the title (abbreviated venues have no ". X"
        # before their last comma, so "review, Int. J. Theor. Phys." is cut at the comma, not at "Int.").
        sentence, after = cut_sentence(title)
        if sentence and after:
            title, venue = sentence, after
        elif cut <= 0:
            return None
        if len(venue) > 90 or len(title) < 8:
            return None
        return title.strip(' ,.\u201c\u201d"'), venue.strip(" ,.")
    if not book:
        # One sentence and nothing after it: the title alone ("…, Identifying key users …: a PageRank based
        # approach."); one ending in a number is a venue and volume run on ("…, Frontiers in … 5.").
        title, after = cut_sentence(rest)
        ok = title and not after and len(title) >= 8 and not title[-1:].isdigit()
        return (title, "") if ok else None
    if book:
        title = rest[: book.start()].strip(" ,.")
        if book.group(0).lstrip(", ").startswith(("http", "arXiv", "doi")):
            title = _drop_publisher(title)
        return (title, "") if len(title) >= 8 else None
    return None


def _drop_publisher(title: str) -> str:
    """ "Shelling out: The origins of money, Satoshi Nakamoto Institute" before a URL: a last comma part of a few
    capitalised words names the site or publisher, not the title."""
    head, _, last = title.rpartition(", ")
    words = last.split()
    if head and 1 <= len(words) <= 5 and all(w[:1].isupper() for w in words):
        return head
    return title


# biblatex's and Chicago's default: the first author "Surname, Given Names", the others "Given Names Surname", the
# list closed by a full stop ("Knuth, Donald Ervin. The TEXbook. Addison–Wesley, 1986."; "Lunde, Ken and Adobe
# Staff. Title. …"). A given name is written out (initials alone are the grammars above).
_WORD = r"[A-Z\u00c0-\u00de][\w'\u2019\-]+"
_GIVEN = rf"(?:{_WORD}|[A-Z]\.)"
_FAMILY = rf"(?:{_WORD}\s)?{_WORD}"  # "Knuth", "Le Carré"
_GIVENS = rf",\s(?={_WORD}){_GIVEN}(?:\s{_GIVEN}){{0,3}}"  # ", Donald Ervin", ", Tom A."
_SURNAME_GIVEN = _FAMILY + _GIVENS
_FIRST_FULL = rf"(?P<first>{_FAMILY}){_GIVENS}"
_FAMILY_FIRST_RE = re.compile(rf"({_FAMILY}),")
# The others "Given Names Surname" (biblatex) or "Surname, Given Names" again (asmeconf.bst: "Gibson, Tom A. and
# Tucker, Matthew A."); an editor's "(ed.)" may close the list, and so may the full stop of a last initial.
_OTHER_FULL = rf"(?:{_SURNAME_GIVEN}|{_GIVEN}(?:\s{_GIVEN}){{0,3}}\s{_WORD})"
_FULL_NAMES_RE = re.compile(
    rf"^{_FIRST_FULL}(?P<others>(?:(?:,\s(?:and\s)?|\sand\s|\s?&\s){_OTHER_FULL})*)"
    r"(?:,?\s(?:and others|et al\.?))?(?:\s\((?:eds?|Eds?)\.\)|,\s(?:eds?|trans)\.)?(?:\.|(?<=\.))\s+(?P<rest>\S.*)$"
)
# Chinese authors outside GB/T's type codes: names of two to four characters joined by "&", "、" or commas, then a
# full stop ("张胜涛 & 王忆波. 方正飞腾 4.0 实用培训教程. 清华大学出版社, 2005.").
_CJK_NAMES_RE = re.compile(
    r"^(?P<names>[\u4e00-\u9fff\u00b7]{2,5}(?:\s*[,，、&]\s*[\u4e00-\u9fff\u00b7]{2,5}){0,7})"
    r"(?:\s*[,，]?\s*等)?\s*[.．。]\s*(?P<rest>\S.*)$"
)


def full_name_authors(text: str, *, one_given_first: bool = False) -> dict | None:
    """Authors and title of an entry whose author list is written with full given names, first author surname
    first (biblatex, Chicago), or a list of Chinese names. `one_given_first`: the list writes its names given name
    first, so one name alone ("Scott Pakin. The Comprehensive LaTeX Symbol List.") is read that way too."""
    if m := _FULL_NAMES_RE.match(text):
        others = [
            o.group(1) if (o := _FAMILY_FIRST_RE.match(name)) else name.split()[-1]
            for name in re.findall(_OTHER_FULL, m.group("others"))
        ]
        authors = [m.group("first"), *others]
    elif m := _CJK_NAMES_RE.match(text):
        authors = [n.strip() for n in re.split(r"[,，、&]", m.group("names")) if n.strip()]
    else:
        return _given_names_first(text, one=one_given_first)
    rest = m.group("rest")
    if quoted := _QUOTED_START_RE.match(rest):  # asmeconf.bst quotes its titles
        return {"authors": authors, "title": quoted.group(1).strip(" ,."), "after": rest[quoted.end() :].lstrip(" ,.")}
    title, after = cut_sentence(rest)
    return {"authors": authors, "title": title, "after": after} if title else None


def _given_names_first(text: str, *, one: bool = False) -> dict | None:
    """BibTeX plain's "Arthur Buchsbaum and Jean-Yves Béziau. Title. Venue, 1997.": full names given name first, up
    to the first sentence end. One name alone is taken only with a middle initial ("Richard A. Shore"), or when
    the list writes its names that way (`one`): a two-word title in capitals ("Deep Learning. MIT Press") reads
    like a name too."""
    segment, rest = cut_sentence(text)
    pieces = [p.strip() for p in _SEP_RE.split(_ETAL_RE.sub("", segment)) if p.strip()]
    if not pieces or not rest or any(len(p.split()) < 2 for p in pieces) or _ORG_RE.match(segment):
        return None
    if len(pieces) == 1 and not (one or re.search(r"\s[A-Z]\.(?:\s|$)", pieces[0])):
        return None
    authors = name_list(segment)
    if authors is None:
        return None
    title, after = cut_sentence(rest)
    return {"authors": authors, "title": title, "after": after} if title else None
