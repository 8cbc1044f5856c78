"""A stored answer that cites real chunks, each for one quote, built the way the answer service builds and stores
its citations (answers/finalize.py: from_hit on the chunk's search hit)."""

from __future__ import annotations

from apps.citations.answers.citation import CITATION_VERSION, from_hit
from apps.citations.models import Conversation, Message
from apps.documents.models import Chunk
from apps.retrieval.search.hits import make_hit
from apps.retrieval.search.service import Ranked


def cited_message(user, cited: list[tuple[Chunk, str]], question: str = "What does it say?") -> Message:
    """`user`'s answer with one sentence per (chunk, quote), citing them as [1], [2], …"""
    citations, sentences = [], []
    for n, (chunk, quote) in enumerate(cited, start=1):
        chunk = Chunk.objects.select_related("document__collection").get(pk=chunk.pk)
        hit = make_hit(chunk, Ranked(chunk.pk, 0.5, "fusion"), question, {}, 80)
        citations.append(from_hit(hit, n, quote).as_dict())
        sentences.append({"text": f"It says so [{n}].", "citations": [n], "supported": True, "label": ""})
    answer = " ".join(s["text"] for s in sentences)
    result = {
        "question": question,
        "answer": answer,
        "answered": True,
        "language": "en",
        "depth": "quick",
        "strict": True,
        "sentences": sentences,
        "version": CITATION_VERSION,
        "citations": citations,
        "conflicts": [],
        "chain": {},
        "hint": "",
        "retrieval_note": "quick · hybrid · no reranker",
    }
    collection = cited[0][0].document.collection
    conversation = Conversation.objects.create(user=user, collection=collection, title=question)
    fields = {"question": question, "answer": answer, "depth": "quick", "strict": True}
    return Message.objects.create(conversation=conversation, result=result, composer="extractive", **fields)
