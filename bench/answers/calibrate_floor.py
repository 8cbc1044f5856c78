"""The statement gate's floor and weights, calibrated on whole asks: evaluate.py's own rows, not a loop beside it.

calibrate_gate.py scores the candidates of one claim outside the portal; its SciFact calibration did not carry over
to the portal's chunked collection (docs/benchmarks.md, issue 15). evaluate.py records, for every statement it
asks, each evidence document's best sentence by the gate's three measures (key-term coverage, distinctive share,
rescaled cosine: answers.statements.support_parts). This replays the gate on those rows for other weights and
floors: a claim is answered when its best document's support reaches the floor, and its first claim cites a
relevant abstract when that best document is a relevant one. Only TUNE rows are used to choose; HELD-OUT is
printed beside them for the report.

    .venv/bin/python bench/answers/calibrate_floor.py RESULTS.json [--depth deep] [--goal 0.8]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from apps.citations.answers.statements import SUPPORT_FLOOR, SUPPORT_WEIGHTS

ANSWERABLE, UNANSWERABLE = "scifact", "scifact-unanswerable"


def rows_of(result: dict, name: str, depth: str) -> list[dict]:
    for asked in result.get("questions", []):
        if asked["set"] == name and asked["depth"] == depth and asked["composer"] == "extractive":
            return asked["rows"]
    return []


def best(row: dict, weights: tuple[float, float, float]) -> tuple[float, bool]:
    """(support of the best document, whether it is relevant); (0, False) for an ask the gate never saw."""
    scored = [
        (sum(w * v for w, v in zip(weights, d["parts"], strict=True)), d["relevant"])
        for d in row.get("statement_support", [])
    ]
    return max(scored, default=(0.0, False))


def figures(answerable: list[dict], unanswerable: list[dict], weights, floor: float) -> dict:
    answered = [best(r, weights) for r in answerable]
    refused = [best(r, weights)[0] < floor for r in unanswerable]
    return {
        "answered": sum(v >= floor for v, _ in answered) / max(1, len(answered)),
        "first_relevant": sum(v >= floor and rel for v, rel in answered) / max(1, len(answered)),
        "abstained": sum(refused) / max(1, len(refused)),
    }


def weight_grid(step: float = 0.1):
    """(coverage, distinctive, cosine) weights summing to 1."""
    n = round(1 / step)
    for a, b in itertools.product(range(n + 1), repeat=2):
        if a + b <= n:
            yield (round(a * step, 2), round(b * step, 2), round((n - a - b) * step, 2))


def choose(answerable, unanswerable, goal: float) -> tuple[tuple, float, dict]:
    """The weights and floor that keep the most relevant first claims while abstaining on `goal` of the
    unanswerable claims (ties: more answered, then the lower floor)."""
    floors = [round(0.40 + 0.01 * i, 2) for i in range(50)]
    best_choice = None
    for weights in weight_grid():
        for floor in floors:
            f = figures(answerable, unanswerable, weights, floor)
            if f["abstained"] < goal:
                continue
            key = (f["first_relevant"], f["answered"], -floor)
            if best_choice is None or key > best_choice[0]:
                best_choice = (key, weights, floor, f)
            break  # the lowest floor reaching the goal is this weighting's best
    if best_choice is None:
        raise SystemExit("no weighting reaches the goal on these rows")
    _, weights, floor, f = best_choice
    return weights, floor, f


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", type=Path)
    p.add_argument("--depth", default="deep", choices=("quick", "deep"))
    p.add_argument("--goal", type=float, default=0.8, help="share of unanswerable claims to abstain on")
    p.add_argument("--weights", type=float, nargs=3, help="report these weights instead of choosing")
    p.add_argument("--floor", type=float)
    args = p.parse_args()
    result = json.loads(args.results.read_text(encoding="utf-8"))
    split = {
        s: (
            [r for r in rows_of(result, ANSWERABLE, args.depth) if r["split"] == s],
            [r for r in rows_of(result, UNANSWERABLE, args.depth) if r["split"] == s],
        )
        for s in ("tune", "held-out")
    }
    if args.weights:
        weights, floor = tuple(args.weights), args.floor
    else:
        weights, floor, _ = choose(*split["tune"], args.goal)
    # The replay's check: at the committed weights and floor, does it answer where the ask answered?
    from_tree = SUPPORT_WEIGHTS, SUPPORT_FLOOR
    asked = [r for pair in split.values() for rows in pair for r in rows]
    agree = sum((best(r, from_tree[0])[0] >= from_tree[1]) == r["answered"] for r in asked)
    print(f"replay at {from_tree}: answered as the ask did on {agree} of {len(asked)} claims")
    print(f"weights (coverage, distinctive, cosine) {weights}, floor {floor}")
    for name, (answerable, unanswerable) in split.items():
        f = figures(answerable, unanswerable, weights, floor)
        print(
            f"{name}: {len(answerable)} + {len(unanswerable)} claims; answered {f['answered']:.0%}, "
            f"first claim relevant {f['first_relevant']:.0%}, unanswerable abstained {f['abstained']:.0%}"
        )


if __name__ == "__main__":
    main()
