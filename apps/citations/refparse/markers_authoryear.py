"""Author-year citations: "(Smith et al., 2010; Lee and Park 2011a, b)", "Smith (2010)", "Smith's (2010)".

Every year in the text is a candidate; the names right before it (inside the same parenthesis or sentence)
are read back, and the mention is linked only when exactly one entry fits first author + year (+ the second
author for two-author citations, + the a/b suffix when one surname and year share several entries).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .types import CitationMention, ReferenceEntry

_YEAR_RE = re.compile(r"\b(1[6-9]\d\d|20\d\d)([a-z])?\b(?![-\u2013/]\d)")
_PARTICLE = r"(?:(?:van|von|de|der|den|du|da|di|del|della|le|la|dos|das|ter|ten)\s+)"
# Surnames start with a capital; re has no \p{Lu}, so the Latin capitals are listed (Miklósi, Ostojić, Øst).
_UPPER = "A-Z" + "".join(ch for ch in map(chr, range(0xC0, 0x250)) if ch.isupper())
_NAME = rf"{_PARTICLE}*[{_UPPER}][\w'\u2019\-]*"
_NAMES_RE = re.compile(
    rf"(?P<first>{_NAME})"
    rf"(?:(?P<etal>\s+et\.?\s*al\.?)|\s+(?:and|&)\s+(?P<second>{_NAME})|(?:,\s+{_NAME})+,?\s+(?:and|&)\s+{_NAME})?"
    r"(?:['\u2019]s)?\s*,?\s*\(?\s*$"
)
_MORE_SUFFIXES_RE = re.compile(r"(?:\s*,\s*[a-z]\b(?!\.))+")
# Capitalised words that start sentences or clauses before a year, never an author.
_NOT_NAMES = {
    "in", "since", "from", "until", "by", "during", "after", "before", "the", "and", "of", "for", "to", "see",
    "fig", "figure", "table", "between", "around", "about", "year", "years", "spring", "summer", "autumn", "fall",
    "winter", "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "eg", "ie", "cf", "also", "but", "al", "et",
}  # fmt: skip


@dataclass
class _Info:
    index: int
    authors: list[str]  # normalised surnames, first author first
    many: bool  # three or more authors ("et al." in the entry, or a long author list)
    year: int | None
    suffix: str


def norm_name(name: str) -> str:
    """Surname key: accents folded, particles and punctuation dropped ("van der Berg" -> "berg")."""
    name = unicodedata.normalize("NFKD", re.sub(r"['\u2019]s$", "", name))  # "Thierry's (2000)"
    name = "".join(ch for ch in name if not unicodedata.combining(ch)).lower()
    words = re.findall(r"[a-z]+", name.replace("'", "").replace("\u2019", ""))
    return words[-1] if words else ""


def _entry_info(entry: ReferenceEntry) -> _Info:
    text = entry.text
    year = entry.year
    ym = _YEAR_RE.search(text)
    if year is None and ym:
        year = int(ym.group(1))
    suffix = ""
    if year is not None:
        sm = re.search(rf"\b{year}([a-z])\b", text)
        suffix = sm.group(1) if sm else ""
    names = list(entry.authors)
    if entry.first_author and (not names or norm_name(names[0]) != norm_name(entry.first_author)):
        names.insert(0, entry.first_author)
    if not names:
        # Only the text: surnames are the capitalised words before the year that are not initials.
        head = text[: ym.start()] if ym else text[:150]
        names = [w for w in re.findall(r"[^\W\d_][\w'\u2019\-]+", head) if w[0].isupper() and not w.isupper()]
    keys = [k for k in (norm_name(n) for n in names) if k]
    many = len(keys) >= 3 or bool(re.search(r"\bet\.?\s*al\b", text[:300]))
    return _Info(entry.index, keys, many, year, suffix)


def find_author_year(chunks: list[tuple[int, str]], entries: list[ReferenceEntry]) -> list[CitationMention]:
    infos = [_entry_info(e) for e in entries]
    by_year: dict[int, list[_Info]] = {}
    for info in infos:
        if info.year is not None and info.authors:
            by_year.setdefault(info.year, []).append(info)
    out: list[CitationMention] = []
    for chunk_index, text in chunks:
        last: tuple[int, tuple] | None = None  # end and names of the previous item, for "Smith, 2010, 2012"
        for ym in _YEAR_RE.finditer(text):
            names = None
            if last and re.fullmatch(r"\s*,\s*", text[last[0] : ym.start()]):
                names, name_start = last[1], ym.start()  # "Smith (2010, 2012)": the same authors again
            else:
                found = _names_before(text, ym.start())
                if found:
                    names, name_start = found
            if names is None:
                last = None
                continue
            year = int(ym.group(1))
            items = [(name_start, ym.end(), ym.group(2) or "")]
            more = _MORE_SUFFIXES_RE.match(text, ym.end())  # "2006a,b"
            if more and ym.group(2):
                for sm in re.finditer(r"[a-z]", more.group(0)):
                    items.append((ym.end() + sm.start(), ym.end() + sm.end(), sm.group(0)))
            last = (items[-1][1], names)  # where the item ends, its "a,b" suffixes included
            if "(" in text[name_start : ym.start()] and text[items[-1][1] : items[-1][1] + 1] == ")":
                items[-1] = (items[-1][0], items[-1][1] + 1, items[-1][2])  # "Smith (2010)" keeps its bracket
            for start, end, suffix in items:
                index = _resolve(by_year.get(year, []), names, suffix)
                if index is not None:
                    out.append(CitationMention(chunk_index, start, end, [index], style="author-year"))
    return out


def _names_before(text: str, pos: int) -> tuple[tuple[str, str, bool], int] | None:
    """(first surname, second surname or "", et al.?) written right before a year, and where they start."""
    window = text[max(0, pos - 120) : pos]
    # Stay inside the citation: a ";" or an opening bracket before the names ends the search.
    cut = max(window.rfind(";"), window.rfind("["), window.rfind("\n"))
    if cut >= 0:
        window = window[cut + 1 :]
    m = _NAMES_RE.search(window)
    if not m:
        return None
    first = m.group("first")
    surname = re.sub(rf"^{_PARTICLE}*", "", first)
    if not surname[:1].isupper() or norm_name(surname) in _NOT_NAMES or len(norm_name(surname)) < 2:
        return None
    second = m.group("second") or ""
    if second and not re.sub(rf"^{_PARTICLE}*", "", second)[:1].isupper():
        return None
    offset = pos - len(window)
    return (first, second, bool(m.group("etal"))), offset + m.start()


def _resolve(candidates: list[_Info], names: tuple[str, str, bool], suffix: str) -> int | None:
    first, second, etal = norm_name(names[0]), norm_name(names[1]), names[2]
    fits = [c for c in candidates if c.authors[0] == first]
    if second:
        fits = [c for c in fits if len(c.authors) >= 2 and c.authors[1] == second]
    elif etal:
        # "et al." stands for three or more authors; a two-author entry of the same year is the fallback.
        fits = [c for c in fits if c.many] or [c for c in fits if len(c.authors) >= 2]
    else:
        # "Smith, 2010" names a single author; when a lone-author entry exists it is the one meant.
        alone = [c for c in fits if len(c.authors) == 1 and not c.many]
        fits = alone or fits
    if suffix:
        fits = [c for c in fits if c.suffix == suffix] or ([] if any(c.suffix for c in fits) else fits)
    elif len(fits) > 1:
        return None  # two entries share surname and year and the text does not say which: no guess
    return fits[0].index if len(fits) == 1 else None
