"""The hostile corpus: named files, each with the outcome it must have when uploaded through the API.

Outcomes:
- "rejected": the upload request itself is refused (400) with a reason containing `words`.
- "failed": the upload is accepted, the worker fails the document with a reason containing `words`.
- "ready": read safely; `name` is what the stored original name must be (sanitised), and `text` must appear in
  the chunks exactly, as text (a script payload is kept as characters, never dropped or run).

Every case's bytes are distinct (a collection keeps one copy per content hash), and all are generated here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from tests.hostile import builders as b

SHARED_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
PAPER = SHARED_CORPUS / "sci-pdf-jats" / "papers" / "PMC4417228" / "paper.pdf"
WORD_FILE = SHARED_CORPUS / "docx-pandoc-tests" / "metadata" / "metadata.docx"

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
JS_LINK = "javascript:window.__pwned=1"
# The upload limit the test sets for the over-size case (the worker keeps the default).
SMALL_UPLOAD_LIMIT_MB = 1


@dataclass(frozen=True)
class HostileCase:
    key: str
    upload_name: str  # sent exactly like this in the multipart header
    data: bytes
    outcome: str  # "rejected" | "failed" | "ready"
    words: tuple[str, ...] = ()  # words of the reason (rejected, failed)
    name: str | None = None  # ready: the sanitised original name
    text: tuple[str, ...] = ()  # ready: text the chunks must hold
    doc_type: str | None = None  # ready: the type the content decided
    settings: dict = field(default_factory=dict)  # overrides for the web process during the upload


def _text(key: str, *lines: str) -> bytes:
    return "\n".join([f"Hostile case {key}.", *lines, ""]).encode()


def _garbage(seed: int, size: int) -> bytes:
    return random.Random(seed).randbytes(size)


def cases() -> list[HostileCase]:
    paper = PAPER.read_bytes()
    word = WORD_FILE.read_bytes()
    deep = 20_000
    return [
        # --- refused at upload -------------------------------------------------------------------------------
        HostileCase("zero-bytes", "empty.txt", b"", "rejected", ("empty",)),
        HostileCase("exe", "setup.exe", b"MZ\x90\x00" + _garbage(1, 2000), "rejected", (".exe", "not supported")),
        HostileCase("js", "payload.js", b"window.__pwned = 1;\n", "rejected", (".js", "not supported")),
        HostileCase("no-extension", "README", _text("no-extension"), "rejected", ("(none)", "not supported")),
        HostileCase("double-extension", "report.pdf.exe", b"MZ" + _garbage(2, 500), "rejected", (".exe",)),
        HostileCase(
            "over-size",
            "big.txt",
            _text("over-size", "x" * (SMALL_UPLOAD_LIMIT_MB * 1024 * 1024 + 100_000)),
            "rejected",
            ("the limit is 1 MB",),
            settings={"PORTAL_MAX_UPLOAD_MB": SMALL_UPLOAD_LIMIT_MB},
        ),
        # --- damaged or disguised PDFs -----------------------------------------------------------------------
        HostileCase("pdf-corrupt", "corrupt.pdf", b"%PDF-1.7\n" + _garbage(3, 5000), "failed", ("not a valid PDF",)),
        HostileCase("pdf-truncated", "truncated.pdf", paper[: len(paper) // 2], "failed", ("not a valid PDF",)),
        HostileCase("text-named-pdf", "notes.pdf", _text("text-named-pdf"), "failed", ("not a valid PDF",)),
        HostileCase(
            "pdf-encrypted", "locked.pdf", b.pdf_encrypted("secret hostile text"), "failed", ("password-protected",)
        ),
        HostileCase("pdf-image-only", "scan.pdf", b.pdf_image_only(120), "failed", ("needs OCR",)),
        HostileCase("pdf-many-pages", "pages.pdf", b.pdf_many_pages(5001, "many pages"), "failed", ("5,001 pages",)),
        HostileCase(
            "pdf-lying-page-count", "lying.pdf", b.pdf_lying_page_count(100_000_000), "failed", ("could not be read",)
        ),
        # 1.5 GB of zeros behind a 1.5 MB font program: more than the reading process's 1024 MB budget.
        HostileCase("pdf-font-bomb", "fontbomb.pdf", b.pdf_font_bomb(1500), "failed", ("more than 1024 MB of memory",)),
        # 1 GB of zeros as a page's content: ten seconds of inflating, no memory, no text.
        HostileCase("pdf-content-bomb", "contentbomb.pdf", b.pdf_content_bomb(1024), "failed", ("No text",)),
        HostileCase(
            "pdf-named-docx",
            "really-a-pdf.docx",
            b.pdf_text("Hostile case pdf-named-docx: a PDF under a Word name"),
            "ready",
            name="really-a-pdf.docx",
            text=("a PDF under a Word name",),
            doc_type="pdf",
        ),
        # --- Word and Excel ------------------------------------------------------------------------------------
        HostileCase(
            "docx-zip-bomb",
            "zipbomb.docx",
            b.replace_parts(b.docx_bytes(["zip bomb"]), {}, extra={"word/media/bomb.bin": 520}),
            "failed",
            ("unpack to", "zip bomb"),
        ),
        HostileCase(
            "docx-ratio-bomb",
            "ratio.docx",
            b.replace_parts(b.docx_bytes(["ratio bomb"]), {}, extra={"word/media/ratio.bin": 64}),
            "failed",
            ("compressed more than 100 to 1",),
        ),
        HostileCase("docx-billion-laughs", "laughs.docx", b.docx_billion_laughs(), "failed", ("DOCTYPE",)),
        HostileCase("docx-not-zip", "plain.docx", _text("docx-not-zip"), "failed", ("not a valid Word document",)),
        HostileCase("docx-truncated", "cut.docx", word[: len(word) // 2], "failed", ("not a valid Word document",)),
        HostileCase(
            "docx-old-format",
            "old.docx",
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + _garbage(4, 2000),
            "failed",
            ("old .doc format",),
        ),
        HostileCase(
            "xlsx-zip-bomb",
            "zipbomb.xlsx",
            b.replace_parts(b.xlsx_bytes([["zip bomb"]]), {}, extra={"xl/media/bomb.bin": 520}),
            "failed",
            ("unpack to",),
        ),
        HostileCase("xlsx-billion-laughs", "laughs.xlsx", b.xlsx_billion_laughs(), "failed", ("DOCTYPE",)),
        HostileCase("xlsx-not-zip", "plain.xlsx", _text("xlsx-not-zip"), "failed", ("not a valid Excel workbook",)),
        # --- text, HTML, Markdown ----------------------------------------------------------------------------
        HostileCase("binary-as-text", "garbage.txt", _garbage(5, 20_000), "failed", ("binary",)),
        HostileCase("nul-in-text", "nul.txt", b"Hostile case nul-in-text.\x00\x00 more\n" * 50, "failed", ("binary",)),
        HostileCase("whitespace-only", "blank.txt", b" \n\t\n   \r\n" * 10, "failed", ("empty",)),
        HostileCase(
            "invalid-utf8",
            "latin.txt",
            b"Hostile case invalid-utf8: caf\xe9 cr\xe8me \xff broken \xc3\x28 sequence.\n",
            "ready",
            name="latin.txt",
            text=("invalid-utf8", "café crème"),
        ),
        HostileCase(
            "html-scripts",
            "page.html",
            (
                "<html><head><title>Hostile page</title><script>window.__pwned=1</script></head>"
                '<body onload="window.__pwned=1"><h1>Hostile case html-scripts</h1>'
                '<img src=x onerror="window.__pwned=1">'
                "<p>Shown as text: &lt;script&gt;window.__pwned=1&lt;/script&gt;</p>"
                f'<p><a href="{JS_LINK}">a javascript link</a> stays a word.</p>'
                "<script>document.write('injected by script')</script></body></html>"
            ).encode(),
            "ready",
            name="page.html",
            text=("Shown as text: " + SCRIPT, "a javascript link stays a word"),
        ),
        HostileCase(
            "markdown-scripts",
            "notes.md",
            _text(
                "markdown-scripts",
                f"# Heading {SCRIPT}",
                "",
                f"Inline {IMG} and a [link]({JS_LINK}).",
            ),
            "ready",
            name="notes.md",
            text=(SCRIPT, IMG, JS_LINK),
        ),
        HostileCase(
            "html-deeply-nested",
            "nested.html",
            b"<html><body>" + b"<div>" * deep + b"deep text" + b"</div>" * deep + b"</body></html>",
            "failed",
            ("No readable text",),
        ),
        # --- names ---------------------------------------------------------------------------------------------
        HostileCase(
            "path-traversal",
            "../../etc/passwd.txt",
            _text("path-traversal"),
            "ready",
            name="passwd.txt",
            text=("path-traversal",),
        ),
        HostileCase(
            "backslash-path", "a\\b.txt", _text("backslash-path"), "ready", name="b.txt", text=("backslash-path",)
        ),
        HostileCase(
            "control-characters",
            "bell\x07and\x1bescape\ttab.txt",
            _text("control-characters"),
            "ready",
            name="bellandescapetab.txt",
            text=("control-characters",),
        ),
        HostileCase(
            "nul-in-name", "nul\x00byte.txt", _text("nul-in-name"), "ready", name="nulbyte.txt", text=("nul-in-name",)
        ),
        HostileCase(
            "rtl-override",
            "invoice\u202etxt.exe.md",
            _text("rtl-override"),
            "ready",
            name="invoicetxt.exe.md",
            text=("rtl-override",),
        ),
        HostileCase(
            "long-unicode-name",
            "é" * 120 + "😀" * 60 + "\u202e" + "名" * 130 + ".txt",
            _text("long-unicode-name"),
            "ready",
            name=("é" * 120 + "😀" * 60 + "名" * 130)[:196] + ".txt",
            text=("long-unicode-name",),
        ),
        HostileCase(
            "markup-name",
            "<img src=x onerror=window.__pwned=1>.txt",
            _text("markup-name"),
            "ready",
            name="<img src=x onerror=window.__pwned=1>.txt",
            text=("markup-name",),
        ),
    ]
