"""How evaluate.py judges one answer, and sums up many: pure functions of the answer's JSON and the question's
gold (tests/citations/test_evaluate_answers.py). Loaded by evaluate.py from its file (bench/ is not a package)."""

from __future__ import annotations

import re
import statistics
import unicodedata

_MARKERS = re.compile(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")
_LINE_HYPHEN = re.compile(r"(?<=\w)-\s+(?=\w)")  # "satis- faction": a word hyphenated at a PDF line end


def without_markers(text: str) -> str:
    return _MARKERS.sub("", text).strip()


def normalise(text: str) -> str:
    """For containment: compatibility forms (ligatures, full-width), no markers, no whitespace (PDF line breaks
    split Chinese words and English phrases alike), a line-end hyphen closed up, case folded."""
    text = unicodedata.normalize("NFKC", without_markers(text))
    return re.sub(r"\s+", "", _LINE_HYPHEN.sub("", text)).casefold()


def contains_any(text: str, gold) -> bool:
    haystack = normalise(text)
    return any(normalise(g) and normalise(g) in haystack for g in gold)


def item_recall(answer: str, items) -> float | None:
    """Share of the gold items whose text appears in the answer."""
    items = list(items)
    if not items:
        return None
    haystack = normalise(answer)
    return sum(normalise(item) in haystack for item in items) / len(items)


def claims_of(result: dict) -> list[dict]:
    """The answer's claims: its sentences that carry citations (the 'no answer' note carries none)."""
    return [s for s in result.get("sentences", []) if s.get("citations")]


# The detector of non-sentence claims. A claim is a sentence when it ends as one (or is a list item), is not cut
# with "..", holds at least 4 content terms (a lead-in with its first item), and is not its source's title or one of
# its headings.
_TERMINAL = re.compile(r"[.!?。！？;；:：…][\"'”’」』）)\]]*$")
_LIST_ITEM = re.compile(
    r"^(?:[•·▪◦●\-–*]\s|[(（]?\d{1,3}[.)）、](?!\d)\s?|\(?[a-zA-Z][.)]\s|\([ivxIVX]{1,5}\)\s?|[①-⑳]"
    r"|[一二三四五六七八九十]{1,3}[、.])"
)
_STOPWORDS_WORDS = (
    "a an the and or but of to in on at by for from with as is are was were be been being this that these "
    "those it its their his her they we you he she which who whom whose what when where how why not no "
    "than then so such 的 了 是 在 和 与 及 或 也 都 而 并 被 把 从 对 为 以 于 之 其 这 那 个 有 中 等 着 将 就 又 更 "
)
_STOPWORDS = frozenset(_STOPWORDS_WORDS.split())
_LATIN_TERM = re.compile(r"[A-Za-z][A-Za-z0-9'’\-]*|\d+(?:[.,]\d+)*%?")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def content_terms(text: str) -> list[str]:
    """Words that carry content, in English and Chinese (jieba cuts Chinese runs into words)."""
    terms = [t for t in _LATIN_TERM.findall(text) if t.lower() not in _STOPWORDS]
    runs = _CJK.findall(text)
    if runs:
        import jieba

        terms += [w for run in runs for w in jieba.lcut(run) if w.strip() and w not in _STOPWORDS]
    return terms


# A claim may be a lead-in with its items ("… include: [1] • A [1] • B [1]"): each line and each bulleted item is
# judged on its own, so an item needs no full stop while a lead-in cut mid-sentence still counts.
_PARTS = re.compile(r"\n+|\s+(?=[•·▪◦●]\s)")
_LEAD_COLON = re.compile(r"[:：]\s*$")
# A sentence cut with "..": two dots, or an ellipsis at the end; not the source's own "…, ..., …" inside a formula
# or a quotation ("CE = {E1, ..., EM}").
_CUT = re.compile(r"(?<!\.)\.\.(?!\.)|\.\.\.\W*$")
# "Note:", "注：": a label, no sentence.
_LABEL = re.compile(r"^\s*(?:[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'’-]*|[\u3400-\u9fff]{1,4})\s*[:：]\s*$")


def non_sentence_reason(claim: str, headings=(), next_claim: str = "") -> str:
    """Why `claim` is not a sentence ("" when it is one): no_end, dots, short or heading (of its first failing
    line or item). `next_claim`: the answer's claim after it, which a lead-in reads on into when it is an item."""
    parts = [p for p in _PARTS.split(without_markers(claim)) if p.strip()]
    if len(parts) > 1:
        # A lead-in and its first item read as one sentence ("This paper contributes: (1) A prototype …"): a
        # short lead-in is judged with it, so "Keywords: - Afforestation;" is still short, "注：" alone too.
        read_on = [
            parts[k + 1] if _LEAD_COLON.search(p) and _LIST_ITEM.match(parts[k + 1]) else ""
            for k, p in enumerate(parts[:-1])
        ] + [""]
        return next((why for p, on in zip(parts, read_on, strict=True) if (why := _part_reason(p, headings, on))), "")
    text = without_markers(claim)
    following = without_markers(next_claim)
    read_on = following if _LEAD_COLON.search(text) and _LIST_ITEM.match(following) else ""
    return _part_reason(text, headings, read_on)


def _part_reason(text: str, headings, read_on: str = "") -> str:
    """`read_on`: the first item after a lead-in `text`, whose terms the lead-in's count includes."""
    listed = bool(_LIST_ITEM.match(text))
    if _CUT.search(text):
        return "dots"
    if not listed and not _TERMINAL.search(text):
        return "no_end"
    if not listed and (_LABEL.match(text) or len(content_terms(f"{text} {read_on}")) < 4):
        return "short"
    key = normalise(text).rstrip(".。:：")
    if any(key == normalise(h).rstrip(".。:：") for h in headings if h and h.strip()):
        return "heading"
    return ""


def _headings_of(result: dict, claim: dict) -> list[str]:
    by_n = {c.get("n"): c for c in result.get("citations", [])}
    out = []
    for n in claim.get("citations", []):
        citation = by_n.get(n, {})
        out += [citation.get("title", ""), *(citation.get("heading_path") or [])]
    return out


def question_kind(text: str) -> tuple[str | None, bool | None]:
    """(kind, factoid) as the composer reads the question (answers.question.classify); (None, None) in a tree
    without it (main before issue 15): write_combined then takes them from the other side's rows."""
    try:
        from apps.citations.answers.question import classify
    except ImportError:
        return None, None
    asked = classify(text)
    return asked.kind, asked.factoid


def judge(result: dict, question, source_of: dict[int, str]) -> dict:
    """One answer against its question's gold; `source_of` maps document ids to source ids (BEIR id, path)."""
    answer = result.get("answer", "")
    claims = claims_of(result)
    by_n = {c.get("n"): c for c in result.get("citations", [])}
    cited = [source_of.get(c.get("document_id"), "?") for c in result.get("citations", [])]
    first = claims[0] if claims else None
    first_sources = [source_of.get(by_n.get(n, {}).get("document_id"), "?") for n in (first or {}).get("citations", [])]
    reasons = [
        (
            c["text"],
            non_sentence_reason(
                c["text"], _headings_of(result, c), claims[k + 1]["text"] if k + 1 < len(claims) else ""
            ),
        )
        for k, c in enumerate(claims)
    ]
    kind, factoid = question_kind(question.text)
    return {
        "id": question.qid,
        "split": question.split,
        "kind": kind,  # answers.question.classify's kind of the question (the goal is on factoid kinds)
        "factoid": factoid,
        "answered": bool(result.get("answered")),
        "contains_gold": contains_any(answer, question.gold) if question.gold else None,
        "first_claim_gold": (contains_any(first["text"], question.gold) if first else False) if question.gold else None,
        "cited_relevant": any(s in question.relevant for s in cited),
        "first_claim_relevant": any(s in question.relevant for s in first_sources),
        "length": len(without_markers(answer)),
        "claims": len(claims),
        "non_sentence": [{"text": text, "reason": why} for text, why in reasons if why],
        "claim_texts": [c["text"] for c in claims],  # to judge again with a better detector
        "item_recall": item_recall(answer, question.items) if question.items else None,
        "composer": result.get("composer", ""),
        "fallback": bool(result.get("diagnostics", {}).get("composer_fallback")),
        # The LLM path: why it fell back, and how many written sentences strict mode dropped.
        "fallback_reason": (result.get("diagnostics", {}).get("composer_fallback") or "")[:300],
        "dropped": len(result.get("diagnostics", {}).get("dropped_sentences") or []),
    }


def _share(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(sum(bool(v) for v in values) / len(values), 4) if values else None


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 4) if values else None


def summarise(everything: list[dict], answerable: bool) -> dict:
    """Figures of one set × split × depth × composer; unanswered questions count against every 'holds' share.
    An answer the fallback composer wrote (the LLM failed) is counted apart, not as the composer's work."""
    rows = [r for r in everything if not r["fallback"]]
    lengths = [r["length"] for r in rows if r["answered"]]
    out = {
        "questions": len(rows),
        "answered": _share(r["answered"] for r in rows),
        "abstained": _share(not r["answered"] for r in rows),
        "non_sentence_claims": sum(len(r["non_sentence"]) for r in rows),
        "claims": sum(r["claims"] for r in rows),
        "answers_with_non_sentence": _share(bool(r["non_sentence"]) for r in rows),
        "median_length": statistics.median(lengths) if lengths else None,
        "composer_fallbacks": len(everything) - len(rows),
        "p50_seconds": round(statistics.median(r["seconds"] for r in rows), 3) if rows else None,
    }
    if answerable:
        out.update(
            contains_gold=_share(r["answered"] and r["contains_gold"] for r in rows if r["contains_gold"] is not None),
            first_claim_gold=_share(
                r["answered"] and r["first_claim_gold"] for r in rows if r["first_claim_gold"] is not None
            ),
            # The goal counts answerable FACTOID questions (a number, date, person, place, organisation):
            # the same share over the rows whose question classify() reads as one of those kinds.
            first_claim_gold_factoid=_share(
                r["answered"] and r["first_claim_gold"]
                for r in rows
                if r["first_claim_gold"] is not None and r.get("factoid")
            ),
            factoid_questions=sum(1 for r in rows if r["first_claim_gold"] is not None and r.get("factoid")) or None,
            cited_relevant=_share(r["answered"] and r["cited_relevant"] for r in rows),
            first_claim_relevant=_share(r["answered"] and r["first_claim_relevant"] for r in rows),
            item_recall=_mean(r["item_recall"] if r["answered"] else 0.0 for r in rows if r["item_recall"] is not None),
        )
        out = {k: v for k, v in out.items() if v is not None or k == "median_length"}
    return out


# --- both trees, one table ---------------------------------------------------------------------------------------

TABLE_FIELDS = (
    ("answered", "answered"),
    ("abstained", "abstained"),
    ("first_claim_gold", "1st claim holds gold"),
    ("first_claim_gold_factoid", "1st claim holds gold (factoid kinds)"),
    ("factoid_questions", "factoid n"),
    ("contains_gold", "answer holds gold"),
    ("first_claim_relevant", "1st claim cites relevant"),
    ("cited_relevant", "cites relevant"),
    ("item_recall", "list item recall"),
    ("median_length", "median chars"),
    ("non_sentence_claims", "non-sentence claims"),
    ("p50_seconds", "p50 s"),
)


SHARES = {
    "answered",
    "abstained",
    "first_claim_gold",
    "first_claim_gold_factoid",
    "contains_gold",
    "first_claim_relevant",
    "cited_relevant",
    "item_recall",
}


def _cell(value, share: bool) -> str:
    if value is None:
        return "–"
    if share:
        return f"{value * 100:.0f}%"
    return f"{value:g}" if isinstance(value, float) else str(value)


def markdown(combined: dict) -> str:
    """One line per set × split × depth × composer: 'today → now' for every figure that applies."""
    lines = [
        f"Measured {combined['date']} on {combined['machine']}; baseline {combined['baseline']['code_commit']}, "
        f"current {combined['current']['code_commit']} (working tree). Each cell: baseline → current.",
        "",
        "| set | split | depth | composer | n | " + " | ".join(label for _, label in TABLE_FIELDS) + " |",
        "|" + "---|" * (5 + len(TABLE_FIELDS)),
    ]
    current = {(r["set"], r["split"], r["depth"], r["composer"]): r["summary"] for r in combined["current"]["runs"]}
    for run in combined["baseline"]["runs"]:
        key = (run["set"], run["split"], run["depth"], run["composer"])
        before, after = run["summary"], current.get(key, {})
        cells = []
        for name, _ in TABLE_FIELDS:
            if name not in before and name not in after:
                cells.append("")
            else:
                share = name in SHARES
                cells.append(f"{_cell(before.get(name), share)} → {_cell(after.get(name), share)}")
        lines.append(f"| {' | '.join(key)} | {before['questions']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def share_kinds(sides: dict) -> None:
    """A side measured without answers.question (the baseline tree) takes each question's kind from the other
    side's row for it, so both sides count the same factoid questions."""
    known = {
        (asked["set"], row["id"]): (row["kind"], row["factoid"])
        for side in sides.values()
        for asked in side.get("questions", [])
        for row in asked["rows"]
        if row.get("kind") is not None
    }
    for side in sides.values():
        for asked in side.get("questions", []):
            for row in asked["rows"]:
                if row.get("kind") is None and (asked["set"], row["id"]) in known:
                    row["kind"], row["factoid"] = known[(asked["set"], row["id"])]
