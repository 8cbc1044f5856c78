"""How an answer is shown on the pages, from stored or fresh data alike: the answer text with its badges, the source
cards, the sources that disagree and the citation chain (design.md, "A citation, as every surface sees it").

Everything here that becomes HTML is built with format_html/escape, so answer text, quotes and titles (which come
from documents and from whoever asked) are always escaped; templates print the results without |safe.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from django.utils import translation
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.citations.answers.citation import Citation, stored_citations
from apps.citations.answers.language import interface_language, phrase
from apps.citations.answers.store import with_status
from apps.citations.models import Message
from apps.documents.locators import locator_label, place_label, viewer_url
from apps.documents.models import Document
from apps.retrieval.views import bibliographic_line

_MARKER = re.compile(r"\[(\d+)\]")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)

# Lazy: a card's words are those of its answer's language, active when the card is made (present()).
PRECISION_WORDS = {
    "bbox": gettext_lazy("located on the page, passage highlighted"),
    "paragraph": gettext_lazy("located to the paragraph"),
    "file": gettext_lazy("located to the file only (no page or paragraph known)"),
}
LABEL_CLASSES = {"unsupported": "is-unsupported", "not from the library": "is-unsourced"}
# A claim's label is stored in English (the support check's word); it is shown in the answer's language.
LABEL_WORDS = {
    "unsupported": gettext_lazy("unsupported"),
    "not from the library": gettext_lazy("not from the library"),
}


def _badge(n: int, citation: Citation, message_id: int, quote: str = "") -> SafeString:
    """Badge n; its title is `quote`, the passage's words behind this very claim (the citation's own quote for
    answers stored before claims had their own)."""
    return format_html(
        '<a class="badge cite" href="#cite-{}-{}" data-n="{}" data-citation-id="{}" title="{}">{}</a>',
        message_id,
        n,
        n,
        citation.citation_id,
        quote or citation.quote,
        n,
    )


def inline_html(text: str, by_n: dict[int, Citation], message_id: int, quotes: dict | None = None) -> SafeString:
    """Escaped text with each `[n]` of a known citation turned into its badge; line breaks kept. `quotes`: the
    claim's own quote per number ({"1": "…"}, finalize's per-claim quotes), shown by its badges."""
    quotes = quotes or {}
    out: list[str] = []
    position = 0
    for match in _MARKER.finditer(text):
        out.append(escape(text[position : match.start()]).replace("\n", "<br>"))
        n = int(match[1])
        # A number without a citation (never expected: the service removes them) stays visible as text.
        out.append(_badge(n, by_n[n], message_id, quotes.get(str(n), "")) if n in by_n else escape(match[0]))
        position = match.end()
    out.append(escape(text[position:]).replace("\n", "<br>"))
    return mark_safe("".join(out))  # every piece above is escaped or built by format_html


def answer_html(answer: str, sentences: list[dict], by_n: dict[int, Citation], message_id: int) -> SafeString:
    """The answer as paragraphs, each sentence's badges showing that sentence's own quotes; sentences the support
    check labelled (non-strict answers only keep any) are wrapped and marked, so a reader sees which claims the
    library does not back."""
    # (claim number, row): the number is the row's 1-based place in `sentences`, as the viewer's `claim` reads it.
    rows = [(k, s) for k, s in enumerate(sentences, start=1) if s.get("text") and s["text"] in answer]
    paragraphs = []
    for paragraph in (p.strip() for p in _PARAGRAPH_BREAK.split(answer)):
        if not paragraph:
            continue
        pieces: list[str] = []
        cursor = 0
        # Sentences come in answer order and never cross a paragraph break (support.split_sentences).
        while rows and (at := paragraph.find(rows[0][1]["text"], cursor)) >= 0:
            number, row = rows.pop(0)
            text, label = row["text"], row.get("label", "")
            pieces.append(inline_html(paragraph[cursor:at], by_n, message_id))
            claim = inline_html(text, by_n, message_id, row.get("quotes"))
            if label:
                claim = format_html(
                    '<span class="claim {}">{} <span class="claim-label">{}</span></span>',
                    LABEL_CLASSES.get(label, "is-unsupported"),
                    claim,
                    LABEL_WORDS.get(label, label),
                )
            if row.get("citations"):
                # The claim's number: a badge clicked inside it opens the viewer at this claim's own quote (ask.js
                # adds `&claim=` to the card's link, and the viewer reads claim_quote).
                claim = format_html('<span class="claim-text" data-claim="{}">{}</span>', number, claim)
            pieces.append(claim)
            cursor = at + len(text)
        pieces.append(inline_html(paragraph[cursor:], by_n, message_id))
        paragraphs.append(format_html("<p>{}</p>", mark_safe("".join(pieces))))  # escaped pieces
    return mark_safe("".join(paragraphs))  # built by format_html


def _open_label(citation: Citation) -> str:
    if citation.status == "changed":
        return _("open the document")
    # "open at p. 4", "open at line 12", "open at paragraph 21": the first page, line or paragraph of the place.
    place = place_label(citation, first_only=True)
    return _("open at %(place)s") % {"place": place} if place else _("open")


def _in_answer(citation: Citation, message_id: int) -> str:
    """A viewer link that knows its answer, so the viewer can step to the answer's other citations (a changed
    passage links the document page only, as answers.store set it)."""
    if "?chunk=" not in citation.viewer_url:
        return citation.viewer_url
    return viewer_url(citation.document_id, citation.chunk_index, message_id, citation.n)


def claim_quote(result: dict, n: int, claim: int | None) -> str:
    """The quote of citation n behind claim `claim` (1-based in the stored answer's `sentences`), as its badge
    shows it; "" when that claim does not cite n or carries no quotes of its own (answers stored before
    per-claim quotes), and the citation's own quote is meant."""
    rows = result.get("sentences") or []
    if not claim or not 1 <= claim <= len(rows):
        return ""
    row = rows[claim - 1]
    if n not in (row.get("citations") or []):
        return ""
    return ((row.get("quotes") or {}).get(str(n)) or "").strip()


def doi_url(doi: str) -> str:
    doi = _DOI_PREFIX.sub("", (doi or "").strip())
    return f"https://doi.org/{quote(doi, safe='/:;()._-')}" if doi else ""


def card(citation: Citation, message_id: int, zotero_keys: dict[int, str], cited: bool = True) -> dict:
    """What a source card shows for one citation (with its current status, answers.store.with_status).
    `cited` false: a passage on the topic of an unanswered question, which no badge of the answer names."""
    linked = citation.status != "deleted"  # a deleted document has nowhere to go
    zotero = ""
    if linked and (key := zotero_keys.get(citation.document_id)):
        zotero = f"zotero://open-pdf/library/items/{quote(key)}"
        if citation.page:
            zotero += f"?page={citation.page}"
    precision = str(PRECISION_WORDS.get(citation.locator_precision, citation.locator_precision))
    if citation.locator_degraded:
        precision += " " + _("(approximate: a finer place was not available)")
    if citation.ocr:
        precision += " · " + _("text recognised by OCR")
    return {
        "c": citation,
        "anchor": f"{'cite' if cited else 'topic'}-{message_id}-{citation.n}",
        "locator": locator_label(citation),
        "bibliographic": bibliographic_line(citation),
        "precision": precision,
        "doi_url": doi_url(citation.doi),
        "open_url": (_in_answer(citation, message_id) if cited else citation.viewer_url) if linked else "",
        "open_label": _open_label(citation),
        "zotero_url": zotero,
        "status": citation.status,
        "status_note": _(citation.status_note) if citation.status_note else "",
    }


def present(
    message: Message,
    citations: list[Citation],
    zotero_keys: dict[int, str],
    topic_passages: list[Citation] | None = None,
) -> dict:
    """Everything the message partial (citations/_message.html) shows for one stored question and answer.
    `topic_passages`: an unanswered question's passages on the topic, with their status (stored results only).

    The answer's fixed words (card places, "open at …", claim labels) are in the answer's language, whatever the
    interface's: the template renders them under `language` too."""
    result = message.result or {}
    language = interface_language(result.get("language", "en"))
    with translation.override(language):
        return _present(message, result, citations, zotero_keys, topic_passages, language)


def _present(
    message: Message,
    result: dict,
    citations: list[Citation],
    zotero_keys: dict[int, str],
    topic_passages: list[Citation] | None,
    language: str,
) -> dict:
    by_n = {c.n: c for c in citations}
    answered = result.get("answered", bool(citations))
    return {
        "message": message,
        "language": language,
        "question": message.question,
        "answered": answered,
        "answer_html": answer_html(result.get("answer", message.answer), result.get("sentences", []), by_n, message.pk),
        # A plain "the documents do not answer this" has no citations, so no cards either.
        "cards": [card(c, message.pk, zotero_keys) for c in citations],
        "conflicts": [
            inline_html(c.get("text", ""), by_n, message.pk, c.get("quotes")) for c in result.get("conflicts", [])
        ],
        # Not answered: what was found instead, so a reader still gets the sources.
        "topic_cards": [card(c, message.pk, zotero_keys, cited=False) for c in topic_passages or []],
        "topic_heading": phrase(result.get("language", "en"), "topic_passages"),
        "conflicts_heading": phrase(result.get("language", "en"), "conflicts"),
        "chain": _chain(result.get("chain") or {}),
        "hint": result.get("hint", ""),
        "retrieval_note": result.get("retrieval_note", ""),
        "fallback": (result.get("diagnostics") or {}).get("composer_fallback", ""),
    }


def _chain(chain: dict) -> dict:
    """The stored chain block, with `exists` on library lines: a document deleted since gets no link."""
    suggested = [dict(line, doi_url=doi_url(line.get("doi", ""))) for line in chain.get("suggested", [])]
    linked = [line["document_id"] for part in ("in_library", "related") for line in chain.get(part, [])]
    present = set(Document.objects.filter(pk__in=linked).values_list("pk", flat=True)) if linked else set()
    in_library = [dict(line, exists=line["document_id"] in present) for line in chain.get("in_library", [])]
    related = [dict(line, exists=line["document_id"] in present) for line in chain.get("related", [])]
    return {"in_library": in_library, "suggested": suggested, "related": related}


def present_messages(messages: list[Message]) -> list[dict]:
    """present() for several messages, with the status of all their citations and the Zotero keys of all their
    documents looked up together (a few queries per page, not per message)."""
    stored = [stored_citations(m.result) for m in messages]
    topics = [stored_citations(m.result, "topic_passages") for m in messages]
    current = with_status([c for citations in stored for c in citations])
    current_topics = with_status([c for passages in topics for c in passages])
    document_ids = {c.document_id for c in [*current, *current_topics]}
    zotero_keys: dict[int, str] = {}
    if document_ids:
        zotero_keys = dict(
            Document.objects.filter(pk__in=document_ids).exclude(zotero_key="").values_list("pk", "zotero_key")
        )
    out, start, topic_start = [], 0, 0
    for message, citations, passages in zip(messages, stored, topics, strict=True):
        on_topic = current_topics[topic_start : topic_start + len(passages)]
        out.append(present(message, current[start : start + len(citations)], zotero_keys, on_topic))
        start += len(citations)
        topic_start += len(passages)
    return out


def answer_text(result: dict, *, ids: bool = False) -> list[str]:
    """The answer as text lines, for the terminal (manage.py ask) and the MCP tool's text: the answer; each claim
    with the quote of each source it cites (its own, as its badges show it); the sources that disagree, each with
    its quotes; the sources; or, for a question the documents do not answer, the passages on the topic with their
    quotes. `ids`: name each source's document and chunk, which a program passes on to a preview."""
    # The fixed words ("Sources:") in the answer's language, as on the page.
    with translation.override(interface_language(result.get("language", "en"))):
        return _answer_lines(result, ids)


def _answer_lines(result: dict, ids: bool) -> list[str]:
    lines = [result["answer"]]
    by_n = {c.n: c for c in stored_citations(result)}
    quoted: set[int] = set()

    def claim_lines(row: dict, mark: str) -> list[str]:
        label = f"({row['label']}) " if row.get("label") else ""
        out = [f"{mark}{label}{row['text']}"]
        for n in dict.fromkeys(row.get("citations") or []):
            # Answers stored before per-claim quotes have none: the citation's own quote stands for them.
            quote = (row.get("quotes") or {}).get(str(n)) or (by_n[n].quote if n in by_n else "")
            if quote:
                quoted.add(n)
                out.append(f"    [{n}] “{quote}”")
        return out

    if result.get("answered", True) and result.get("sentences"):
        lines.append("\n" + _("Claims and their quotes:"))
        for row in result["sentences"]:
            lines += claim_lines(row, "- ")
    if result.get("conflicts"):
        lines.append(f"\n{phrase(result.get('language', 'en'), 'conflicts')}:")
        for row in result["conflicts"]:
            lines += claim_lines(row, "- ")
    if by_n:
        lines.append("\n" + _("Sources:"))
    for c in by_n.values():
        lines += _source_lines(c, ids, with_quote=c.n not in quoted)
    if not result.get("answered", True) and (on_topic := stored_citations(result, "topic_passages")):
        # Not answered: what was found instead, so a reader still gets the sources.
        lines.append("\n" + phrase(result.get("language", "en"), "topic_passages"))
        for c in on_topic:
            lines += _source_lines(c, ids, with_quote=True)
    if result.get("hint"):
        lines.append("\n" + result["hint"])
    return lines


def _source_lines(citation: Citation, ids: bool, with_quote: bool) -> list[str]:
    where = locator_label(citation)
    title = citation.title or citation.source or f"document {citation.document_id}"
    # Ids for a program (the MCP tool passes them on to a preview): the same words in every language.
    place = f" (document {citation.document_id}, chunk {citation.chunk_index})" if ids else ""
    lines = [f"[{citation.n}] {title}" + (f" — {where}" if where else "") + place]
    if with_quote and citation.quote:
        lines.append(f"    “{citation.quote}”")
    return lines
