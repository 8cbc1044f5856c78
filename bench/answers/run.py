"""Citation quality of the answer service on BEIR SciFact: do answers cite the abstract that supports the claim?

Run (PostgreSQL with pgvector and Redis; a database of its own, e.g. the search bench's):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/portal_bench REDIS_URL=redis://127.0.0.1:6379/3 \\
    SECRET_KEY=bench ALLOWED_HOSTS=127.0.0.1,localhost PORTAL_HTTPS=false \\
    python bench/answers/run.py --composer extractive --depth deep quick --max-claims 300 --json

Each test claim is asked with `answers.service` (prepare + run, as `ask()` does, keeping the evidence event) in the
SciFact collection "bench-seed" (loaded like `manage.py evaluate --beir` if missing: vectors cached under
var/cache/beir-vectors). Measured per setting: answered share; citation hit (a cited document is in the claim's
qrels) over answered claims and over all claims; evidence hit (a relevant abstract was among the passages the
composer saw); cited sentences the support check accepts; uncleanable markers; wall time per answer.
`--composer llm` starts SmolLM2-135M-Instruct under xllamacpp (tests/citations/local_llm.py) and points
PORTAL_LLM_BASE_URL / PORTAL_LLM_MODEL at it (PORTAL_LLM_TIMEOUT from --llm-timeout: a loaded 2-core machine
can take over 60 s); answers the fallback composer wrote are counted apart, not in the composer's figures.
Search results are not cached across runs (own cache prefix), but within one run a second strict setting of the
same depth gets the first one's searches from the cache (retrieval ~2 ms instead of ~170 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
os.environ["PORTAL_CACHE_PREFIX"] = f"bench-answers-{os.getpid()}-{time.time_ns()}"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402

from apps.citations.answers import service  # noqa: E402
from apps.citations.answers.language import phrase  # noqa: E402
from apps.citations.answers.markers import markers_in  # noqa: E402
from apps.documents.models import Collection, Document  # noqa: E402
from apps.evaluation.ranking import load_beir  # noqa: E402
from apps.evaluation.retrieval import load_collection  # noqa: E402
from apps.retrieval.keyword import store  # noqa: E402
from apps.retrieval.search.service import query_embedder  # noqa: E402

SCIFACT = (ROOT / ".." / "shared" / "corpus" / "beir-scifact").resolve()
SLUG = "bench-seed"  # shared with bench/search/run.py
RESULTS = Path(__file__).resolve().parent / "results"
NO_ANSWER = phrase("en", "no_answer")
ECHOES = ("passage number like [", "cite as [", "[kb ", "Question: ", "Answer from the evidence above")
WARM_UP = ["Does aspirin reduce the risk of heart attack?", "Vitamin D deficiency is linked to bone fractures."]


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def scifact_collection() -> tuple[Collection, dict[int, str]]:
    """The SciFact collection (reused, or loaded) and Document id → SciFact doc id."""
    with open(SCIFACT / "corpus.jsonl", encoding="utf-8") as fh:
        order = [str(json.loads(line)["_id"]) for line in fh if line.strip()]
    collection = Collection.objects.filter(slug=SLUG).first()
    if collection is None or Document.objects.filter(collection=collection).count() != len(order):
        if collection is not None:
            sys.exit(f"collection {SLUG} exists but does not hold the {len(order)} SciFact abstracts")
        embedder, problem = query_embedder()
        if embedder is None:
            sys.exit(problem)
        collection, _ = load_collection(SCIFACT, embedder, say)
        Collection.objects.filter(pk=collection.pk).update(slug=SLUG, name="bench seed (SciFact)")
        collection.refresh_from_db()
    store.refresh_snapshot(collection.pk)
    # load_collection names the files by position in corpus.jsonl: doc-<n>.md.
    names = Document.objects.filter(collection=collection).values_list("id", "original_name")
    return collection, {pk: order[int(name.removeprefix("doc-").split(".")[0])] for pk, name in names}


def ask_one(user, params: service.AskParams) -> tuple[dict, list[dict], float]:
    """(finish data, evidence items, wall seconds): what ask() does, keeping the evidence event."""
    started = time.perf_counter()
    result, evidence = {}, []
    for event in service.run(service.prepare(user, params)):
        if event.kind == "evidence":
            evidence = event.data["evidence"]
        elif event.kind == "finish":
            result = event.data
    return result, evidence, time.perf_counter() - started


def record(qid: str, claim: str, relevant: dict, result: dict, evidence: list[dict], seconds: float, beir) -> dict:
    diagnostics = result["diagnostics"]
    rows = [s for s in result["sentences"] if s["text"] != NO_ANSWER]
    cited = [s for s in rows if s["citations"]]
    dropped = diagnostics["dropped_sentences"]
    cited_docs = [beir.get(c["document_id"], "?") for c in result["citations"]]
    evidence_docs = list(dict.fromkeys(beir.get(e["document_id"], "?") for e in evidence))
    return {
        "id": qid,
        "claim": claim,
        "relevant": sorted(relevant),
        "answered": result["answered"],
        "cited": cited_docs,
        "hit": any(d in relevant for d in cited_docs),
        "evidence": evidence_docs,
        "evidence_hit": any(d in relevant for d in evidence_docs),
        "cited_sentences": len(cited),
        "supported_sentences": sum(1 for s in cited if s["supported"]),
        "uncited_sentences": len(rows) - len(cited),
        # Strict mode drops the sentences the check rejects and those that cite nothing.
        "dropped_cited": sum(1 for d in dropped if markers_in(d)),
        "dropped_uncited": sum(1 for d in dropped if not markers_in(d)),
        # Markers that survived cleaning, before strict mode dropped any sentence.
        "valid_citation": bool(cited) or any(markers_in(d) for d in dropped),
        "removed_markers": diagnostics["removed_markers"],
        # The prompt's own wording copied into the answer ("… passage number like [1] …" reads as a citation).
        "echoes_prompt": any(text in result["answer"] for text in ECHOES),
        "composer": result["composer"],
        "composer_fallback": diagnostics["composer_fallback"],
        "degraded": diagnostics["search"].get("degraded", []),
        "seconds": round(seconds, 3),
        "timings_ms": diagnostics["timings_ms"],
        "answer": result["answer"],
    }


def summarise(everything: list[dict]) -> dict:
    # An answer the fallback wrote (the LLM failed or timed out) is counted apart, not as the composer's work.
    rows = [r for r in everything if not r["composer_fallback"]]
    n = len(rows)
    answered = [r for r in rows if r["answered"]]
    cited = sum(r["cited_sentences"] for r in rows)
    # Cited sentences strict mode has already dropped count as checked and rejected.
    checked = cited + sum(r["dropped_cited"] for r in rows)
    seconds = [r["seconds"] * 1000.0 for r in rows]
    p50, p95 = np.percentile(seconds, [50, 95]) if seconds else (0.0, 0.0)
    stages = {k: float(np.median([r["timings_ms"][k] for r in rows])) for k in rows[0]["timings_ms"]} if rows else {}
    share = lambda part, whole: round(part / whole, 4) if whole else None  # noqa: E731
    return {
        "claims": n,  # without composer fallbacks
        "answered": share(len(answered), n),
        "citation_hit_answered": share(sum(r["hit"] for r in answered), len(answered)),
        "citation_hit_all": share(sum(r["hit"] for r in answered), n),
        # Non-strict answers keep their citations under the "do not answer" note: any citation, answered or not.
        "relevant_cited_any": share(sum(r["hit"] for r in rows), n),
        "first_citation_hit": share(sum(r["cited"][0] in r["relevant"] for r in answered if r["cited"]), len(answered)),
        "cited_documents_relevant": share(
            sum(d in r["relevant"] for r in answered for d in set(r["cited"])),
            sum(len(set(r["cited"])) for r in answered),
        ),
        "evidence_hit": share(sum(r["evidence_hit"] for r in rows), n),
        "answered_when_evidence_hit": share(
            sum(r["answered"] for r in rows if r["evidence_hit"]), sum(r["evidence_hit"] for r in rows)
        ),
        "cited_sentences": cited,
        "supported_share": share(sum(r["supported_sentences"] for r in rows), cited),
        "supported_share_before_strict": share(sum(r["supported_sentences"] for r in rows), checked),
        "uncited_sentences": sum(r["uncited_sentences"] + r["dropped_uncited"] for r in rows),
        "with_valid_citation": share(sum(r["valid_citation"] for r in rows), n),
        "with_citation_shown": share(sum(bool(r["cited"]) for r in rows), n),
        "removed_markers_per_answer": share(sum(len(r["removed_markers"]) for r in rows), n),
        "no_answer_fallback": share(n - len(answered), n),
        "echoes_prompt": share(sum(r["echoes_prompt"] for r in rows), n),
        "composer_fallbacks": len(everything) - n,
        "degraded_searches": sum(bool(r["degraded"]) for r in rows),
        "p50_ms": round(float(p50), 1),
        "p95_ms": round(float(p95), 1),
        "stage_median_ms": {k: round(v, 1) for k, v in stages.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--composer", choices=service.COMPOSERS, default="extractive")
    parser.add_argument("--depth", nargs="+", choices=("deep", "quick"), default=["deep", "quick"])
    parser.add_argument("--strict", nargs="+", choices=("on", "off"), default=None, help="default: on (llm: both)")
    parser.add_argument("--max-claims", type=int, default=None, help="the first N test claims (default: all 300)")
    parser.add_argument("--llm-timeout", type=int, default=180, help="seconds per LLM answer (setting: 60)")
    parser.add_argument("--json", nargs="?", const="auto", default=None, help="save under results/ (or PATH)")
    args = parser.parse_args()
    strict_modes = args.strict or (["on", "off"] if args.composer == "llm" else ["on"])

    _, queries, qrels = load_beir(SCIFACT, "test")
    claims = list(queries.items())[: args.max_claims]
    collection, beir = scifact_collection()
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"is_superuser": True})
    server = None
    meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "collection": {"slug": collection.slug, "documents": len(beir)},
    }
    if args.composer == "llm":
        sys.path.insert(0, str(ROOT / "tests" / "citations"))
        import local_llm

        server, llm = local_llm.start(Path(tempfile.gettempdir()) / "bench-answers-llm.log")
        settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = llm.base_url, llm.model
        settings.PORTAL_LLM_TIMEOUT = args.llm_timeout
        meta["llm"] = {"model": llm.model, "gguf": str(local_llm.gguf_path()), "timeout_s": settings.PORTAL_LLM_TIMEOUT}
    output = {**meta, "runs": []}
    try:
        for depth in args.depth:
            for strict in strict_modes:
                setting = {"composer": args.composer, "depth": depth, "strict": strict == "on"}
                for question in WARM_UP:  # model load, keyword index, first LLM request
                    ask_one(user, service.AskParams(question, SLUG, depth, setting["strict"], composer=args.composer))
                rows = []
                for n, (qid, claim) in enumerate(claims, start=1):
                    params = service.AskParams(claim, SLUG, depth, setting["strict"], composer=args.composer)
                    result, evidence, seconds = ask_one(user, params)
                    rows.append(record(qid, claim, qrels[qid], result, evidence, seconds, beir))
                    if n % 25 == 0:
                        say(f"{setting}: {n}/{len(claims)}")
                summary = summarise(rows)
                say(json.dumps({**setting, **summary}))
                output["runs"].append({**setting, "summary": summary, "claims": rows})
    finally:
        if server is not None:
            local_llm.stop(server)
    if args.json:
        RESULTS.mkdir(exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = Path(args.json) if args.json != "auto" else RESULTS / f"{args.composer}-{stamp}.json"
        path.write_text(json.dumps(output, indent=1, ensure_ascii=False))
        say(f"saved {path}")
    print(json.dumps([{k: r[k] for k in ("composer", "depth", "strict", "summary")} for r in output["runs"]], indent=2))


if __name__ == "__main__":
    main()
