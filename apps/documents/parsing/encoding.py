"""Which encoding a text file is in, and its text: what text.py and html.py read, and what the document page names.

Order, most certain first:
1. A byte-order mark (UTF-8, UTF-16, UTF-32).
2. UTF-8, when the bytes are valid UTF-8 (plain ASCII included): no other encoding of real text is.
3. An encoding the file declares (HTML's <meta charset>), when the bytes decode in it.
4. Detection by charset-normalizer: GBK/GB18030, Big5, Shift-JIS, EUC-KR, Cyrillic code pages, UTF-16 without a
   BOM, ... Western single-byte text stays Windows-1252 whenever detection finds no better reading, because
   detectors confuse the Latin code pages with each other on short texts (cp775 for English) and Windows-1252 is
   what office files in those languages really are.
5. Nothing fits: Windows-1252 with replacement characters, said as "assumed" on the document page.

Data with NUL bytes is text only as UTF-16 or UTF-32; anything else with NULs is refused as binary.
"""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass

from charset_normalizer import from_bytes

from .errors import ParseError

_BOMS = (  # UTF-32 first: its little-endian BOM begins with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_WIDE = ("utf_16", "utf_32")
# Detection reads short texts poorly: a few dozen GBK characters often come back as Korean (cp949) or Thai (cp874).
# GB18030 wins over Thai whenever it reads the bytes too (Thai text has spaces between words, which GBK's second
# bytes cannot be), and over Korean below this many bytes, since this portal's languages are Chinese and English
# (measured in tests/documents/test_text_encodings.py; a Korean text this short is misread instead).
_SHORT_BYTES = 100
_KOREAN = ("cp949", "johab", "euc_kr")
# EBCDIC code pages (IBM mainframes) are no text file anyone uploads here, yet detection picks them for short CJK.
_NEVER = ["cp037", "cp273", "cp424", "cp500", "cp875", "cp1026", "cp1140"]
_PLAUSIBLE_BYTES = 64 * 1024
# Detection time grows faster than the file (2.4 MB of GB18030: 0.4 s); the start of a file says its encoding.
_DETECT_BYTES = 256 * 1024
_ODD = ("Cc", "Cn", "Co", "Cs")  # controls, unassigned, private use, surrogates
_SHORT_WIDE_CHARS = 64
_BINARY_REASON = "The file does not contain plain text (it looks like a binary file)."
NAMES = {
    "utf_8": "UTF-8",
    "utf_8_sig": "UTF-8 with BOM",
    "utf_16": "UTF-16",
    "utf_16_be": "UTF-16BE",
    "utf_16_le": "UTF-16LE",
    "utf_32": "UTF-32",
    "utf_32_be": "UTF-32BE",
    "utf_32_le": "UTF-32LE",
    "gb18030": "GB18030",
    "gbk": "GBK",
    "gb2312": "GB2312",
    "big5": "Big5",
    "big5hkscs": "Big5-HKSCS",
    "cp950": "Big5/CP950",
    "shift_jis": "Shift-JIS",
    "cp932": "Shift-JIS/CP932",
    "euc_jp": "EUC-JP",
    "euc_kr": "EUC-KR",
    "cp949": "EUC-KR/CP949",
    "cp1252": "Windows-1252",
    "cp1251": "Windows-1251",
    "iso8859_1": "ISO-8859-1",
}


@dataclass(frozen=True)
class DecodedText:
    text: str
    encoding: str  # Python's codec name (codecs.lookup): "utf-8", "gb18030", "utf-16-be", "cp1252", ...
    source: str  # how it was chosen: "bom", "utf-8", "declared", "detected" or "assumed"

    @property
    def label(self) -> str:
        """For people: "GB18030 (detected)", "UTF-8"."""
        name = encoding_name(self.encoding)
        return f"{name} ({self.source})" if self.source in ("declared", "detected", "assumed") else name


def encoding_name(encoding: str) -> str:
    """A codec name as people write it ("gb18030" -> "GB18030", "cp932" -> "Shift-JIS/CP932")."""
    try:
        codec = codecs.lookup(encoding).name.replace("-", "_")
    except LookupError:
        codec = encoding
    return NAMES.get(codec, codec.upper().replace("_", "-"))


def read_text(data: bytes, *, declared: str | None = None) -> DecodedText:
    """The text of `data` and the encoding it was read in; ParseError when it is binary, not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return DecodedText(data.decode(encoding, errors="replace"), _codec(encoding), "bom")
    has_nul = b"\x00" in data[:8192]
    if not has_nul:
        try:
            return DecodedText(data.decode("utf-8"), "utf-8", "utf-8")
        except UnicodeDecodeError:
            pass
    declared = _as_browsers_read(declared) if declared else None
    if declared and not has_nul and (text := _strict(data, declared)) is not None:
        return DecodedText(text, _codec(declared), "declared")
    detected = detect_encoding(_sample(data, has_nul=has_nul), has_nul=has_nul)
    if detected:
        # Detection read the bytes in this encoding; a stray damaged byte further on stays a replacement character.
        return DecodedText(data.decode(detected, errors="replace"), _codec(detected), "detected")
    if has_nul:
        raise ParseError(_BINARY_REASON)
    return DecodedText(data.decode("cp1252", errors="replace"), "cp1252", "assumed")


def _sample(data: bytes, *, has_nul: bool) -> bytes:
    """What detection reads: the whole of a small file, else its start cut where no character is split (after a
    line break: 0x0A is never the second byte of a GBK, Big5 or Shift-JIS character; UTF-16/32 at 4 bytes)."""
    if len(data) <= _DETECT_BYTES:
        return data
    if has_nul:
        return data[:_DETECT_BYTES]  # a multiple of 4
    cut = data.rfind(b"\n", 0, _DETECT_BYTES)
    return data[: cut + 1] if cut > _DETECT_BYTES // 2 else data[:_DETECT_BYTES]


def _codec(encoding: str) -> str:
    return codecs.lookup(encoding).name


def _as_browsers_read(declared: str) -> str | None:
    """A declared charset as browsers decode it (the WHATWG Encoding Standard): "iso-8859-1" and "ascii" mean
    Windows-1252, "gb2312" and "gbk" mean GB18030; None for a name no codec has."""
    try:
        name = codecs.lookup(declared).name
    except LookupError:
        return None
    if name in ("iso8859-1", "ascii"):
        return "cp1252"
    return "gb18030" if name in ("gb2312", "gbk") else name


def detect_encoding(sample: bytes, *, has_nul: bool) -> str | None:
    """charset-normalizer's best reading of `sample` under the rules of this module's docstring, or None."""
    matches = [m for m in from_bytes(sample, cp_exclusion=_NEVER) if has_nul == m.encoding.startswith(_WIDE)]
    if not matches:
        return None
    best = matches[0].encoding
    names = [m.encoding for m in matches]
    if "gb18030" in names and (best == "cp874" or (best in _KOREAN and len(sample) < _SHORT_BYTES)):
        return "gb18030"
    if has_nul:
        return best if _plausible(sample, best) else None
    # A Latin page decoded as another Latin page: keep the office default unless that one reads differently and
    # Windows-1252 was not even a candidate (Cyrillic, Greek, ...).
    latin = not _multibyte(best) and _strict(sample, "cp1252") is not None
    if latin and ("cp1252" in names or sample.decode(best, errors="replace") == sample.decode("cp1252")):
        return "cp1252"
    return best


def _multibyte(encoding: str) -> bool:
    return codecs.lookup(encoding).name.replace("-", "_") in (
        "gb18030", "gbk", "gb2312", "big5", "big5hkscs", "cp950", "shift_jis", "cp932", "euc_jp", "euc_kr", "cp949",
        "johab", "shift_jis_2004", "shift_jisx0213", "euc_jis_2004", "hz", "iso2022_jp", "iso2022_kr",
    )  # fmt: skip


def _strict(data: bytes, encoding: str) -> str | None:
    """`data` decoded in `encoding`, or None when it is not valid there (or the codec is unknown)."""
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _plausible(data: bytes, encoding: str) -> bool:
    """UTF-16/32 without a BOM is accepted only when it reads as text: no control characters beyond line breaks and
    tabs, nothing unassigned or private (binary data read as UTF-16 is full of both); and when it is short, a space
    or a line break somewhere (what the NUL bytes of real UTF-16 text mostly are; a few random bytes rarely are)."""
    text = data[:_PLAUSIBLE_BYTES].decode(encoding, errors="replace")
    odd = sum(1 for ch in text if ch == "\ufffd" or (ch not in "\t\n\r\f" and unicodedata.category(ch) in _ODD))
    return odd <= len(text) // 200 and (len(text) >= _SHORT_WIDE_CHARS or any(ch in " \t\n\r" for ch in text))
