"""Where a passage is, as people count it, from any object that carries a place (a search hit, a stored
citation's source, a chunk): apps/documents/locators.py, the one place these labels are written (issue 17)."""

from __future__ import annotations

from types import SimpleNamespace

from apps.documents.locators import locator_label, place_label, viewer_url


def _placed(**fields) -> SimpleNamespace:
    base = dict(page=None, page_end=None, line_start=None, line_end=None, para_start=None, para_end=None)
    return SimpleNamespace(**{**base, **fields})


def test_the_finest_place_as_people_count_it() -> None:
    assert place_label(_placed(page=4, page_end=5)) == "pp. 4–5"
    assert place_label(_placed(page=4, page_end=5), first_only=True) == "p. 4"
    assert place_label(_placed(line_start=12, line_end=18)) == "lines 12–18"
    assert place_label(_placed(line_start=2, line_end=40, doc_type="xlsx")) == "rows 2–40"
    assert place_label(_placed(para_start=0, para_end=0)) == "paragraph 1"  # counted from 0 in the index
    assert place_label(_placed()) == ""


def test_the_section_goes_before_the_place() -> None:
    assert locator_label(_placed(page=4, section="Methods")) == "§ Methods · p. 4"
    assert locator_label(_placed(para_start=11, section="")) == "paragraph 12"


def test_a_viewer_link_opens_the_chunk_and_knows_its_answer() -> None:
    assert viewer_url(3, 7) == "/documents/3/view/?chunk=7"
    assert viewer_url(3, 7, message_id=11, n=2).endswith("?chunk=7&message=11&n=2")
    assert "message=" not in viewer_url(3, 7, message_id=11)  # a step needs both
