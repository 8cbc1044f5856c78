"""Reference entries linked to the documents of the same collection: the rules, and the chain through the worker."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from django.urls import reverse

from apps.citations.models import Reference
from apps.citations.services.linking import Candidate, match_reference, normalise, normalise_doi, surname

DEMO = Path(__file__).resolve().parents[2] / "demo"
CITED_TITLE = (
    "Predominance and association of pathogenic fungi causing Fusarium ear blight in wheat in four European countries"
)


def _ref(text: str = "", **fields) -> Reference:
    return Reference(document_id=1, index=0, text=text, **fields)


def _candidate(document_id: int, *, doi="", title="", first_author="", year=None) -> Candidate:
    return Candidate(document_id, normalise_doi(doi), title.lower(), first_author, year)


def test_doi_wins_and_is_normalised():
    ref = _ref("Some entry. https://doi.org/10.1000/XYZ.1", doi="https://doi.org/10.1000/XYZ.1")
    assert match_reference(ref, [_candidate(2, doi="10.1000/xyz.1"), _candidate(3)]) == (2, "doi")


def test_a_long_title_found_in_the_entry_links():
    ref = _ref(f"Xu, X.M.; Parry, D.W. {CITED_TITLE}. Eur. J. Plant Pathol. 2005, 112, 143-154.")
    assert match_reference(ref, [_candidate(7, title=CITED_TITLE)]) == (7, "title")


def test_a_short_title_is_not_enough():
    ref = _ref("Smith J. Wheat. Nature 2001.")
    assert match_reference(ref, [_candidate(7, title="Wheat")]) == (None, "")


def test_author_and_year_link_only_when_unambiguous():
    ref = _ref("Chiarotto A, et al. Something. 2014.", first_author="Chiarotto", year=2014)
    one = [_candidate(4, first_author="chiarotto", year=2014)]
    assert match_reference(ref, one) == (4, "author-year")
    two = [*one, _candidate(5, first_author="chiarotto", year=2014)]
    assert match_reference(ref, two) == (None, "")  # rather no link than a wrong one


def test_short_surnames_do_not_link_by_author_and_year():
    ref = _ref("Lee K. Something. 2014.", first_author="Lee", year=2014)
    assert match_reference(ref, [_candidate(4, first_author="lee", year=2014)]) == (None, "")


def test_a_nearly_identical_title_links_fuzzily():
    ref = _ref("garbled entry", title=CITED_TITLE.replace("four", "4"))
    assert match_reference(ref, [_candidate(9, title=CITED_TITLE.lower())]) == (9, "fuzzy-title")


def test_a_document_never_cites_itself():
    ref = _ref("x", doi="10.1/a")
    assert match_reference(ref, [_candidate(1, doi="10.1/a")]) == (None, "")


def test_surnames_from_either_name_order():
    assert surname("Chiarotto, A.") == surname("Alessandro Chiarotto") == "chiarotto"


def _guide_docx(title: str) -> bytes:
    import docx

    document = docx.Document()
    document.core_properties.title = title
    document.add_heading(title, level=1)
    document.add_paragraph("Fusarium ear blight was sampled in wheat fields of four countries.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _reference_number(client, document_id: int, number: int, *, until, timeout: float = 60) -> dict:
    url = reverse("api-document-references", kwargs={"document_id": document_id})
    deadline = time.monotonic() + timeout
    while True:
        data = client.get(url, {"limit": 500}).json()
        entry = next(r for r in data["results"] if r["ref_no"] == number)
        if until(entry) or time.monotonic() > deadline:
            return entry
        time.sleep(0.3)


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_a_reference_lights_up_when_the_cited_paper_is_added_later(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")

    def _upload_and_wait(name: str, content: bytes) -> int:
        done = wait_for_ingest(client, api_upload(client, name, content)["id"], timeout=180)
        assert done["status"] == "ready", done["error"]
        return done["id"]

    paper = _upload_and_wait("wheat.pdf", (DEMO / "papers" / "mdpi-metabolites-04-00932.pdf").read_bytes())
    listing = client.get(reverse("api-document-references", kwargs={"document_id": paper})).json()
    assert listing["count"] >= 40
    entry = _reference_number(client, paper, 3, until=lambda e: True)
    assert CITED_TITLE.split()[0] in entry["text"] and entry["in_library"] is None

    cited = _upload_and_wait("fungi.docx", _guide_docx(CITED_TITLE))
    entry = _reference_number(client, paper, 3, until=lambda e: e["in_library"] is not None)
    assert entry["in_library"] == cited and entry["match_method"] == "title"
    # no other entry was linked to it by mistake
    every_entry = client.get(reverse("api-document-references", kwargs={"document_id": paper}), {"limit": 500})
    linked = [r for r in every_entry.json()["results"] if r["in_library"]]
    assert [r["ref_no"] for r in linked] == [3]

    # the chain for an answer: evidence chunks that cite [3] list it first, as in the library
    from apps.citations.services.chains import cited_references, cited_references_by_chunk
    from apps.documents.models import Chunk

    citing = list(Chunk.objects.filter(document_id=paper, citations__reference__number=3).values_list("pk", flat=True))
    assert citing, "some chunk of the paper cites [3]"
    chain = cited_references(citing)
    assert chain["matched"][0]["ref_no"] == 3 and chain["matched"][0]["in_library"] == cited
    # what each search hit / citation carries: per chunk, the library's works first
    per_chunk = cited_references_by_chunk(citing)
    assert set(per_chunk) == set(citing)
    assert all(refs[0]["ref_no"] == 3 and refs[0]["in_library"] == cited for refs in per_chunk.values())

    assert client.delete(reverse("api-document-detail", kwargs={"document_id": cited})).status_code == 204
    entry = _reference_number(client, paper, 3, until=lambda e: e["in_library"] is None)
    assert entry["in_library"] is None


def _cjk_candidate(document_id: int, title: str) -> Candidate:
    return Candidate(document_id, "", normalise(title), "", None)


def test_a_chinese_title_found_in_a_gbt_entry_links():
    # GB/T 7714 entry as a PDF gives it: spaces between the Chinese words that the document's own title lacks.
    ref = _ref("[3] 王 晓明, 李华. 基于深度学习的 中文图像 去噪方法研究[J]. 计算机学报, 2019, 42(3): 1-10.")
    assert match_reference(ref, [_cjk_candidate(7, "基于深度学习的中文图像去噪方法研究")]) == (7, "title")


def test_a_short_chinese_title_is_not_enough_and_another_title_does_not_link():
    ref = _ref("[1] 陈登原. 国史旧闻: 第 1 卷[M]. 北京: 中华书局, 2000: 29.")
    assert match_reference(ref, [_cjk_candidate(7, "国史旧闻")]) == (None, "")  # 4 characters: too common
    other = _ref("[2] 张三. 基于图神经网络的推荐系统研究[D]. 北京: 清华大学, 2020.")
    assert match_reference(other, [_cjk_candidate(7, "基于深度学习的中文图像去噪方法研究")]) == (None, "")


def test_normalised_titles_keep_chinese_and_japanese_and_fold_accents():
    assert normalise("Étude  des « Réseaux »") == "etude des reseaux"
    assert normalise("基于 XeLaTeX 的 模板") == "基于xelatex的模板"
    assert normalise("日本語の論文タイトル") == "日本語の論文タイトル"
