"""Text files in the encodings Chinese, Japanese and Western offices write are read as the text they are, and the
document page and API say which encoding was assumed ("Read as GB18030 (detected)").

Before, GBK, GB18030, Big5 and Shift-JIS became Windows-1252 mojibake, READY with no warning, and UTF-16BE without
a BOM was refused as a binary file. The Chinese text is CMRC 2018 (../shared/corpus/zh-cmrc2018), encoded here.

Short GBK text is the hard case for detection. Measured on the first 200 CMRC passages cut to N characters
(passages with a character GBK lacks left out): 48 and more characters are all read right; 32: 98%; 24: 94%;
16: 83%; 8: 72%; 4: 62%. The misses come back as Big5, Shift-JIS or a single-byte code page; two or three
characters are often valid UTF-8 as well, and UTF-8 comes first.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest
from django.urls import reverse

from apps.documents.models import Chunk
from apps.documents.parsing import ParseError, parse_document
from apps.documents.parsing.encoding import read_text

CMRC = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "zh-cmrc2018" / "cmrc2018_dev.squad.json"
# Traditional Chinese (Big5) and Japanese (Shift-JIS), news-like, written for this test.
TRADITIONAL = (
    "臺北市政府今日宣布，將於明年起擴大公共運輸補助計畫，預計每年投入新臺幣二十億元。\n"
    "市長在記者會上表示，這項政策的目的是減少私人汽車的使用，改善空氣品質，並減輕通勤族的經濟負擔。\n\n"
    "交通局指出，捷運與公車的月票價格將調降百分之十五，學生與長者另有優惠。\n"
)
JAPANESE = (
    "東京都は本日、来年度から公共交通機関の利用を促進するための新たな補助制度を導入すると発表した。\n"
    "知事は記者会見で、この政策は自家用車の利用を減らし、大気の質を改善することが目的だと述べた。\n\n"
    "地下鉄とバスの定期券の価格は一割ほど引き下げられ、学生と高齢者にはさらに割引が適用される。\n"
)
KOREAN = (
    "서울시는 오늘 내년부터 대중교통 이용을 늘리기 위한 새로운 보조금 제도를 도입한다고 발표했다. 시장은 "
    "기자회견에서 이 정책의 목적이 자가용 이용을 줄이고 대기 질을 개선하는 것이라고 말했다.\n"
)
WESTERN = "Caf\u00e9 cr\u00e8me \u2014 \u201cna\u00efve\u201d r\u00e9sum\u00e9s cost \u20ac5 in M\u00fcnchen.\n"


@cache
def cmrc_passages() -> tuple[str, ...]:
    data = json.loads(CMRC.read_text(encoding="utf-8"))
    return tuple(p["context"] for article in data["data"] for p in article["paragraphs"])


def chinese_news() -> str:
    """Three CMRC passages as paragraphs, GBK-encodable (simplified Chinese with ASCII digits and Latin names)."""
    return "\n\n".join(cmrc_passages()[1:4]) + "\n"


def _paragraph_texts(data: bytes, name: str) -> list[str]:
    return [block.text for block in parse_document(data, name).blocks]


# Wrapped Chinese and Japanese lines join without a space (tests/documents/test_text_cjk_lines.py), others with one.
_CJK = "\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef\U00020000-\U0002ffff"
_CJK_LINE_BREAK_RE = re.compile(f"(?<=[{_CJK}])\n(?=[{_CJK}])")


def _paragraphs(text: str) -> list[str]:
    parts = [_CJK_LINE_BREAK_RE.sub("", part) for part in text.split("\n\n")]
    return [" ".join(line.strip() for line in part.splitlines()) for part in parts if part.strip()]


@pytest.mark.parametrize(
    ("codec", "text", "label"),
    [
        ("gbk", chinese_news(), "GB18030 (detected)"),  # GB18030 reads GBK exactly: it is its superset
        ("gb18030", chinese_news() + "\u9fa6\u9fa7 \U00020bb7\n", "GB18030 (detected)"),  # outside GBK: 4-byte
        ("big5", TRADITIONAL, "Big5 (detected)"),
        ("shift_jis", JAPANESE, "Shift-JIS/CP932 (detected)"),
        ("utf-16-be", chinese_news(), "UTF-16BE (detected)"),  # no BOM: was "looks like a binary file"
        ("utf-16-le", JAPANESE, "UTF-16LE (detected)"),
        ("cp949", KOREAN * 3, "EUC-KR/CP949 (detected)"),  # a long Korean text is not taken for Chinese
        ("cp1252", WESTERN * 3, "Windows-1252 (detected)"),
        ("utf-8", chinese_news(), "UTF-8"),
    ],
)
def test_a_text_file_is_read_in_its_encoding_and_says_which(codec, text, label):
    data = text.encode(codec)
    decoded = read_text(data)
    assert decoded.text == text and decoded.label == label
    parsed = parse_document(data, "news.txt")
    assert [block.text for block in parsed.blocks] == _paragraphs(text)
    assert parsed.metadata["text_encoding"] == decoded.encoding
    assert parsed.metadata["text_encoding_source"] == ("utf-8" if codec == "utf-8" else "detected")


@pytest.mark.parametrize("codec", ["gb18030", "utf-16-le"])
def test_a_large_file_is_detected_from_its_start_and_read_whole(codec):
    # given every CMRC passage in one file, about 0.8 MB: detection reads its first 256 KB only
    text = "\n\n".join(cmrc_passages()) + "\n"
    data = text.encode(codec)
    assert len(data) > 3 * 256 * 1024
    # then the whole text comes back exactly, in the detected encoding
    decoded = read_text(data)
    assert decoded.text == text and decoded.source == "detected"


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-32"])
def test_a_byte_order_mark_decides_before_any_detection(codec):
    parsed = parse_document(chinese_news().encode(codec), "news.txt")
    assert [block.text for block in parsed.blocks] == _paragraphs(chinese_news())
    assert parsed.metadata["text_encoding_source"] == "bom"


def test_markdown_goes_through_the_same_detection():
    text = "# 交通政策\n\n" + chinese_news()
    parsed = parse_document(text.encode("gbk"), "news.md")
    assert parsed.metadata["title"] == "交通政策" and parsed.metadata["text_encoding"] == "gb18030"


@pytest.mark.parametrize(("chars", "at_least"), [(64, 1.0), (48, 1.0), (32, 0.95), (24, 0.9)])
def test_short_gbk_texts_are_read_right_down_to_the_measured_length(chars, at_least):
    texts = []
    for passage in cmrc_passages()[:200]:
        try:
            texts.append((passage[:chars], passage[:chars].encode("gbk")))
        except UnicodeEncodeError:
            continue  # a character GBK lacks
    right = sum(_paragraph_texts(data, "short.txt") == _paragraphs(text) for text, data in texts)
    assert right / len(texts) >= at_least, f"{right} of {len(texts)} texts of {chars} characters read right"


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x00binary",
        b"Hostile case.\x00\x00 more\n" * 50,
        random.Random(5).randbytes(20_000),
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 20,
    ],
)
def test_binary_data_is_still_refused_and_never_taken_for_utf16(data):
    with pytest.raises(ParseError, match="binary"):
        parse_document(data, "garbage.txt")


def test_short_random_bytes_with_a_nul_are_not_taken_for_utf16():
    rng = random.Random(7)
    taken = 0
    for _ in range(500):
        data = rng.randbytes(rng.choice([8, 16, 30, 64, 200, 1000]))
        try:
            read_text(data[:3] + b"\x00" + data[3:])
            taken += 1
        except ParseError:
            pass
    assert taken == 0


def test_bytes_no_encoding_reads_as_text_are_assumed_windows_1252_and_say_so():
    parsed = parse_document(bytes(range(128, 256)) * 2, "odd.txt")  # every high byte: no language reads so
    assert (parsed.metadata["text_encoding"], parsed.metadata["text_encoding_source"]) == ("cp1252", "assumed")
    assert read_text(bytes(range(128, 256)) * 2).label == "Windows-1252 (assumed)"


# --- HTML: the <meta charset> against the bytes -----------------------------------------------------------------


def _page(charset_meta: str, body: str) -> str:
    title = body[:4]
    return f"<!doctype html><html><head>{charset_meta}<title>{title}</title></head><body><p>{body}</p></body></html>"


@pytest.mark.parametrize(
    ("meta", "codec", "body", "encoding", "source"),
    [
        ('<meta charset="gbk">', "gbk", cmrc_passages()[1], "gb18030", "declared"),  # GBK read as browsers do
        ('<meta charset="gb2312">', "gbk", cmrc_passages()[1], "gb18030", "declared"),
        ('<meta http-equiv="Content-Type" content="text/html; charset=big5">', "big5", TRADITIONAL, "big5", "declared"),
        ("", "gbk", cmrc_passages()[1], "gb18030", "detected"),  # no declaration: was Windows-1252 mojibake
        ('<meta charset="utf-8">', "gbk", cmrc_passages()[1], "gb18030", "detected"),  # a declaration that lies
        ('<meta charset="iso-8859-1">', "cp1252", WESTERN, "cp1252", "declared"),  # Latin-1 means Windows-1252
        ('<meta charset="shift_jis">', "utf-8", JAPANESE, "utf-8", "utf-8"),  # valid UTF-8 is UTF-8
        ('<meta charset="no-such-charset">', "shift_jis", JAPANESE, "cp932", "detected"),
    ],
)
def test_an_html_page_is_read_by_its_declared_charset_when_the_bytes_agree(meta, codec, body, encoding, source):
    parsed = parse_document(_page(meta, body).encode(codec), "news.html")
    assert parsed.metadata["title"] == body[:4]
    assert body.split("\n")[0].strip() in " ".join(block.text for block in parsed.blocks)
    assert (parsed.metadata["text_encoding"], parsed.metadata["text_encoding_source"]) == (encoding, source)


def test_an_html_page_in_utf16_without_a_bom_is_read():
    parsed = parse_document(_page("", "交通政策\n").encode("utf-16-le"), "news.html")
    assert parsed.metadata["title"] == "交通政策" and parsed.metadata["text_encoding"] == "utf-16-le"


# --- Through the worker: ingested, searched, and the page says how it was read -----------------------------------

UPLOADS = [
    ("gbk-news.txt", "gbk", chinese_news, "GB18030 (detected)", "gb18030"),
    ("gb18030-news.txt", "gb18030", lambda: chinese_news() + "\U00020bb7\n", "GB18030 (detected)", "gb18030"),
    ("big5-news.txt", "big5", lambda: TRADITIONAL, "Big5 (detected)", "big5"),
    ("sjis-news.txt", "shift_jis", lambda: JAPANESE, "Shift-JIS/CP932 (detected)", "cp932"),
    ("utf16be-news.txt", "utf-16-be", chinese_news, "UTF-16BE (detected)", "utf-16-be"),
]
# A phrase of each text a search must find (Chinese: two-character words, as a reader would type them).
QUERIES = {"gbk": "锣鼓", "gb18030": "铁路", "big5": "捷運", "shift_jis": "定期券", "utf-16-be": "锣鼓"}
# The charset the file is served with, so that "Open the file" shows the text (browsers' labels).
CHARSETS = {"gbk": "gb18030", "gb18030": "gb18030", "big5": "big5", "shift_jis": "shift_jis", "utf-16-be": "utf-16be"}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_texts_in_each_encoding_are_ingested_searched_and_the_page_names_the_encoding(
    celery_worker_available, api_client_for, page_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    for name, codec, make_text, label, encoding in UPLOADS:
        text = make_text()
        # when the file is uploaded and read by the worker
        result = wait_for_ingest(client, api_upload(client, name, text.encode(codec))["id"])
        # then it is ready, its passages are the text itself, and the API says how it was read
        assert result["status"] == "ready", (name, result["error"])
        assert (result["text_encoding"], result["text_encoding_source"]) == (encoding, "detected"), name
        stored = "".join(Chunk.objects.filter(document_id=result["id"]).values_list("text", flat=True))
        first_line = text.splitlines()[0]
        assert first_line[:20] in stored, (name, stored[:80])
        # and a keyword search finds it
        search = client.get(reverse("api-search"), {"q": QUERIES[codec], "collection": "lab", "mode": "keyword"})
        assert search.status_code == 200, search.content
        assert result["id"] in {hit["document_id"] for hit in search.json()["results"]}, (name, QUERIES[codec])
        # and the document page says which encoding was assumed
        page = page_client_for("viewer").get(reverse("document-detail", args=[result["id"]])).content.decode()
        assert f"Read as {label}" in page, name
        # and the original file is served in the charset it was read in
        served = client.get(reverse("api-document-file", args=[result["id"]]))
        assert served["Content-Type"] == f"text/plain; charset={CHARSETS[codec]}", name
