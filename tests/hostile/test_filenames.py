"""Names from uploads: what people see loses paths and deceiving characters; what is stored is short ASCII."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile

from apps.documents.models import Document
from apps.documents.services.filenames import MAX_NAME_CHARS, clean_name, storage_name
from apps.documents.services.uploads import UploadRejected, document_add


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("../../etc/passwd.txt", "passwd.txt"),
        ("a\\b.txt", "b.txt"),
        ("C:\\Users\\me\\report.pdf", "report.pdf"),
        ("nul\x00byte.txt", "nulbyte.txt"),
        ("bell\x07tab\tnewline\n.md", "belltabnewline.md"),
        ("invoice\u202etxt.exe.md", "invoicetxt.exe.md"),
        ("isolate\u2066d\u2069.txt", "isolated.txt"),
        ("  trailing dots... ", "trailing dots"),
        ("Cafe\u0301.txt", "Café.txt"),  # NFC: one code point for é
        ("<script>x</script>.txt", "script>.txt"),  # the "/" splits it: only the last component is a name
        ("..", ""),
    ],
)
def test_a_name_is_cleaned_to_what_people_may_see(raw, shown):
    assert clean_name(raw) == shown


def test_a_long_name_keeps_its_extension():
    name = clean_name("😀" * 150 + "名" * 150 + ".docx")
    assert name == "😀" * 150 + "名" * (MAX_NAME_CHARS - 150 - 5) + ".docx"


@pytest.mark.parametrize(
    ("name", "stored"),
    [
        ("passwd.txt", "passwd.txt"),
        ("Résumé final.PDF", "resume-final.pdf"),
        ("😀😀.txt", "document.txt"),
        ("名" * 200 + ".docx", "document.docx"),
        ("x" * 300 + ".md", "x" * 80 + ".md"),
        ("weird.ext<>", "weird"),
        ("é" * 196 + ".txt", "e" * 80 + ".txt"),
    ],
)
def test_the_stored_name_is_short_ascii_with_the_extension(name, stored):
    assert storage_name(name) == stored


def test_a_name_with_nothing_usable_is_refused_at_upload(collection):
    with pytest.raises(UploadRejected, match="not supported"):
        document_add(collection=collection, name="..", fileobj=ContentFile(b"text"))


def test_an_upload_keeps_the_clean_name_and_stores_the_file_under_a_safe_one(collection):
    result = document_add(collection=collection, name="../x/" + "é" * 250 + ".txt", fileobj=ContentFile(b"text"))
    document = Document.objects.get(pk=result.document.pk)
    assert document.original_name == "é" * (MAX_NAME_CHARS - 4) + ".txt"
    assert document.file.name.endswith("/" + "e" * 80 + ".txt")
    assert document.file.storage.exists(document.file.name)
