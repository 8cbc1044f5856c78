"""The document viewer in the system Chromium, on files ingested by the real worker: a DOCX citation highlights
exactly the cited blocks (a table, a paragraph under a numbered heading, never another paragraph that merely holds
the same words) and, opened from its answer by the answer's owner, the sentence it quotes within them; the side
panel moves the highlight, and Markdown and text documents highlight their lines."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apps.documents.locators import viewer_url
from apps.documents.models import Chunk
from tests.browser import open_page
from tests.test_browser import _log_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API beside Django's ORM

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
GUIDE = ROOT / "demo" / "portal-guide.docx"
# A test artefact (docs/viewer-docx.png is refreshed from it by hand when the page changes).
SCREENSHOT = Path(os.environ.get("PORTAL_TEST_ARTIFACTS", ROOT / "var" / "test" / "artifacts")) / "viewer-docx.png"

HIGHLIGHTED = """() => Array.from(document.querySelectorAll('#doc-viewer .doc-highlight')).map(el => {
  const box = el.getBoundingClientRect();
  return {id: el.id, tag: el.tagName, text: el.innerText,
          visible: box.bottom > 0 && box.top < window.innerHeight && box.height > 0};
})"""


@pytest.fixture
def page(chromium_path):
    with open_page(chromium_path, viewport={"width": 1280, "height": 900}) as page:
        yield page


@pytest.fixture
def ingest(personas, collection, celery_worker_available, api_client_for, api_upload, wait_for_ingest):
    """Upload a file as the editor and wait for the worker; returns the document id."""
    client = api_client_for("editor")

    def run(name: str, content: bytes) -> int:
        done = wait_for_ingest(client, api_upload(client, name, content)["id"])
        assert done["status"] == "ready", done["error"]
        return done["id"]

    return run


def _open(
    page, live_server, document_id: int, chunk: Chunk, message: int | None = None, n: int | None = None
) -> list[dict]:
    """Open the viewer the way a citation does (from an answer: `message` and `n`) and return the highlighted
    blocks once they are drawn."""
    response = page.goto(live_server.url + viewer_url(document_id, chunk.chunk_index, message, n))
    assert response.status == 200
    page.wait_for_selector(f"#doc-viewer[data-highlighted='{chunk.chunk_index}']")
    return page.evaluate(HIGHLIGHTED)


def _para_ids(chunk: Chunk) -> list[str]:
    return [f"para-{pid}" for pid in chunk.locator["para_ids"]]


def test_a_docx_citation_highlights_the_cited_table_and_the_paragraph_under_a_numbered_heading(
    page, live_server, ingest
):
    path = CORPUS / "docx-pandoc-tests" / "0_level_headers" / "0_level_headers.docx"
    document_id = ingest(path.name, path.read_bytes())
    chunks = list(Chunk.objects.filter(document_id=document_id).order_by("chunk_index"))
    _log_in(page, live_server, "vic", "pw-vic")

    # a paragraph inside a table: the table that holds it is highlighted, and shown
    in_table = next(c for c in chunks if c.chunk_type == "table")
    quote = in_table.text.split("\n")[-1]
    assert quote == "11 August 2017"
    shown = _open(page, live_server, document_id, in_table)
    assert [block["id"] for block in shown] == _para_ids(in_table)
    assert shown[0]["tag"] == "TABLE" and quote in shown[0]["text"] and shown[0]["visible"]
    assert page.locator("#doc-locate-note").is_hidden()

    # a paragraph under a numbered heading: the heading (with its number) and the paragraph
    under = next(c for c in chunks if "Nothing to introduce" in c.text)
    shown = _open(page, live_server, document_id, under)
    assert [block["id"] for block in shown] == _para_ids(under)
    heading, paragraph = shown
    assert heading["tag"] == "H3" and heading["text"] == "SECTION 1 Introduction"
    assert paragraph["text"] == "Nothing to introduce, yet." and paragraph["visible"]

    # the same sentence in two places: only the cited one lights up
    twice = "No table of figures entries found."
    cited = next(c for c in chunks if c.text.startswith("TABLES"))
    shown = _open(page, live_server, document_id, cited)
    assert [block["id"] for block in shown] == _para_ids(cited)
    other = page.locator(f"#doc-viewer p:has-text('{twice}')")
    assert other.count() == 2
    assert "doc-highlight" not in (other.first.get_attribute("class") or "")
    assert "doc-highlight" in other.last.get_attribute("class")


def test_the_side_panel_moves_the_highlight_in_a_docx(page, live_server, ingest):
    document_id = ingest(GUIDE.name, GUIDE.read_bytes())
    chunks = list(Chunk.objects.filter(document_id=document_id).order_by("chunk_index"))
    table = next(c for c in chunks if c.chunk_type == "table")
    _log_in(page, live_server, "vic", "pw-vic")
    shown = _open(page, live_server, document_id, table)
    assert [block["id"] for block in shown] == _para_ids(table)
    assert "Can manage members" in shown[0]["text"]
    page.wait_for_selector(".panel-chunk.is-target")
    # the panel names the place as the source cards do: paragraphs counted from 1
    first = table.para_start + 1
    place = f"§ {table.section} · paragraph {first}" if table.para_end == table.para_start else None
    shown_place = page.inner_text(".panel-chunk.is-target .muted")
    assert shown_place == (place or f"§ {table.section} · paragraphs {first}–{table.para_end + 1}"), shown_place
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    # clicking the next passage in the panel moves the highlight there, and the address follows
    after = chunks[table.chunk_index + 1]
    page.click(f".panel-chunk[data-chunk-index='{after.chunk_index}']")
    page.wait_for_selector(f"#doc-viewer[data-highlighted='{after.chunk_index}']")
    shown = page.evaluate(HIGHLIGHTED)
    assert [block["id"] for block in shown] == _para_ids(after)
    assert after.text.split("\n\n")[0] in shown[0]["text"]
    assert page.locator("#doc-viewer table.doc-highlight").count() == 0
    assert f"chunk={after.chunk_index}" in page.url
    page.wait_for_function(
        "() => document.querySelector('#doc-viewer .doc-highlight').getBoundingClientRect().top < innerHeight"
    )


MARKDOWN = """# Field notes

The survey started in March.
Counts were taken at dawn
on every second day.

## Results

The northern transect had 12 birds.
The southern transect had 7 birds.

## Discussion

Numbers were higher in the north,
probably because of the water level.
"""

SENTENCE = "Reed warblers were counted along the {} shore while the water stood high after the spring rain. "


def _plain_text() -> str:
    """Four long hard-wrapped paragraphs without headings: the chunker cuts them into several chunks."""
    paragraphs = []
    for name in ("north", "east", "south", "west"):
        words = (SENTENCE.format(name) * 6).split()
        paragraphs.append("\n".join(" ".join(words[k : k + 10]) for k in range(0, len(words), 10)))
    return "\n\n".join(paragraphs) + "\n"


def _highlighted_lines(page) -> list[int]:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('#doc-viewer .doc-line'))"
        ".filter(line => line.closest('.doc-highlight')).map(line => Number(line.dataset.line))"
    )


@pytest.mark.parametrize(("name", "content"), [("field-notes.md", MARKDOWN), ("shore.txt", _plain_text())])
def test_a_markdown_or_text_document_highlights_the_cited_lines(page, live_server, ingest, name, content):
    document_id = ingest(name, content.encode())
    chunks = list(Chunk.objects.filter(document_id=document_id).order_by("chunk_index"))
    assert len(chunks) >= 3
    cited = chunks[1]
    _log_in(page, live_server, "vic", "pw-vic")
    shown = _open(page, live_server, document_id, cited)
    assert shown and shown[0]["visible"]
    lines = content.split("\n")
    expected = [n for n in range(cited.line_start, cited.line_end + 1) if lines[n - 1].strip()]
    assert _highlighted_lines(page) == expected
    first_line = page.locator(f"#line-{expected[0]}")
    assert first_line.is_visible()
    assert lines[expected[-1] - 1].strip().lstrip("#").strip() in page.locator(f"#line-{expected[-1]}").inner_text()


def _parts(page) -> list[str]:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('#doc-viewer .doc-highlight-part')).map(el => el.innerText)"
    )


def test_a_chunk_cut_from_a_long_block_singles_out_its_own_part(page, live_server, ingest):
    # given a text file that is one long paragraph (the chunker cuts it into pieces that share its locator)
    sentences = [f"Sentence {n} counts the reed warblers seen on the shore at dawn." for n in range(80)]
    document_id = ingest("one-paragraph.txt", ("\n".join(sentences) + "\n").encode())
    chunks = list(Chunk.objects.filter(document_id=document_id).order_by("chunk_index"))
    assert len(chunks) >= 3 and chunks[1].line_start == chunks[2].line_start == 1
    _log_in(page, live_server, "vic", "pw-vic")
    # when a later piece is cited
    cited = chunks[2]
    _open(page, live_server, document_id, cited)
    # then the whole paragraph is marked, and the piece's own lines stand out within it
    assert _parts(page) == [s for s in sentences if s in cited.text]
    assert page.locator("#doc-viewer .doc-highlight-part").first.is_visible()


# The ranges of the quote's emphasis (a CSS custom highlight): their text, whether each lies inside a highlighted
# block (which one, and its tag), and whether it is on screen.
QUOTED = """() => {
  const emphasis = CSS.highlights.get('doc-quote');
  const ranges = emphasis ? [...emphasis] : [];
  return ranges.map(range => {
    const node = range.commonAncestorContainer;
    const block = (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement).closest('.doc-highlight');
    const box = range.getBoundingClientRect();
    return {text: range.toString(), block: block ? block.id : null, tag: block ? block.tagName : null,
            visible: box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0};
  });
}"""


def _quoted(page) -> tuple[str | None, list[dict]]:
    return page.get_attribute("#doc-viewer", "data-quoted"), page.evaluate(QUOTED)


def test_a_docx_citation_emphasises_the_quoted_sentence_for_the_owner_of_the_answer(
    page, live_server, ingest, personas
):
    from apps.documents.parsing.passage_text import sentences
    from tests.citations.cited_answer import cited_message

    # given an answer of vic's citing the guide's "Collections" passage (seven paragraphs) for one sentence of its
    # second paragraph, and the numbered steps of "How to check an answer" for two of the steps
    document_id = ingest(GUIDE.name, GUIDE.read_bytes())
    chunks = list(Chunk.objects.filter(document_id=document_id).order_by("chunk_index"))
    collections = next(c for c in chunks if c.text.startswith("Collections\n\n"))
    sentence = next(s for s in sentences(collections.text) if s.startswith("Every document lives"))
    steps = next(c for c in chunks if c.text.startswith("How to check an answer"))
    two_steps = " ".join(s for s in sentences(steps.text) if s.startswith(("2. Open", "3. Compare")))
    message = cited_message(personas["viewer"], [(collections, sentence), (steps, two_steps)])
    _log_in(page, live_server, "vic", "pw-vic")

    # when vic opens the first citation
    shown = _open(page, live_server, document_id, collections, message=message.pk, n=1)

    # then the passage's paragraphs are highlighted and, inside the second one, the sentence is emphasised, in view
    assert [block["id"] for block in shown] == _para_ids(collections)
    quoted, ranges = _quoted(page)
    assert quoted == "1" and len(ranges) == 1
    assert ranges[0]["text"] == sentence and ranges[0]["visible"]
    assert ranges[0]["block"] == _para_ids(collections)[1]
    assert page.inner_text(".cited-quote") == f"Cited for: “{sentence}”"

    # and the second citation emphasises both steps, each in its own list item, without their numbers
    shown = _open(page, live_server, document_id, steps, message=message.pk, n=2)
    quoted, ranges = _quoted(page)
    assert quoted == "2", ranges
    assert [r["text"] for r in ranges] == [s.split(". ", 1)[1] for s in sentences(two_steps)]
    assert all(r["block"] in _para_ids(steps) for r in ranges) and ranges[0]["block"] != ranges[1]["block"]

    # when another passage is chosen in the panel, the emphasis goes; back at the cited one, it returns
    other = chunks[steps.chunk_index - 1]
    page.click(f".panel-chunk[data-chunk-index='{other.chunk_index}']")
    page.wait_for_selector(f"#doc-viewer[data-highlighted='{other.chunk_index}']")
    assert _quoted(page) == ("0", [])
    page.click(f".panel-chunk[data-chunk-index='{steps.chunk_index}']")
    page.wait_for_selector(f"#doc-viewer[data-highlighted='{steps.chunk_index}']")
    assert _quoted(page)[0] == "2"

    # opened without the answer, the passage is highlighted with no quote
    _open(page, live_server, document_id, collections)
    assert _quoted(page) == ("0", []) and page.locator(".cited-quote").count() == 0

    # and someone else who may read the document, given the link, sees the passage but not vic's quote
    page.context.clear_cookies()
    _log_in(page, live_server, "ed", "pw-ed")
    page.wait_for_selector("text=Lab notes")
    shown = _open(page, live_server, document_id, collections, message=message.pk, n=1)
    assert [block["id"] for block in shown] == _para_ids(collections)
    assert _quoted(page) == ("0", []) and page.locator(".cited-quote").count() == 0


LISTED = """# Field notes

The survey started in March and the counts were taken at dawn.

- Twelve reed warblers sang on the northern transect
- Seven reed warblers sang on the southern transect

Numbers were higher in the north, probably because of the water level.
"""


def test_a_quote_running_over_two_list_items_is_emphasised_in_each_of_them(page, live_server, ingest, personas):
    from apps.citations.answers.citation import best_quote
    from tests.citations.cited_answer import cited_message

    # given a Markdown note whose list items have no full stop, so that the answer quotes two of them as one
    document_id = ingest("listed.md", LISTED.encode())
    chunk = Chunk.objects.get(document_id=document_id)
    quote = best_quote(chunk.text, "How many reed warblers sang on the northern and the southern transect?")
    items = [line for line in LISTED.splitlines() if line.startswith("- ")]
    assert quote == " ".join(items)
    message = cited_message(personas["viewer"], [(chunk, quote)])
    _log_in(page, live_server, "vic", "pw-vic")

    # when its owner opens the citation, the quote is emphasised in both items, one range in each
    _open(page, live_server, document_id, chunk, message=message.pk, n=1)
    quoted, ranges = _quoted(page)
    assert quoted == "1"
    assert [r["text"] for r in ranges] == items
    assert [r["tag"] for r in ranges] == ["LI", "LI"] and ranges[0]["block"] != ranges[1]["block"]
