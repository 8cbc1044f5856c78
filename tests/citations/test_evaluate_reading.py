"""`manage.py evaluate_reading` measures what ingestion reads against hand-written truth, and can report a miss."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from lxml import etree

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "demo" / "papers" / "bmc-trials-15-1-511.pdf"
XML = ROOT.parent / "shared" / "corpus" / "sci-pdf-jats" / "papers" / "bmc-trials-15-1-511" / "paper.xml"


def _printed_sections() -> list[str]:
    """The body's top-level section titles from the publisher's XML: truth the parser never saw."""
    body = etree.parse(str(XML)).getroot().find("bdy")
    return [
        " ".join(etree.tostring(sec.find("st"), method="text", encoding=str).split()) for sec in body.findall("sec")
    ]


def _run(folder: Path, *extra: str) -> dict:
    out = StringIO()
    call_command("evaluate_reading", str(folder), "--json", *extra, stdout=out)
    return json.loads(out.getvalue())


def test_reads_a_paper_as_ingestion_does_and_scores_it(tmp_path):
    shutil.copy(PAPER, tmp_path / "trial.pdf")
    shutil.copy(PAPER, tmp_path / "trial-wrong.pdf")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is no pdf")
    xml = etree.parse(str(XML)).getroot()
    ref_count = len(xml.find("bm").find("refgrp").findall("bibl"))
    truth = {
        "trial.pdf": {"ref_count": ref_count, "section_headings": [*_printed_sections(), "References"]},
        # The same file against a count that is off by ten and a heading it does not have: both must show.
        "trial-wrong.pdf": {"ref_count": ref_count + 10, "section_headings": ["7 Nowhere in this paper"]},
        "broken.pdf": {},
    }
    (tmp_path / "notes.txt").write_text("not described in the ground truth, so not read", encoding="utf-8")
    (tmp_path / "ground_truth.json").write_text(json.dumps(truth), encoding="utf-8")
    (tmp_path / "aside.txt").write_text("trial-wrong.pdf\n", encoding="utf-8")

    result = _run(tmp_path, "--held-out", str(tmp_path / "aside.txt"))

    good = result["files"]["trial.pdf"]
    assert good["references"]["found"] == ref_count == 38
    assert good["references"]["exact"] is True
    assert good["references"]["titled"] >= 0.9 * ref_count
    # The five headings set large are found; the three back-matter ones in 7.5 pt type may be missed (listed).
    headings = good["headings"]
    assert headings["expected"] == len(truth["trial.pdf"]["section_headings"]) == 8
    assert headings["found"] + len(headings["missing"]) == 8 and headings["found"] >= 5
    assert set(headings["missing"]) <= {"Abbreviations", "Competing interests", "Authors’ contributions"}
    assert good["sections"]["right"] >= 0.9 * good["sections"]["passages"] > 0
    wrong = result["files"]["trial-wrong.pdf"]
    assert wrong["references"]["exact"] is False and wrong["references"]["within_5pct"] is False
    assert wrong["headings"] == {"expected": 1, "found": 0, "same_level": 0, "missing": ["7 Nowhere in this paper"]}
    # An unreadable file is a row of its own; the others are still measured.
    assert "not a valid PDF" in result["files"]["broken.pdf"]["error"]
    assert result["development"]["ref_count_exact"] == 1.0
    assert result["held_out"]["ref_count_exact"] == 0.0
    assert result["total"]["files"] == 2
    assert "notes.txt" not in result["files"]


def test_a_printed_heading_matches_with_or_without_its_section_number():
    """Ground truths differ in whether they keep the section number ("I. INTRODUCTION" or "INTRODUCTION"); the
    score must not depend on it, and a different heading must still miss."""
    from apps.documents.parsing import Block
    from apps.evaluation.reading.headings import heading_scores

    blocks = [
        Block(kind="heading", text="I. INTRODUCTION", heading_path=("I. INTRODUCTION",), para_no=0),
        Block(kind="heading", text="第一节 重要提示", heading_path=("第一节 重要提示",), para_no=1),
        Block(kind="heading", text="References", heading_path=("References",), para_no=2),
    ]
    scores = heading_scores(["INTRODUCTION", "重要提示", "第一节 重要提示", "REFERENCES", "Methods"], blocks)
    assert scores["found"] == 4 and scores["missing"] == ["Methods"]


def test_titles_are_scored_only_where_the_style_prints_them():
    """A physics list prints no article titles: a title parsed there is counted apart as a wrong one, and the share
    of titles parsed is taken over the files whose entries carry titles."""
    from types import SimpleNamespace

    from apps.evaluation.reading import totals
    from apps.evaluation.reading.references import reference_scores

    def entries(*titles):
        return [SimpleNamespace(title=t, text=f"A. Author, {t or 'Phys. Rev. B 53, 7227'} (1996).") for t in titles]

    printed = reference_scores({"ref_count": 2}, entries("A title", ""))
    physics = reference_scores({"ref_count": 2, "titles_printed": False}, entries("Nature 443", ""))
    assert printed["titles_printed"] is True and physics["titles_printed"] is False
    rows = [
        {
            "references": r,
            "headings": {"found": 0, "expected": 0, "same_level": 0},
            "sections": {"right": 0, "passages": 0},
            "english_names_on_cjk": 0,
            "pages_unread": [],
            "ocr_passages": 0,
            "tables": 0,
            "table_passages": 0,
            "table_rows": 0,
            "table_rows_boxed": 0,
        }
        for r in (printed, physics)
    ]
    total = totals(rows)
    assert total["ref_titles_parsed"] == 0.5  # 1 of the 2 entries of the file that prints titles
    assert total["ref_titles_where_none_printed"] == 1


def test_entries_the_truth_says_print_no_title_are_not_counted_as_misses():
    """A list that prints titles except for some entries ("personal communication", a journal and page only):
    those entries are taken out of the share, and a title parsed on one of them is counted as a wrong one."""
    from types import SimpleNamespace

    from apps.evaluation.reading.references import reference_scores

    def entries(*titles):
        return [SimpleNamespace(title=t, text=f"A. Author. {t or 'Phys. Rev. B 53, 7227'}. 1996.") for t in titles]

    truth = {"ref_count": 4, "untitled_entries": [2, 4]}
    scores = reference_scores(truth, entries("A title", "", "Another title", "Phys. Rev. B"))
    assert (scores["title_slots"], scores["titled_in_slots"], scores["titled_without_slot"]) == (2, 2, 1)
    missed = reference_scores(truth, entries("", "", "Another title", ""))
    assert (missed["title_slots"], missed["titled_in_slots"], missed["titled_without_slot"]) == (2, 1, 0)
    # An entry short: positions cannot be compared, so the untitled count bounds the slots.
    short = reference_scores(truth, entries("A title", "", "Another title"))
    assert (short["title_slots"], short["titled_in_slots"]) == (1, 1)
    # No list of untitled entries: every entry found prints a title, as before.
    plain = reference_scores({"ref_count": 4}, entries("A title", "", "Another title", ""))
    assert (plain["title_slots"], plain["titled_in_slots"], plain["titled_without_slot"]) == (4, 2, 0)


def test_a_heading_printed_several_times_counts_each_time():
    """DAFx-06 prints seven sections named "MARGIN CHECK": found and missing must add up to what is printed."""
    from apps.documents.parsing import Block
    from apps.evaluation.reading.headings import heading_scores

    blocks = [
        Block(kind="heading", text="1. INTRODUCTION", heading_path=("1. INTRODUCTION",), para_no=0),
        Block(kind="heading", text="2. MARGIN CHECK", heading_path=("2. MARGIN CHECK",), para_no=1),
    ]
    scores = heading_scores(["INTRODUCTION", "MARGIN CHECK", "MARGIN CHECK", "MARGIN CHECK", "REFERENCES"], blocks)
    assert scores["expected"] == 5 and scores["found"] == 4 and scores["missing"] == ["REFERENCES"]


def test_a_section_starts_at_its_heading_not_at_a_paragraph_opening_with_its_words():
    from apps.documents.parsing import Block
    from apps.evaluation.reading.headings import expected_sections

    blocks = [
        Block(kind="heading", text="第2 章 模板使用", heading_path=("第2 章 模板使用",), para_no=0),
        Block(kind="paragraph", text="参考文献样式由宏包提供。", heading_path=("第2 章 模板使用",), para_no=1),
        Block(kind="heading", text="参考文献", heading_path=("参考文献",), para_no=2),
        Block(kind="paragraph", text="[1] 作者. 题名[J]. 刊名, 2020.", heading_path=("参考文献",), para_no=3),
    ]
    assert expected_sections(["模板使用", "参考文献"], blocks) == ["模板使用", "模板使用", "参考文献", "参考文献"]
    # A heading the parse missed is still found where a block starts with it.
    blocks[2] = Block(kind="paragraph", text="参考文献", heading_path=("第2 章 模板使用",), para_no=2)
    assert expected_sections(["模板使用", "参考文献"], blocks)[2:] == ["参考文献", "参考文献"]


def test_a_short_first_entry_is_read_whatever_label_the_truth_prints():
    """The truth copies the label ("[1] JACoW, http://www.jacow.org"); an entry's text has none, and on a
    three-word entry the label alone made the first entry count as misread."""
    from types import SimpleNamespace

    from apps.evaluation.reading.references import reference_scores

    found = [
        SimpleNamespace(title="", text="JACoW, http://www.jacow.org"),
        SimpleNamespace(title="", text="IEEE Editorial Style Manual, IEEE Periodicals, 2014."),
    ]
    truth = {"ref_count": 2, "first_ref": "[1] JACoW, http://www.jacow.org", "last_ref": "2. Another work, 2015."}
    scores = reference_scores(truth, found)
    assert scores["first_ok"] is True and scores["last_ok"] is False
    # An entry that is a URL alone is compared as printed (its words are an identifier the token count sets aside).
    url = "https://woodward.library.ubc.ca/researchhelp/journal-abbreviations/"
    truth = {"ref_count": 2, "first_ref": "[1] JACoW, http://www.jacow.org", "last_ref": f"[3] {url}"}
    assert reference_scores(truth, [*found[:1], SimpleNamespace(title="", text=url)])["last_ok"] is True
    cut = [*found[:1], SimpleNamespace(title="", text="https://woodward.library.ubc.ca/researchhelp/")]
    assert reference_scores(truth, cut)["last_ok"] is False
