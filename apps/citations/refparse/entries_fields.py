"""Parse one reference entry's text into DOI, year, authors' surnames, title and venue.

Covers the common styles: Vancouver ("Feeny D, Berkes F. Title. Hum Ecol. 1990;18:1-19."), BMC ("… Larson G:
Title. Venue 2014, 5:1-9."), APA/Frontiers ("Boitani, L., and Ciucci, P. (1995). Title. Venue 7, 49-72."),
MDPI ("Langseth, W.; Bernhost, A. Title. Venue 1990, 103, 1-9."), IEEE/Hindawi ("T. Rokkas, and S. D. Ladas,
“Title,” Venue, vol. 3, 2010.") and ACM ("A. Aho, R. Sethi, and M. Lam. Title. In Venue, 2006."). The grammars
of GB/T 7714 (styles_gbt.py), of author lists closed by a year (ACL, acmart, Harvard, APA, NIST), by capitals
(LNCS) or by a comma (APS/REVTeX, elsarticle) are in entries_styles.py; they are tried first. A field that cannot
be told apart is left empty rather than guessed, and a title is dropped when it does not read as one.
"""

from __future__ import annotations

import re

from .entries_styles import (
    caps_authors,
    colon_after_authors,
    comma_title,
    cut_sentence,
    full_name_authors,
    year_after_authors,
    year_after_lead,
    year_first,
)
from .entries_titles import ARXIV_ID_RE, is_sane_title
from .styles_gbt import is_gbt, parse_gbt

_DOI_RE = re.compile(r"\b10\.\d{4,9}/\S+")
_DOI_BROKEN_RE = re.compile(r"(\b10\.\d{4,9}/\S*[-/.])\s+(?=[\w(])")  # a DOI cut at a line end
_SURNAME = r"(?:(?:van|von|de|der|den|da|di|du|la|le|del|dos|De|Van|Von|Di|Da|Le|La|St\.)\s){0,2}"
# At least two letters: "M.S. thesis" is a degree, not M. S.
_SURNAME += r"[A-Z\u00c0-\u00de][\w'\u2019\-\u00c0-\u024f]+(?:[\s\-][A-Z][a-z\u00e0-\u024f'\u2019\-]+)?"
_CAP = "A-Z\u00c0-\u00de"  # initials may carry diacritics ("Á.", "Ü.")
_INITIALS_DOTTED = rf"(?:[{_CAP}]\.\s?-?\s?){{1,4}}"
_INITIALS_FIRST = rf"(?:[{_CAP}][a-z]?\.\s?-?\s?|[{_CAP}]\s(?={_SURNAME},)){{1,4}}"
# A name's suffix: "A. J. Arduengo III,", "G. P. Berman, Jr. and"; a lone "V" only before a comma (below).
_SUFFIXES = r"Jr\.?|Sr\.?|III|II|IV"
# "and" may follow initials whose space the name already took ("Gibson, T. A. and Tucker, M. A.").
_SEP = r"(?:\s*(?:,|;)\s*(?:(?:and|AND)\s+|&\s+)?|\s*(?:and|AND)\s+|\s*&\s*)"
# One author in each family of styles; the style that reads the longest run of authors wins.
_AUTHOR_STYLES = {
    # "Gallego JÁ", "Hughes A-M"
    # ... and with dotted initials after the surname, no comma between ("Bussmann-Holder A., Melnyk R. S.,": CMP)
    "vancouver": re.compile(
        rf"({_SURNAME})\s(?:[A-Z][a-z]?\.(?:\s?[A-Z][a-z]?\.)*|[{_CAP}](?:-?[{_CAP}]){{0,3}})(?=[\s,.:;(])"
    ),
    "comma_initials": re.compile(rf"({_SURNAME})(?:\s(?:{_SUFFIXES}))?,\s?{_INITIALS_DOTTED}"),
    # IOP's spaced initials "Cooper L N and Schrieffer J R 1957", read only where a name, "and" or the year follows
    # (a capital after one initial may start the title: "Smith J A novel method").
    "spaced": re.compile(
        rf"({_SURNAME})\s[{_CAP}](?:\s[{_CAP}]){{0,3}}(?=\s*(?:,|\band\b|&|(?:1[6-9]|20)\d{{2}}\b|et al))"
    ),
    # "C.S. Solanki", "Ch. Schubert", "Md.K. Mazeeruddin", and a bare capital before "Surname," ("L Cornel,")
    "initials_first": re.compile(rf"{_INITIALS_FIRST}\s?({_SURNAME})(?=[\s,.:;])"),
}
# ... also after the initials: "Lienhard, J. H., V, 2019".
_SUFFIX_RE = re.compile(rf",?\s(?:{_SUFFIXES}|V(?=,))(?=[\s,.;:])")
_ET_AL_RE = re.compile(r"\s*,?\s*(?:et al\.?|and others|\.\.\.)", re.IGNORECASE)
_YEAR_PAREN_RE = re.compile(r"\((\d{4})[a-z]?(?:-\d{2}(?:-\d{2})?)?\)")  # "(1995)", "(2017-01-10)"
# The astronomy and physics author-year form: the year straight after the last initial ("Harris, W. E., & van den
# Bergh, S. 1984, AJ, 89, 1816", "Rudnick, G. et al., 2003, ApJ"), before the closing page that looks like a year.
_YEAR_AFTER_INITIALS_RE = re.compile(r"(?:\b[A-Z]\.|\bal\.),?\s((?:1[6-9]|20)\d{2})[a-z]?[,.;:]")
_YEAR_END_RE = re.compile(r"[,.;:\s\(](\d{4})[a-z]?\)?\.?\s*$")
_YEAR_ANY_RE = re.compile(r"(?<![\d\-\u2013/.:])(\d{4})[a-z]?(?![\d\-\u2013/])")
_QUOTED_TITLE_RE = re.compile(r"[\u201c\"](.+?)[,.]?[\u201d\"]")
# A year (or "n.d.", or an open range "1987–") left between the names and the title.
_LEAD_YEAR_RE = re.compile(
    r"^\s*[.,:]?\s*(?:\((?:\d{4}[a-z]?|n\.d\.)(?:,\s*[A-Za-z][^)]{0,25})?\)|\d{4}[a-z]?[\u2013\-]?|n\.d\.)[.,:]?\s*"
)
# The ditto dash of IEEE/ACM lists ("——, “Title,” …"; when its glyph is not extracted only ", “Title,”" is left).
_DITTO_RE = re.compile(r"^\s*(?:[\u2014\u2013\u2012_\-]{2,}\s*[,.]?\s*|[,.]\s*(?=[\u201c\"])|[,.]\s+)")
# The entry of the author above whose rule the text layer lost, starting with what follows the names: "(2004)
# “Balanced …”", "ed. (2009) Mainstreaming Sex …" (econ.bst, Chicago author-date).
DITTO_YEAR_RE = re.compile(r"^\s*(?:eds?\.\s+)?\((?:\d{4}[a-z]?|n\.d\.)\)")
# NLM's medium designators after a title ("Who’s Certified [database on the Internet].", "[map]", "[dissertation]"):
# the words before one are the title, also where no author is named (Vancouver, ICMJE).
_MEDIUM = r"\[[a-z ]{0,30}\b(?:internet|map|cd-rom|dvd|dissertation|thesis|monograph|database|homepage|serial|letter|"
_MEDIUM += r"editorial|abstract|audiocassette|videocassette|computer program)\b[^\]]{0,40}\]"
_MEDIUM_TITLE_RE = re.compile(rf"^((?:[^\[\].]|\.(?!\s)){{3,200}}?)\s*{_MEDIUM}", re.IGNORECASE)  # "Cancer-Pain.org"
# A book known by its title, its editors after it (Nature, ACS): "N-Heterocyclic Carbenes in … (ed Glorius, F.)".
_EDITED_TITLE_RE = re.compile(r"^([^()]{3,200}?)\s\(eds?\.?\s")
_MEDIUM_TAIL_RE = re.compile(rf"\s*{_MEDIUM}$", re.IGNORECASE)
# The authors' role between their names and the title ("Foley KM, Gelband H, editors. Improving …", "Pagedas AC,
# inventor; Ancel Surgical R&D Inc., assignee. Flexible …", "Pratt B, Flick P, Vynne C, cartographers.").
_ROLE_RE = re.compile(
    r"^(?:(?:editors?|inventors?|cartographers?|compilers?|translators?|illustrators?|producers?|directors?)\b|eds?\."
    r"|\((?:eds?|editors?)\.?\))"
    r"(?:;.{0,80}?\bassignees?)?[.;,]?\s*",
    re.IGNORECASE,
)
# Chinese names (two to four characters each) closed by a full stop, then the title up to the next comma or stop:
# the informal Chinese form without GB/T type codes.
_CJK_NAME = r"[\u4e00-\u9fff]{2,4}"
_CJK_NAMES_TITLE_RE = re.compile(rf"^({_CJK_NAME}(?:[，,、]\s*{_CJK_NAME})*)[。.]\s*([^，,。]{{2,120}})[，,。]")
_AVAILABLE_RE = re.compile(r"^(.{3,240}?)\.?\s+Available\s+(?:online|at|from)\b", re.IGNORECASE)
_WEB_TITLE_RE = re.compile(r"^([^\s\u2014\-][^:/]{2,150}?)\.?\s+[-\u2013\u2014]\s+(?:https?://|www\.)\S+\.?$")
_LEADING_QUOTE_RE = re.compile(r"^\s*[\u201c\"](.+?)[,.]?[\u201d\"]")


def parse_doi(text: str) -> str:
    m = _DOI_RE.search(_DOI_BROKEN_RE.sub(r"\1", text))
    if not m:
        return ""
    doi = m.group(0).rstrip(".,;")
    if doi.endswith(")") and doi.count("(") < doi.count(")"):
        doi = doi[:-1]
    return doi


def parse_year(text: str, max_year: int = 2100) -> int | None:
    """Year of publication: "(1995)" in author-year styles, the closing year in IEEE styles, else the first
    standalone four-digit year (page ranges and DOIs are skipped)."""
    body = ARXIV_ID_RE.sub(" ", _DOI_RE.sub(" ", text))
    for rx in (_YEAR_PAREN_RE, _YEAR_AFTER_INITIALS_RE, _YEAR_END_RE):
        m = rx.search(body)
        if m and 1600 <= int(m.group(1)) <= max_year:
            return int(m.group(1))
    for m in _YEAR_ANY_RE.finditer(body):
        if 1600 <= int(m.group(1)) <= max_year:
            return int(m.group(1))
    return _preprint_year(text, max_year)


def _preprint_year(text: str, max_year: int) -> int | None:
    """The year an arXiv identifier was given in, when the entry prints no other."""
    m = ARXIV_ID_RE.search(text)
    if not m:
        return None
    new_style = m.group(1) is not None
    yy, mm = (int(g) for g in (m.group(1, 2) if new_style else m.group(3, 4)))
    if not 1 <= mm <= 12:
        return None
    year = 2000 + yy if new_style or yy < 91 else 1900 + yy
    return year if year <= max_year and (not new_style or year >= 2007) else None


# A collaboration named before its authors ("ATLAS Collaboration, G. Aad et al.,", "The CMS Collaboration,",
# "Planck Collaboration: Ade, P. A. R., …"): one author, not a surname "ATLAS Collaboration" with the initial "G.".
_GROUP_AUTHOR_RE = re.compile(
    r"^(?:The\s+)?((?:[A-Z][\w\-]*\s+){1,4}(?:Collaborations?|Consortium))\s*[,:;]\s*(?:and\s+)?"
)


def parse_authors(text: str) -> tuple[list[str], int]:
    """Surnames of the leading author list and where that list ends (0 when no author list was read)."""
    group = _GROUP_AUTHOR_RE.match(text)
    best: tuple[list[str], int] = ([group.group(1)], group.end()) if group else ([], 0)
    for rx in _AUTHOR_STYLES.values():
        names: list[str] = [group.group(1)] if group else []
        pos = group.end() if group else 0
        while True:
            m = rx.match(text, pos)
            if not m:
                break
            names.append(m.group(1).strip())
            pos = m.end()
            if suffix := _SUFFIX_RE.match(text, pos):
                pos = suffix.end()
            sep = re.compile(_SEP).match(text, pos)
            if not sep:
                break
            pos = sep.end()
        end = pos
        etal = _ET_AL_RE.match(text, end)
        if names and etal:
            end = etal.end()
        if len(names) > len(best[0]) or (names and len(names) == len(best[0]) and end > best[1]):
            best = (names, end)  # on a tie, the reading that took more of the names ("Zamfir N V", not "Zamfir N")
    return best


# Names given name first at a title's start: the author list ran on into it where the text layer glued "and" to the
# surname before ("N. D. Birelland P. C. W. Davies, Quantum Fields in Curved Space (…)"); the title follows them.
_LEADING_NAMES_RE = re.compile(r"^(?:(?:[A-Z]\.\s?-?){1,3}\s?[A-Z][\w'’\-]+,\s+(?:and\s+)?)+")


def parse_entry(text: str, previous_authors: list[str] | None = None, *, given_first: bool = False) -> dict:
    """{doi, year, authors, first_author, title, venue} for one entry's text (label already removed).
    `previous_authors` stands in for the IEEE/ACM ditto dash ("——, “Title,” …": the authors of the entry above);
    `given_first` says the entry's list writes names given name first (names_given_first)."""
    out = {
        "doi": parse_doi(text),
        "year": parse_year(text),
        "authors": [],
        "first_author": "",
        "title": "",
        "venue": "",
    }
    fields = _styled(text, previous_authors or [], given_first)
    if fields:
        out.update({k: v for k, v in fields.items() if k in out and v})
        out["first_author"] = out["authors"][0] if out["authors"] else ""
    title = str(out["title"])
    if (names := _LEADING_NAMES_RE.match(title)) and title in text:
        # Read again after the names, in the comma style such a list is written in.
        authors = out["authors"] if isinstance(out["authors"], list) else []
        again = _after_authors(text, text.index(title) + names.end(), authors, comma=True)
        out["title"], out["venue"] = again.get("title", ""), again.get("venue", "")
    out["title"] = _trim_title(out["title"])
    if not is_sane_title(out["title"], text, out["authors"]):
        out["title"] = out["venue"] = ""
    return out


def _styled(text: str, previous_authors: list[str], given_first: bool = False) -> dict | None:
    """The fields by the first grammar that fits: GB/T 7714 (its [J]/[M] type code), an author list closed by
    its year (ACL, ACM, Harvard, APA), a quoted title (IEEE), a comma-closed author list (APS, elsarticle), then
    "Authors. Title. Venue" (Vancouver, LNCS, ACM numeric)."""
    if is_gbt(text):
        return parse_gbt(text)
    ditto = _DITTO_RE.match(text)
    if ditto and previous_authors:
        return _after_authors(text, ditto.end(), previous_authors, comma=True)
    if (dated_ditto := DITTO_YEAR_RE.match(text)) and previous_authors:
        return _after_authors(text, dated_ditto.end(), previous_authors, comma=False)
    if cjk := _CJK_NAMES_TITLE_RE.match(text):  # "邓建松，彭冉冉，陈长松。LATEX 2ε 科技排版指南，科学出版社，2001。"
        return {"authors": re.split(r"[，,、]\s*", cjk.group(1)), "title": cjk.group(2).strip()}
    if web := _WEB_TITLE_RE.match(text):  # "SPECJVM98 - http://www.spec.org/jvm98/." (a web page, no author)
        return {"title": web.group(1).strip()}
    if quoted := _LEADING_QUOTE_RE.match(text):  # no author: the entry starts with its quoted title
        return {"title": quoted.group(1).strip(" ,."), "venue": _venue(text[quoted.end() :].lstrip(" ,."))}
    if dated_only := year_first(text):
        return {**dated_only, "venue": _venue(dated_only["after"])}
    if colon := colon_after_authors(text):
        return {**colon, "venue": _venue(colon["after"])}
    if capitals := caps_authors(text):
        return {**capitals, "venue": _venue(capitals["after"])}
    dated = year_after_authors(text)
    if dated:
        return {**dated, "venue": _venue(dated["after"])}
    authors, end = parse_authors(text)
    if not authors and (full := full_name_authors(text, one_given_first=given_first)):
        return {**full, "venue": _venue(full["after"])}
    if not authors and (medium := _MEDIUM_TITLE_RE.match(text) or _EDITED_TITLE_RE.match(text)):
        return {"title": medium.group(1).strip()}
    if not authors and (web := _AVAILABLE_RE.match(text)):
        # A web page with no author: its name before "Available online:", after an owner's name if one comes
        # first ("Pamplona City Council. Definition of Pamplona’s Smart City strategy. Available online: …").
        name = re.split(r"\.\s+(?=[A-Z])", web.group(1).strip())[-1].strip()
        owner = re.match(r"([A-Z]{3,})\s+(\S+)", name)  # "DOCKER Docker": the owner in capitals, then the name
        if owner and owner.group(1).lower() == owner.group(2).lower().rstrip(".,"):
            name = name[len(owner.group(1)) :].strip()
        return {"title": name}
    if not authors and (named_quote := _quoted_after_names(text)):
        return named_quote
    if not authors and (lead := year_after_lead(text)):
        return {**lead, "venue": _venue(lead["after"])}
    if not authors:
        return None
    if len(authors) == 1 and _NAME_GOES_ON_RE.match(text, end) and (full := full_name_authors(text)):
        # "Richard A. Shore and Leo A. Harrington." is no "Richard A." (Vancouver) whose title is "Shore and Leo A.
        # Harrington": two or more names given name first are that. One ("Donald E. Knuth. The TeXbook." beside
        # "Smith J. Cancer. Lancet …") reads both ways: no fields rather than a wrong title, unless its list says.
        return {**full, "venue": _venue(full["after"])} if len(full["authors"]) > 1 or given_first else {}
    if given_first and (one := full_name_authors(text, one_given_first=True)) and len(one["authors"]) == 1:
        return {**one, "venue": _venue(one["after"])}  # "Scott Pakin. The Comprehensive LaTeX Symbol List. CTAN"
    # The comma style: a comma closes the names, also after "et al." ("S. Chatrchyan et al., Observation of …,").
    comma = text[:end].rstrip().endswith(",") or text[end:].lstrip().startswith(",")
    return _after_authors(text, end, authors, comma=comma)


# Authors written "Surname, Given" joined by "and" (ASME's asmeconf.bst: "Ning, Xiang and Lovell, Mary Rose.").
_SURNAME_FIRST_RE = re.compile(r"^\s*([^\W\d_][\w'’\-]*(?: [^\W\d_][\w'’\-]*)?),\s*[^\W\d_]")
MAX_NAMES_CHARS = 300  # an author list is shorter than this; a quote further on is inside the venue or a note


def names_given_first(texts: list[str]) -> bool:
    """Whether a list writes its names given name first (BibTeX plain, lshort's "Donald E. Knuth. The TeXbook."):
    at least two of its entries read as two or more such names, and more than read as two or more names
    surname first ("Smith J, Jones K. …"); or it has only single authors, each read that way."""
    given = surname = 0
    for text in texts:
        full = full_name_authors(text)
        if full and len(full["authors"]) > 1:
            given += 1
        elif len(parse_authors(text)[0]) > 1:
            surname += 1
    if given >= 2 and given > surname:
        return True
    # A list of single authors ("Herbert Voß. Math mode. …", "Marion Post Wolcott. Natchez, Miss. …"): every entry
    # reads as one name given name first and none as a name the other grammars read ("Knuth DE. …").
    return len(texts) >= 2 and given == surname == 0 and all(_one_name_given_first(text) for text in texts)


def _one_name_given_first(text: str) -> bool:
    one = full_name_authors(text, one_given_first=True)
    return bool(one and len(one["authors"]) == 1 and not parse_authors(text)[0])


_NAME_GOES_ON_RE = re.compile(r"\s*[A-Z][\w'’\-]+(?:\.\s|,?\s+and\s)")  # "E." then "Knuth. " or "Shore and "


def _quoted_after_names(text: str) -> dict | None:
    """A quoted title after an author list no grammar above reads: the quote is the title (quotation marks are
    what such styles print around a title), the surnames are read where each name starts "Surname, Given"."""
    quoted = _QUOTED_TITLE_RE.search(text)
    if quoted is None or not 6 <= quoted.start() <= MAX_NAMES_CHARS:
        return None
    surnames: list[str] = []
    for piece in re.split(r"\s*(?:;|,?\s+and\s+|\s*&\s*)\s*", text[: quoted.start()].strip(" .,")):
        parts = [p.strip() for p in piece.split(",")]
        pairs = [", ".join(parts[i : i + 2]) for i in range(0, len(parts), 2)] if len(parts) % 2 == 0 else [piece]
        surnames += [m.group(1) for pair in pairs if (m := _SURNAME_FIRST_RE.match(pair))]
    if not surnames and quoted.start() > 80:
        return None  # a long unnamed lead-in is a note ("This is a note. … “Notes and References”."), not names
    return {
        "authors": surnames,
        "title": quoted.group(1).strip(" ,."),
        "venue": _venue(text[quoted.end() :].lstrip(" ,.")),
    }


def _after_authors(text: str, end: int, authors: list[str], comma: bool) -> dict:
    out = {"authors": authors}
    rest = text[end:]
    if role := _ROLE_RE.match(rest.lstrip(" ,")):
        # "editors." closes the names with a full stop, whatever their style; "eds.," goes on in the comma style.
        rest, comma = rest.lstrip(" ,")[role.end() :], comma and role.group(0).rstrip().endswith(",")
    if lead_year := _LEAD_YEAR_RE.match(rest):  # "Kern, U., 2021, “Extending …”" (ASME): the year is no name
        rest = rest[lead_year.end() :]
    quoted = _QUOTED_TITLE_RE.search(rest)
    if quoted and quoted.start() >= 6 and rest[: quoted.start()].count(",") >= 1:
        return out  # a quoted title further on: the author list was not read to its end, so no title is better
    if quoted and quoted.start() < 6:
        out["title"] = quoted.group(1).strip(" ,.")
        out["venue"] = _venue(rest[quoted.end() :].lstrip(" ,."))
        return out
    rest = re.sub(r"^[\s.:,;]+", "", rest)
    rest = _LEAD_YEAR_RE.sub("", rest)
    if comma:
        found = comma_title(rest)
        if found:
            out["title"], out["venue"] = found
        return out  # a comma style with no publication data to end its title: no title rather than a wrong one
    title, after = cut_sentence(rest)
    out["title"] = title
    out["venue"] = _venue(after)
    return out


def _trim_title(title: str) -> str:
    """What no title holds: ", in Proceedings of …" (the host work run on), ", 2nd ed" (the edition)."""
    title = re.split(r",\s+(?:[Ii]n:?|edited by)\s+(?=[A-Z])", title, maxsplit=1)[0]
    title = re.sub(r"[,;]\s*(?:1[6-9]|20)\d{2}[a-z]?$", "", title)  # "…, and tools, 2006" (ACM books), "…; 2002"
    title = re.split(r";\s+(?=[^;]{0,80}(?:\bEds?\.|:\s))", title, maxsplit=1)[0]  # MDPI "Book; Publisher: City"
    # The publisher's parenthesis ends a book's title in physics styles: "LATEX Line by Line (John Wiley & Sons,
    # Chichester, 1999) 2nd ed." (JPSJ, AIP).
    title = re.split(r"\s\((?=[^()]*,[^()]*\b(?:1[6-9]|20)\d{2}\))", title, maxsplit=1)[0]
    title = _MEDIUM_TAIL_RE.sub("", title)  # "Improving palliative care [monograph on the Internet]"
    return re.sub(r",?\s+\d+(?:st|nd|rd|th)\s+ed\.?$", "", title).strip()


def _venue(text: str) -> str:
    """The venue runs up to its volume, year or page numbers ("Hum Ecol. 1990;18", "Anim. Behav. 79, 981",
    "Gut, vol. 61", "In Proceedings of PLDI, pages 1-9")."""
    text = re.sub(r"^(?:[Ii]n:?\s+)", "", text.strip())
    m = re.search(r"(?:[,.;:]?\s*(?:vol\.|pp\.|pages|no\.)|[,.;:]?\s+\(?\d)", text)
    venue = text[: m.start()] if m else ""
    venue = venue.strip(" ,.;:")
    if re.match(r"^(?:\d|\[|available\b)", venue, re.IGNORECASE):
        return ""
    return venue if 2 <= len(venue) <= 200 else ""
