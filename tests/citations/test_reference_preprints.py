"""Physics lists that cite preprints by their arXiv identifier alone (issue 16, the sixth fresh set's REVTeX letter,
refextract's test paper arXiv:1508.05632): no References heading, a run-in "Acknowledgments:" between [4] and [5],
"[5] D. B. Franzosi, M. T. Frandsen and F. Sannino, arXiv:1506.04392 [Inspire]." with no year printed, and
collaborations named before their authors ("ATLAS Collaboration, G. Aad et al., …"). Before, the list was not found
at all (0 of 53 entries) and "Aad et al., arXiv:1506.00962 [Inspire]" was read as a title."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect, _entry_text
from apps.citations.refparse.entries_fields import parse_entry, parse_year
from apps.citations.refparse.entries_lines import RefLine
from apps.documents.parsing.sections import reads_as_references

_AUTHORS = [
    "ATLAS Collaboration, G. Aad et al.,",
    "CMS Collaboration, V. Khachatryan JHEP 08 (2014)",
    "H. S. Fukano, M. Kurachi, S. Matsuzaki, K. Terashi and",
    "J. Hisano, N. Nagata and Y. Omura,",
    "D. B. Franzosi, M. T. Frandsen and F. Sannino,",
    "K. Cheung, W.-Y. Keung, P.-Y. Tseng and T.-C. Yuan,",
    "B. A. Dobrescu and Z. Liu,",
    "J. A. Aguilar-Saavedra",
    "A. Alves, A. Berlin, S. Profumo and F. S. Queiroz,",
    "Y. Gao, T. Ghosh, K. Sinha and J.-H. Yu,",
    "A. Thamm, R. Torre and A. Wulzer,",
    "J. Brehmer, J. Hewett, J. Kopp, T. Rizzo and",
]


def _line(text: str, y: float, *, page: int, size: float = 9.0, **flags) -> RefLine:
    return RefLine(text, page=page, bbox=(310, y, 560, y + 9), size=size, block=int(y) + 1000 * page, **flags)


def _letter() -> list[RefLine]:
    """Page 5 and 6 of the letter as the reader orders them: the conclusions in 10 pt, entries [1]-[4] in 9 pt,
    more conclusions, the run-in acknowledgements (read as a heading), [5]-[9], then page 6."""
    lines = [
        _line(f"Body text of the letter, line {k}, in the text size.", 40 + 11 * k, page=4, size=10.0)
        for k in range(60)
    ]
    y = 100.0
    for n, names in enumerate(_AUTHORS, start=1):
        page = 5 if n <= 9 else 6
        if n == 10:
            y = 60.0
        lines.append(_line(f"[{n}] {names}", y, page=page))
        lines.append(_line(f"arXiv:1506.{4380 + n:05d} [Inspire].", y + 10, page=page))
        y += 20
        if n == 4:
            lines += [
                _line(f"the conclusions go on here, line {k} of them.", y + 11 * k, page=5, size=10.0)
                for k in range(12)
            ]
            lines.append(
                _line("Acknowledgments: We are thankful to A. Wulzer", y + 140, page=5, size=10.0, heading=True)
            )
            lines += [_line("and F. Zwirner for discussions and comments on the", y + 151, page=5, size=10.0)]
            y += 170
    return lines


def test_a_headless_list_of_preprints_is_read_through_the_acknowledgements() -> None:
    entries = _detect(_letter())
    assert [e.number for e in entries] == list(range(1, len(_AUTHORS) + 1))
    assert _entry_text(entries[4]) == ("D. B. Franzosi, M. T. Frandsen and F. Sannino, arXiv:1506.04385 [Inspire].")


def test_an_arxiv_identifier_is_no_year_but_gives_the_preprint_s_year() -> None:
    assert parse_year("X. Yu, arXiv:1405.1994 [Inspire].") == 2014  # not 1994
    assert parse_year("D. B. Franzosi and F. Sannino, arXiv:1506.04392 [Inspire].") == 2015
    assert parse_year("E. Perazzi, G. Ridolfi, hep-ph/0001025 [Inspire].") == 2000
    assert parse_year("A. B. Author, math.AG/9912001.") == 1999
    # A printed year comes first; a number that is no identifier gives none.
    assert parse_year("CMS Collaboration, V. Khachatryan JHEP 08 (2014) 173, arXiv:1405.1994.") == 2014
    assert parse_year("A. B. Author, report 1506.0439.") is None


def test_collaborations_are_authors_and_physics_venues_are_no_titles() -> None:
    atlas = parse_entry("ATLAS Collaboration, G. Aad et al., arXiv:1506.00962 [Inspire].")
    assert atlas["authors"] == ["ATLAS Collaboration", "Aad"] and atlas["title"] == ""
    cms = parse_entry("CMS Collaboration, V. Khachatryan JHEP 08 (2014) 174, arXiv:1405.3447 [Inspire].")
    assert cms["authors"][0] == "CMS Collaboration" and cms["title"] == ""
    assert parse_entry("E. Perazzi and F. Zwirner, Nucl. Phys. B 574 (2000) 3–22.")["title"] == ""
    assert parse_entry("S. Fichet and von Gero Gersdorff, arXiv:1508.04814 [Inspire].")["title"] == ""
    # "et al.," closes the names as a comma does: the title is the next comma field.
    boson = parse_entry(
        "The CMS Collaboration, S. Chatrchyan et al., Observation of a new boson, Phys. Lett. B 716 (2012) 30."
    )
    assert boson["authors"] == ["CMS Collaboration", "Chatrchyan"]
    assert boson["title"] == "Observation of a new boson"
    planck = parse_entry("Planck Collaboration: Ade, P. A. R., Aghanim, N., et al. 2016, A&A, 594, A13")
    assert planck["authors"][:2] == ["Planck Collaboration", "Ade"] and planck["year"] == 2016


def test_a_passage_of_preprint_entries_reads_as_references() -> None:
    # A chunk of the letter's page 6, where the passages in the References-less list must weigh as references.
    entries = (
        "[13] Q.-H. Cao, B. Yan and D.-M. Zhang, arXiv:1507.00268 [Inspire]. [14] G. Cacciapaglia and M. T. "
        "Frandsen, arXiv:1507.00900 [Inspire]. [15] T. Abe, R. Nagai, S. Okawa and M. Tanabashi, arXiv:1507.01185 "
        "[Inspire]. [16] T. Abe, T. Kitahara and M. M. Nojiri, arXiv:1507.01681 [Inspire]."
    )
    assert reads_as_references(entries)
    assert not reads_as_references(
        "We are thankful to A. Wulzer and F. Zwirner for discussions and comments on the manuscript. The work "
        "was supported by the Swedish Research Council under the contract and by the ARC program."
    )
