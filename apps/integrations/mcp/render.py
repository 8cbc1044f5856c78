"""The text each tool result carries beside its JSON: what a model or a person reads when a client shows only text.

Places are named as the pages and the CLI name them (locator_label), so "§ Methods · p. 4" means the same
everywhere.
"""

from __future__ import annotations

from apps.citations import display
from apps.documents.locators import Locator, locator_label

SNIPPET_CHARS = 300


def _title(item: dict) -> str:
    return item.get("title") or item.get("source") or f"document {item.get('document_id')}"


def _where(item: dict) -> str:
    where = locator_label(Locator.from_fields(item))
    return f" — {where}" if where else ""


def _short(text: str, limit: int = SNIPPET_CHARS) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def search_text(result: dict) -> str:
    hits = result["results"]
    heading = f"{len(hits)} results for" if hits else "No results for"
    lines = [f"{heading} “{result['query']}”" + (":" if hits else ".")]
    for rank, hit in enumerate(hits, 1):
        lines.append(f"{rank}. {_title(hit)}{_where(hit)} (document {hit['document_id']}, chunk {hit['chunk_index']})")
        lines.append(f"   {_short(hit['text'])}")
    if result.get("hint"):
        lines.append(result["hint"])
    return "\n".join(lines)


def answer_text(result: dict) -> str:
    """What the CLI prints (display.answer_text: each claim with its own quotes, or the passages on the topic of an
    unanswered question), each source named by document and chunk for kb_preview."""
    lines = display.answer_text(result, ids=True)
    lines.append(f"\nConversation {result['conversation']} (pass it as `conversation` to follow up).")
    return "\n".join(lines)


def preview_text(result: dict) -> str:
    total = result["total_chunks"]
    lines = [
        f"Document {result['document_id']}: chunk {result['target_index']} (marked ») with its neighbours;"
        f" its chunks are numbered 0–{max(total - 1, 0)}."
    ]
    for chunk in result["chunks"]:
        mark = "»" if chunk["is_target"] else " "
        where = chunk["place"]
        lines.append(f"{mark} [{chunk['chunk_index']}]" + (f" {where}" if where else ""))
        lines.append(f"  {chunk['text']}")
    return "\n".join(lines)
