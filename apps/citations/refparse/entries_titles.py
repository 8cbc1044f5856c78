"""Whether a piece of a reference entry read as its title is one: not the venue, a date, an identifier, a report's
number, a piece of an abbreviated journal name or the author list run on (entries_fields.parse_entry asks, and
keeps no title rather than a wrong one)."""

from __future__ import annotations

import re

# An arXiv identifier: "arXiv:1506.04392" (YYMM.NNNNN, from April 2007) or "hep-ph/0001025" (archive/YYMMNNN,
# 1991 to March 2007). Its digits are no year ("arXiv:1405.1994" is not 1994), but its first two are the preprint's
# year, the only one an entry that cites a preprint alone gives ("[5] D. B. Franzosi …, arXiv:1506.04392.").
ARXIV_ID_RE = re.compile(
    r"\barXiv:?\s?(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?\b|"
    r"\b(?:hep-(?:ph|th|ex|lat)|astro-ph|gr-qc|nucl-(?:th|ex)|quant-ph|cond-mat|math-ph|math|physics|nlin|cs)"
    r"(?:\.[A-Za-z]{2})?/(\d{2})(\d{2})\d{3}\b",
    re.IGNORECASE,
)

# What physics styles print where a title would be: the kind of work or its state, never a title.
_GENRE_RE = re.compile(
    r"^(?:(?:M\.?S\.?|Ph\.?\s?D\.?|B\.?S\.?|M\.?A\.?|Master['\u2019]?s|[Dd]octoral|[Bb]achelor['\u2019]?s)\s+)?"
    r"(?:thesis|dissertation)\b|^Ph\.?\s?D$|"
    r"^(?:e-print|personal communication|private communication|unpublished|submitted|in press|to be published|"
    r"preprint)\b",
    re.IGNORECASE,
)


# Pieces of an abbreviated name: one short capitalised word ("Phys"), or one after an acronym ("AIP Conf", "IEEE
# Trans"); two plain words ("Solar Cells. Proc. IEEE …") are a short title.
_ABBREVIATED_WORDS_RE = re.compile(r"(?:[A-Z]{2,5}\s)?[A-Z][a-z]{1,4}")
# A report or patent cited by its number, with no title: "TWI Report 666/1999", "ECE Report No. AL944".
_NUMBERED_REPORT_RE = re.compile(
    r"^(?:[A-Z][\w&\-]*\s){0,3}(?:Technical\s)?(?:Report|Memo|Note)\s+(?:No\.?\s*\S*\d|\d+/\d+|[A-Z]+-?\d+)"
)


def _is_abbreviated_venue(title: str, text: str) -> bool:
    """A "title" that is the start of an abbreviated journal name followed by volume and page, as physics styles
    print it with no article title: "Cisneros A 1971 Astrophys. Space Sci. 10 87" gives "Astrophys"."""
    if _ABBREVIATED_WORDS_RE.fullmatch(title) and re.search(
        rf"\b{re.escape(title)}\.\s+(?:[A-Z][a-z]*\.|[A-Z]\s|\d+,?\s+[A-Z]?\d)", text
    ):
        # Short words cut at their abbreviation point, another abbreviation or the volume and page after them:
        # "Proc. Int. Conf.", "Phys. Rev.", "AIP Conf. Proc., Vol. 841", "J. Geophys. Res. 108, 4201".
        return True
    if len(title.split()) > 4:
        return False
    tail = rf"{re.escape(title)}\.((?:\s+[A-Z][\w\-]*\.?){{0,4}})\s+[A-Z]?\d+(?:\([^)]*\))?\s+[A-Z]?\d+\b"
    m = re.search(tail, text)
    # The journal's name goes on in abbreviations ("Space Sci.", "Rev. D") before its volume and page; a record
    # label and catalogue number ("Atom Heart Mother. Capitol CDP 7 46381") does not.
    return bool(m) and (not m.group(1).strip() or any(t.endswith(".") or len(t) == 1 for t in m.group(1).split()))


def is_sane_title(title: str, text: str, authors: list[str]) -> bool:
    """A parsed title is kept only when it is a piece of the entry that reads as a title: not the venue ("In
    Proceedings …"), not a date ("July)"), not a URL, not the author list run on ("AND ULLMAN, J. D. …")."""
    if not title or title not in text or len(title) < 2:
        return False
    if re.match(
        r"^(?:in:?\s|and\s|&|\(|\)|https?:|www\.|available\b|retrieved\b|accessed\b|eds?\.,)", title, re.IGNORECASE
    ):
        return False
    if re.match(r"^see(?: also)?\s", title, re.IGNORECASE):
        return False  # a cross-reference to another entry ("Ashe, Gordon. See Creasey, John."), not a work's title
    if re.match(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\)?$", title, re.IGNORECASE):
        return False
    if _GENRE_RE.match(title) or _is_abbreviated_venue(title, text):
        return False
    if not re.search(r"[^\W\d_]", title) or re.match(r"\d{1,3}(?:[,.\s]\d{3})+\b", title):
        return False  # no words, or a grouped number first ("5,693,000 (12 Dec. 2005)": a patent's number)
    if (
        re.search(r"\b\d+,\s*\d+\s*\((?:1[6-9]|20)\d{2}\)", title)
        or re.match(r"^(?:[A-Z][\w.]*\s){1,4}[A-Z]?\d+\s*\((?:1[6-9]|20)\d{2}\)", title)
        or re.match(r"^arXiv(?::|\s+\d)", title, re.IGNORECASE)
        or ARXIV_ID_RE.search(title)
    ):
        # The venue of a physics entry ("Nature 443, 409 (2006)", "JHEP 08 (2014) 174", "Nucl. Phys. B 574 (2000)
        # 3–22") or a preprint number, not a title; a title does not hold one either ("von Gero Gersdorff,
        # arXiv:1508.04814": the names read on to the identifier).
        return False
    if re.match(r"^(?:[A-Z]\.\s?){1,3}[,;]", title):  # initials the author reading stopped in front of
        return False
    if re.match(r"^(?=[^,]*[.\-])[A-Z](?:\.?-?\s?[A-Z])*\.?$", title):  # initials alone ("S.-J"): a name cut
        return False
    if re.match(r"^(?:[A-Z]\.\s?-?){1,3}\s?[A-Z][\w'’\-]+,", title):
        return False  # "G. W. Johnson, Philos.": a name given name first, where a glued "Smithand" hid the "and"
    if _NUMBERED_REPORT_RE.match(title) or re.match(r"^no title\b", title, re.IGNORECASE):
        return False  # a report's number, or a reference manager's placeholder ("No Title, springer.com")
    if re.match(r"^\d+\s*\((?:No\.?\s*)?\d+", title):  # "33(No. 146; July 27), 10756": volume and issue
        return False
    if re.match(r"^[^\s,]+(?:\s[^\s,]+){0,3},\s?(?:[A-Z]\.\s?-?){1,3}(?:[,;]|\s+AND\b|\s+and\b)", title):
        return False  # "DI COSMO, R., AND …": an author (small capitals the author reading could not follow)
    # The author list run on into the title: a surname followed by initials or "and".
    return not any(a and re.match(rf"{re.escape(a)},?\s+(?:[A-Z]\.|and\b|AND\b|&)", title) for a in authors)
