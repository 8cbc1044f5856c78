"""Vancouver / ICMJE lists (issue 16, the third fresh set): labels that are bare numbers ("1 Halpern SD, …"),
titles marked by NLM's medium designators ("Who’s Certified [database on the Internet]."), and an author role
between the names and the title ("…, editors.", "…, inventor; …, assignee.")."""

from __future__ import annotations

from apps.citations.refparse.entries import _detect, _entry_text
from apps.citations.refparse.entries_fields import parse_entry
from apps.citations.refparse.entries_lines import RefLine


def _line(text: str, x: float, y: float, *, size: float = 10.0, **flags) -> RefLine:
    return RefLine(text, page=1, bbox=(x, y, x + 5.0 * len(text), y + size * 0.9), size=size, **flags)


def _with_heading(rows: list[tuple[float, str]], heading: bool = True) -> list[RefLine]:
    lines = []
    if heading:
        lines.append(_line("References", 90, 60, size=14.0, block=-1, heading=True, ref_heading=True))
    lines += [_line(text, x, 100.0 + 14.0 * i, block=i, in_references=heading) for i, (x, text) in enumerate(rows)]
    return lines


BARE = [
    (95.0, "1 Halpern SD, Ubel PA, Caplan AL. Solid-organ transplantation in HIV-"),
    (105.0, "infected patients. N Engl J Med. 2002 Jul 25;347(4):284-7."),
    (95.0, "2 Rose ME, Huerbin MB, Melick J, Marion DW, Palmer AM, Schiding JK,"),
    (105.0, "et al. Regulation of interstitial excitatory amino acid concentrations after"),
    (105.0, "cortical contusion injury. Brain Res. 2002;935(1-2):40-6."),
    (95.0, "3 21st century heart solution may have a sting in the tail. BMJ."),
    (105.0, "2002;325(7357):184."),
    (95.0, "4 Glauser TA. Integrating clinical trial data into clinical practice. In: the"),
    (105.0, "12 patients of the trial. Neurology. 2002;58(12 Suppl 7):S6-12."),
    (95.0, "5 Abend SM, Kulish N. The psychoanalytic method from an epistemological"),
    (105.0, "viewpoint. Int J Psychoanal. 2002;83(Pt 2):491-5."),
]


def test_bare_number_labels_are_followed_under_a_references_heading() -> None:
    entries = _detect(_with_heading(BARE))
    assert [e.number for e in entries] == [1, 2, 3, 4, 5]
    texts = [_entry_text(e) for e in entries]
    assert texts[0].startswith("Halpern SD") and texts[2].startswith("21st century")  # the label is stripped
    assert "12 patients of the trial" in texts[3]  # a lower-case word after a number continues the entry


def test_bare_numbers_without_a_references_heading_are_not_a_list() -> None:
    # Numbered body lines ("1 Articles in Journals") must not become a bibliography where no heading says so.
    assert _detect(_with_heading(BARE, heading=False)) == []


def test_a_lone_bare_number_does_not_hide_an_author_year_list() -> None:
    rows = [
        (95.0, "1 See the supplement for the full list of sources."),
        (95.0, "Attwood, F. (2006). Sexed up: theorizing the sexualization of culture. Sexualities, 9, 77–94."),
        (95.0, "Babiker, M. H., & Eckaus, R. S. (2007). Unemployment effects of climate policy. Environmental"),
        (105.0, "Science and Policy, 10, 600–609."),
        (95.0, "Luthi, D. (2008). High-resolution carbon dioxide concentration record. Nature, 453, 379–382."),
    ]
    texts = [_entry_text(e) for e in _detect(_with_heading(rows))]
    assert [t[:7] for t in texts] == ["Attwood", "Babiker", "Luthi, "]


def test_nlm_medium_designators_mark_the_title_also_without_authors() -> None:
    assert parse_entry("Who’s Certified [database on the Internet]. Evanston (IL): ABMS. c2000.")["title"] == (
        "Who’s Certified"
    )
    assert parse_entry("Cancer-Pain.org [homepage on the Internet]. New York: ACOR; c2000-01.")["title"] == (
        "Cancer-Pain.org"
    )
    with_authors = parse_entry(
        "Foley KM, Gelband H, editors. Improving palliative care for cancer [monograph on the Internet]. "
        "Washington: National Academy Press; 2001."
    )
    assert with_authors["title"] == "Improving palliative care for cancer"
    # An organisation as author, with no designator, stays without a title rather than taking the author's name.
    assert (
        parse_entry(
            "Diabetes Prevention Program Research Group. Hypertension, insulin, and proinsulin. "
            "Hypertension. 2002;40(5):679-86."
        )["title"]
        != "Diabetes Prevention Program Research Group"
    )


def test_an_author_role_closes_the_names_before_the_title() -> None:
    editors = parse_entry("Harnden P, Joffe JK, Jones WG, editors. Germ cell tumours. New York: Springer; 2002.")
    assert editors["authors"] == ["Harnden", "Joffe", "Jones"] and editors["title"] == "Germ cell tumours"
    patent = parse_entry(
        "Pagedas AC, inventor; Ancel Surgical R&D Inc., assignee. Flexible endoscopic grasping and cutting device. "
        "United States patent US 20020103498. 2002 Aug 1."
    )
    assert patent["authors"] == ["Pagedas"] and patent["title"] == "Flexible endoscopic grasping and cutting device"
    mapped = parse_entry("Pratt B, Flick P, Vynne C, cartographers. Biodiversity hotspots [map]. Washington: CI; 2000.")
    assert mapped["title"] == "Biodiversity hotspots"
