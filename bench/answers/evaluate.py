"""Do answers answer? Issue 15's measurements, through the same service as /api/v1/ask, on one code tree or two.

One tree (the default is the tree this file is in; `--code PATH` puts another tree first on sys.path, e.g. a
`git archive` of main before the issue, with a database of its own):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/portal_h2 REDIS_URL=redis://127.0.0.1:6379/2 \\
    SECRET_KEY=x ALLOWED_HOSTS=testserver PORTAL_HTTPS=false PORTAL_MODELS_DIR=/tmp/h2-var/models \\
    python bench/answers/evaluate.py --sets cmrc scifact lists --depth quick deep

Both trees in one run (subprocesses, one after the other; one combined table, JSON + Markdown, under results/):

    ... python bench/answers/evaluate.py --both /work/baseline \\
        --baseline-database-url postgresql://postgres@127.0.0.1:5432/portal_h2_base \\
        --baseline-redis-url redis://127.0.0.1:6379/3

For each question, `service.ask()` (what /api/v1/ask calls) answers it; measured: answered or not; whether the
answer text holds a gold answer; whether the FIRST claim (the first sentence with citations) does; whether a
cited passage is a relevant one (and the first claim's); answer length in characters (markers removed);
non-sentence claims by this file's own detector (not the composer's: it must judge it); list item recall.
Sets, each split TUNE and HELD-OUT (datasets.py): CMRC 2018 answerable and unanswerable (the same questions in a
collection without their own passages), SciFact claims likewise (a seeded subset of the abstracts), and the list
questions of lists.json (their PDFs ingested with the real parsers). The harness uses only what both trees
have: service.ask/AskParams, the models, load_collection, document_add/document_ingest/document_delete.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
HARNESS_ROOT = HERE.parents[1]
RESULTS = HERE / "results"


def _sibling(name: str):
    """A module of this folder, loaded from its file under a name of its own: bench/ is not a package, and this
    folder on sys.path would let `datasets` or `run` shadow other modules in the process (pytest's too)."""
    spec = importlib.util.spec_from_file_location(f"bench_answers_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


datasets = _sibling("datasets")

# How an answer is judged against its gold, and the figures of many (pure functions).
judging = _sibling("judging")
# The collections the sets are asked in (Django).
collections_lib = _sibling("library")

# --- collections (Django; only APIs both trees have) ---------------------------------------------------------------


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build_sets(args, library) -> list[tuple[datasets.QuestionSet, str, dict[int, str]]]:
    out = []
    if "cmrc" in args.sets:
        sample = datasets.sample_per_split(datasets.cmrc_questions(), args.cmrc_per_split, args.seed)
        removed = datasets.removed_for(sample)
        full = library.beir("eval15-cmrc", datasets.CMRC)
        minus = library.beir(f"eval15-cmrc-minus-{datasets.fingerprint(removed)}", datasets.CMRC, removed)
        out.append((datasets.QuestionSet("cmrc", True, sample), *full))
        out.append((datasets.QuestionSet("cmrc-unanswerable", False, sample), *minus))
    if "scifact" in args.sets:
        sample = datasets.sample_per_split(datasets.scifact_questions(), args.scifact_per_split, args.seed)
        docs = {
            str(r["_id"]): f"{r.get('title', '')} {r.get('text', '')}"
            for r in datasets.read_jsonl(datasets.SCIFACT / "corpus.jsonl")
        }
        subset = datasets.scifact_subset(docs, sample, args.scifact_docs, args.scifact_neighbours, args.seed)
        key = datasets.fingerprint(subset)
        folder = datasets.write_beir_subset(datasets.SCIFACT, subset, args.work_dir / f"scifact-{key}")
        removed = datasets.removed_for(sample)
        full = library.beir(f"eval15-scifact-{key}", folder)
        minus = library.beir(f"eval15-scifact-{key}-minus", folder, removed)
        out.append((datasets.QuestionSet("scifact", True, sample, notes={"documents": len(subset)}), *full))
        out.append((datasets.QuestionSet("scifact-unanswerable", False, sample), *minus))
    if "lists" in args.sets:
        questions = datasets.with_kind(datasets.list_questions(), "list")
        files = library.files("eval15-lists", sorted({s for q in questions for s in q.relevant}))
        out.append((datasets.QuestionSet("lists", True, questions), *files))
    return out


class StatementSupport(logging.Handler):
    """What answers.statements.gate logs of an ask, where the tree has it (a debug record per gate call)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[dict] = []
        self._logger = logging.getLogger("apps.citations.answers.statements")

    def emit(self, record: logging.LogRecord) -> None:
        if hasattr(record, "statement_support"):
            self.seen.append(record.statement_support)

    def __enter__(self) -> StatementSupport:
        self._level = self._logger.level
        self._logger.setLevel(logging.DEBUG)
        self._logger.addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._level)


def ask_all(question_set, slug, source_of, depth: str, composer: str, limit: int | None) -> list[dict]:
    from django.contrib.auth import get_user_model

    from apps.citations.answers import service

    user, _ = get_user_model().objects.get_or_create(username="eval15", defaults={"is_superuser": True})
    questions = question_set.questions
    if limit is not None:  # a small sample of each split (the LLM is slow)
        by_split = [[q for q in questions if q.split == split] for split in datasets.SPLITS]
        questions = [q for mine in by_split for q in mine[:limit]]
    rows = []
    gate_log = StatementSupport()
    for n, question in enumerate(questions, start=1):
        started = time.perf_counter()
        gate_log.seen.clear()
        try:
            with gate_log:
                result = service.ask(user, service.AskParams(question.text, slug, depth, composer=composer))
        except Exception as exc:  # a failing question is a finding, not the end of the run
            say(f"{question.qid}: {type(exc).__name__}: {exc}")
            result = {"answer": "", "answered": False, "error": f"{type(exc).__name__}: {exc}"}
        row = judging.judge(result, question, source_of)
        row.update(seconds=round(time.perf_counter() - started, 3), answer=result.get("answer", "")[:800])
        if gate_log.seen:  # each document's best sentence by the statement gate's measures (calibrate_floor.py)
            row["statement_support"] = [
                {
                    "source": source_of.get(d, "?"),
                    "relevant": source_of.get(d, "?") in question.relevant,
                    "parts": [round(v, 4) for v in parts],
                }
                for d, parts in gate_log.seen[-1].items()
            ]
        rows.append(row)
        if n % 25 == 0:
            say(f"{question_set.name} {depth} {composer}: {n}/{len(questions)}")
    return rows


def summaries(questions: list[dict]) -> list[dict]:
    """The figures of every set × depth × composer asked, per split and for all: what the tables show."""
    out = []
    for asked in questions:
        for split in (*datasets.SPLITS, "all"):
            mine = [r for r in asked["rows"] if split in ("all", r["split"])]
            if mine:
                key = {k: asked[k] for k in ("set", "depth", "composer")}
                answerable = not asked["set"].endswith("-unanswerable")
                out.append({**key, "split": split, "summary": judging.summarise(mine, answerable)})
    return out


def run_tree(args) -> dict:
    code = Path(args.code).resolve() if args.code else HARNESS_ROOT
    sys.path.insert(0, str(code))
    # Celery's Django fixup puts the working directory first on sys.path: it must be the tree under test.
    args.work_dir = args.work_dir.resolve()
    os.chdir(code)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ["PORTAL_CACHE_PREFIX"] = f"eval15-{os.getpid()}-{time.time_ns()}"  # no search cached across runs
    import django

    django.setup()
    from django.conf import settings

    import apps

    assert Path(apps.__file__).resolve().is_relative_to(code), f"apps imported from {apps.__file__}, not {code}"
    args.work_dir.mkdir(parents=True, exist_ok=True)
    library = collections_lib.Library(args.work_dir, args.reload, datasets, say)
    sets = build_sets(args, library)
    commit = subprocess.run(["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    output = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "code": str(code),
        "code_commit": commit.stdout.strip() if code == HARNESS_ROOT else args.code_label,
        "machine": f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "settings": {
            "seed": args.seed,
            "cmrc_per_split": args.cmrc_per_split,
            "scifact_per_split": args.scifact_per_split,
        },
        "runs": [],
    }
    server = None
    try:
        for composer in args.composer:
            if composer == "llm":
                sys.path.insert(0, str(HARNESS_ROOT / "tests" / "citations"))
                import local_llm

                server, llm = local_llm.start(Path(tempfile.gettempdir()) / "eval15-llm.log")
                settings.PORTAL_LLM_BASE_URL, settings.PORTAL_LLM_MODEL = llm.base_url, llm.model
                settings.PORTAL_LLM_TIMEOUT = args.llm_timeout
                output["llm"] = {"model": llm.model, "timeout_s": args.llm_timeout}
            depths = args.depth if composer == "extractive" else args.llm_depth
            for depth in depths:
                for question_set, slug, source_of in sets:
                    limit = args.llm_per_split if composer == "llm" else None
                    started = time.perf_counter()
                    rows = ask_all(question_set, slug, source_of, depth, composer, limit)
                    asked = {"set": question_set.name, "depth": depth, "composer": composer, "rows": rows}
                    output.setdefault("questions", []).append(asked)
                    for run in summaries([asked]):
                        output["runs"].append(run)
                        if run["split"] == "all":
                            say(json.dumps({k: v for k, v in run.items() if k != "summary"} | run["summary"]))
                    say(f"{question_set.name} {depth} {composer}: {time.perf_counter() - started:.0f} s")
    finally:
        if server is not None:
            local_llm.stop(server)
    return output


# --- both trees, one table ---------------------------------------------------------------------------------------


def run_both(args, passthrough: list[str]) -> None:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    RESULTS.mkdir(exist_ok=True)
    models = os.environ.get("PORTAL_MODELS_DIR") or str(HARNESS_ROOT / "var" / "models")
    sides = {}
    for side, code, env in (
        ("baseline", args.both, {"DATABASE_URL": args.baseline_database_url, "REDIS_URL": args.baseline_redis_url}),
        ("current", str(HARNESS_ROOT), {}),
    ):
        path = args.work_dir / f"eval-{stamp}-{side}.json"
        environment = {**os.environ, "PORTAL_MODELS_DIR": models, **{k: v for k, v in env.items() if v}}
        environment.setdefault("PORTAL_VAR_DIR", str(args.work_dir / "var"))
        environment["PORTAL_VAR_DIR"] = f"{environment['PORTAL_VAR_DIR']}-{side}"
        # The baseline tree never changes: its collections need no second reading.
        options = [o for o in passthrough if side == "current" or o != "--reload"]
        command = [sys.executable, str(Path(__file__).resolve()), *options, "--code", code, "--out", str(path)]
        if side == "baseline":
            command += ["--code-label", args.baseline_label]
        say(f"--- {side}: {' '.join(command)}")
        started = time.perf_counter()
        subprocess.run(command, env=environment, check=True)
        sides[side] = json.loads(path.read_text(encoding="utf-8"))
        sides[side]["wall_seconds"] = round(time.perf_counter() - started)
    write_combined(sides, Path(args.out) if args.out else RESULTS / f"eval-{stamp}.json")


def write_combined(sides: dict, out: Path) -> None:
    """One file with both sides (figures recomputed from their rows with this summarise) and its Markdown table."""
    judging.share_kinds(sides)
    for side in sides.values():
        side["runs"] = summaries(side.get("questions", []))
    combined = {
        "date": sides["current"]["date"],  # when the current tree was measured
        "machine": sides["current"]["machine"],
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        **sides,
    }
    out.write_text(json.dumps(combined, indent=1, ensure_ascii=False), encoding="utf-8")
    table = judging.markdown(combined)
    out.with_suffix(".md").write_text(table, encoding="utf-8")
    print(table)
    say(f"saved {out} and {out.with_suffix('.md')}")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", nargs="+", choices=("cmrc", "scifact", "lists"), default=["cmrc", "scifact", "lists"])
    p.add_argument("--depth", nargs="+", choices=("quick", "deep"), default=["quick", "deep"])
    p.add_argument("--composer", nargs="+", choices=("extractive", "llm"), default=["extractive"])
    p.add_argument("--cmrc-per-split", type=int, default=30, help="CMRC questions drawn from each split")
    p.add_argument("--scifact-per-split", type=int, default=20, help="SciFact claims drawn from each split")
    p.add_argument("--scifact-docs", type=int, default=800, help="abstracts in the SciFact subset")
    p.add_argument("--scifact-neighbours", type=int, default=8, help="BM25 neighbours kept per claim")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--llm-per-split", type=int, default=3, help="LLM: questions per set and split")
    p.add_argument("--llm-depth", nargs="+", choices=("quick", "deep"), default=["deep"])
    p.add_argument("--llm-timeout", type=int, default=180)
    p.add_argument("--reload", action="store_true", help="load and ingest the collections again (code changed)")
    p.add_argument("--code", help="the code tree to evaluate (default: this file's tree)")
    p.add_argument("--code-label", default="", help="how the results name --code (e.g. its commit)")
    p.add_argument("--work-dir", type=Path, default=Path(tempfile.gettempdir()) / "answers-eval")
    p.add_argument("--out", help="where the JSON goes (default: results/eval-<UTC time>.json)")
    p.add_argument("--both", metavar="BASELINE_TREE", help="run BASELINE_TREE, then this tree; one combined table")
    p.add_argument("--baseline-database-url", default="", help="--both: the baseline's own database")
    p.add_argument("--baseline-redis-url", default="", help="--both: the baseline's own Redis db")
    p.add_argument("--baseline-label", default="4f616b4", help="--both: how the table names the baseline")
    p.add_argument("--combine", nargs=2, metavar=("BASELINE_JSON", "CURRENT_JSON"), help="only the combined table")
    return p


def main() -> None:
    args = parser().parse_args()
    if args.combine:
        sides = {
            s: json.loads(Path(f).read_text(encoding="utf-8"))
            for s, f in zip(("baseline", "current"), args.combine, strict=True)
        }
        write_combined(sides, Path(args.out) if args.out else RESULTS / f"eval-{datetime.now(UTC):%Y%m%d-%H%M%S}.json")
        return
    if args.both:
        skip = {"--both", "--baseline-database-url", "--baseline-redis-url", "--baseline-label", "--out"}
        passthrough, argv, n = [], sys.argv[1:], 0
        while n < len(argv):
            name = argv[n].split("=")[0]
            if name in skip:
                n += 1 if "=" in argv[n] else 2
                continue
            passthrough.append(argv[n])
            n += 1
        run_both(args, passthrough)
        return
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = Path(args.out).resolve() if args.out else RESULTS / f"eval-{stamp}.json"
    output = run_tree(args)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(output, indent=1, ensure_ascii=False), encoding="utf-8")
    say(f"saved {path}")


if __name__ == "__main__":
    main()
