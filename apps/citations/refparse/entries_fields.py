"""Parse one reference entry's text into DOI, year, authors' surnames, title and venue.

Covers the common styles: Vancouver ("Feeny D, Berkes F. Title. Hum Ecol. 1990;18:1-19."), BMC ("… Larson G:
Title. Venue 2014, 5:1-9."), APA/Frontiers ("Boitani, L., and Ciucci, P. (1995). Title. Venue 7, 49-72."),
MDPI ("Langseth, W.; Bernhost, A. Title. Venue 1990, 103, 1-9."), IEEE/Hindawi ("T. Rokkas, and S. D. Ladas,
“Title,” Venue, vol. 3, 2010.") and ACM ("A. Aho, R. Sethi, and M. Lam. Title. In Venue, 2006."). A field that
cannot be told apart is left empty rather than guessed.
"""

from __future__ import annotations

import re

_DOI_RE = re.compile(r"\b10\.\d{4,9}/\S+")
_DOI_BROKEN_RE = re.compile(r"(\b10\.\d{4,9}/\S*[-/.])\s+(?=[\w(])")  # a DOI cut at a line end
_SURNAME = r"(?:(?:van|von|de|der|den|da|di|du|la|le|del|dos|De|Van|Von|Di|Da|Le|La|St\.)\s){0,2}"
_SURNAME += r"[A-Z\u00c0-\u00de][\w'\u2019\-\u00c0-\u024f]*(?:[\s\-][A-Z][a-z\u00e0-\u024f'\u2019\-]+)?"
_CAP = "A-Z\u00c0-\u00de"  # initials may carry diacritics ("Á.", "Ü.")
_INITIALS_DOTTED = rf"(?:[{_CAP}]\.\s?-?\s?){{1,4}}"
_SEP = r"(?:\s*(?:,|;)\s*(?:and\s+|&\s+)?|\s+and\s+|\s*&\s*)"
# One author in each family of styles; the style that reads the longest run of authors wins.
_AUTHOR_STYLES = {
    "vancouver": re.compile(rf"({_SURNAME})\s(?:[A-Z]{{1,4}}|[A-Z]\.(?:[A-Z]\.)*)(?=[\s,.:;(])"),
    "comma_initials": re.compile(rf"({_SURNAME}),\s?{_INITIALS_DOTTED}"),
    "initials_first": re.compile(rf"{_INITIALS_DOTTED}\s?({_SURNAME})(?=[\s,.:;])"),
}
_ET_AL_RE = re.compile(r"\s*,?\s*(?:et al\.?|and others|\.\.\.)", re.IGNORECASE)
_YEAR_PAREN_RE = re.compile(r"\((\d{4})[a-z]?\)")
_YEAR_END_RE = re.compile(r"[,.;:\s\(](\d{4})[a-z]?\)?\.?\s*$")
_YEAR_ANY_RE = re.compile(r"(?<![\d\-\u2013/.:])(\d{4})[a-z]?(?![\d\-\u2013/])")
_QUOTED_TITLE_RE = re.compile(r"[\u201c\"](.+?)[,.]?[\u201d\"]")
_LEAD_YEAR_RE = re.compile(r"^\s*[.,:]?\s*\(?\d{4}[a-z]?\)?[.,:]?\s*")


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
    body = _DOI_RE.sub(" ", text)
    for rx in (_YEAR_PAREN_RE, _YEAR_END_RE):
        m = rx.search(body)
        if m and 1600 <= int(m.group(1)) <= max_year:
            return int(m.group(1))
    for m in _YEAR_ANY_RE.finditer(body):
        if 1600 <= int(m.group(1)) <= max_year:
            return int(m.group(1))
    return None


def parse_authors(text: str) -> tuple[list[str], int]:
    """Surnames of the leading author list and where that list ends (0 when no author list was read)."""
    best: tuple[list[str], int] = ([], 0)
    for rx in _AUTHOR_STYLES.values():
        names: list[str] = []
        pos = 0
        while True:
            m = rx.match(text, pos)
            if not m:
                break
            names.append(m.group(1).strip())
            pos = m.end()
            sep = re.compile(_SEP).match(text, pos)
            if not sep:
                break
            pos = sep.end()
        end = pos
        etal = _ET_AL_RE.match(text, end)
        if names and etal:
            end = etal.end()
        if len(names) > len(best[0]):
            best = (names, end)
    return best


def parse_entry(text: str) -> dict:
    """{doi, year, authors, first_author, title, venue} for one entry's text (label already removed)."""
    authors, end = parse_authors(text)
    out = {
        "doi": parse_doi(text),
        "year": parse_year(text),
        "authors": authors,
        "first_author": authors[0] if authors else "",
        "title": "",
        "venue": "",
    }
    if not authors:
        return out
    rest = text[end:]
    quoted = _QUOTED_TITLE_RE.search(rest)
    if quoted and quoted.start() >= 6 and rest[: quoted.start()].count(",") >= 1:
        return out  # a quoted title further on: the author list was not read to its end, so no title is better
    if quoted and quoted.start() < 6:
        out["title"] = quoted.group(1).strip(" ,.")
        after = rest[quoted.end() :].lstrip(" ,.")
        out["venue"] = _venue(after)
        return out
    rest = re.sub(r"^[\s.:,;]+", "", rest)
    rest = _LEAD_YEAR_RE.sub("", rest)
    title, after = _cut_sentence(rest)
    out["title"] = title
    out["venue"] = _venue(after)
    return out


def _cut_sentence(text: str) -> tuple[str, str]:
    """The text up to the first sentence end that is not an abbreviation, and the rest."""
    for m in re.finditer(r"[.?!](?=\s|$)", text):
        before = text[: m.start()].rsplit(" ", 1)[-1]
        if len(before) <= 1 or before in ("al", "vs", "eds", "ed", "sp", "spp", "e.g", "i.e"):
            continue
        return text[: m.end()].rstrip(".").strip(), text[m.end() :].strip()
    return "", ""


def _venue(text: str) -> str:
    """The venue runs up to its volume, year or page numbers ("Hum Ecol. 1990;18", "Anim. Behav. 79, 981",
    "Gut, vol. 61", "In Proceedings of PLDI, pages 1-9")."""
    text = re.sub(r"^(?:In:?\s+)", "", text.strip())
    m = re.search(r"(?:[,.;:]?\s*(?:vol\.|pp\.|pages|no\.)|[,.;:]?\s+\(?\d)", text)
    venue = text[: m.start()] if m else ""
    venue = venue.strip(" ,.;:")
    return venue if 2 <= len(venue) <= 200 else ""
