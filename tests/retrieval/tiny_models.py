"""Models built inside the tests (nothing can be downloaded here): a tiny cross-encoder for the rerank paths."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def build_tiny_cross_encoder(folder: Path, words: Iterable[str]) -> str:
    """A 2-layer BERT with a one-label head and its tokenizer, saved like any cross-encoder folder (~0.1 MB)."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words))]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        num_labels=1,
        initializer_range=0.5,  # large random weights, so different texts get clearly different scores
    )
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)
