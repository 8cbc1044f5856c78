"""The search's section filter matches a passage's section as printed or its canonical key (issue 16): "Introduction"
finds a Chinese paper's 前言, "前言" finds it too, and "methods" finds both "2. Materials and methods" and 方法; hits
show the printed name and carry the key apart."""

from __future__ import annotations

import pytest

from apps.documents.services.bulk import TextItem, add_texts
from apps.retrieval.search.service import search
from apps.retrieval.search.types import Filters, SearchParams

pytestmark = pytest.mark.django_db(transaction=True)

CHINESE = """# 城市热岛研究

## 前言

城市化改变了区域气候，热岛效应在大城市尤其明显，夏季夜间最为突出。

## 方法

我们使用了三十个气象站点十年的逐日气温数据，比较城区与郊区的差异。
"""
ENGLISH = """# Glacier retreat

## 1. Introduction

Glaciers retreat as mountain temperatures rise, exposing bare rock and moraine.

## 2. Materials and methods

We sampled glacier margins every summer and measured the retreat with GPS.
"""


@pytest.fixture
def papers(collection, personas, embedder):
    docs = add_texts(
        collection, [TextItem("热岛.md", "城市热岛", CHINESE), TextItem("glacier.md", "Glaciers", ENGLISH)]
    )
    return {d.original_name: d for d in docs}


def _sections(user, query, section):
    params = SearchParams(query=query, collections=("lab",), mode="keyword", top_k=10, filters=Filters(section=section))
    return sorted((hit.source, hit.section, hit.section_key) for hit in search(user, params).hits)


def test_section_filter_matches_printed_name_or_canonical_key(papers, personas):
    user = personas["viewer"]
    query = "城市 热岛 气温 站点 glaciers retreat sampled"
    chinese_intro = ("热岛.md", "前言", "Introduction")
    assert _sections(user, query, "Introduction") == [("glacier.md", "1. Introduction", "Introduction"), chinese_intro]
    assert _sections(user, query, "前言") == [chinese_intro]
    assert _sections(user, query, "methods") == [
        ("glacier.md", "2. Materials and methods", "Methods"),
        ("热岛.md", "方法", "Methods"),
    ]
    assert _sections(user, query, "no such section") == []
