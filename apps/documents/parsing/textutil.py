"""Small text clean-ups shared by the format parsers and the chunker."""

from __future__ import annotations

import re
import unicodedata

from .hyphenation import Vocabulary, keep_hyphen

# Presentation-form ligatures that PDF fonts often map to a single code point; spelled out so search
# and embeddings see ordinary words ("ﬁnd" -> "find").
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\u0132": "IJ",
    "\u0133": "ij",
}
_LIG_RE = re.compile("|".join(LIGATURES))
_SPACES_RE = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+")
# A hyphen at a line end after a letter, the next line starting in lower case: a word broken by the typesetter
# ("perfor-" | "mance", closed up) or a compound ("worst-" | "performing", kept); hyphenation.keep_hyphen decides.
_HYPHEN_END_RE = re.compile(r"[^\W\d_][-\u00ad\u2010]$")
_HEAD_RE = re.compile(r"[^\W\d_]+(?=[-\u2010]$)")  # the letters before that hyphen ("the" of "state-of-the-")
_TAIL_RE = re.compile(r"[^\W\d_]+")
_LONGEST_WORD = 100


# TeX-made PDFs often draw an accent as a separate spacing character before the letter
# ("na\u00a8\u0131ve"); recombined so the word is searchable ("na\u00efve"). Backtick is left alone:
# it is far more often code than a grave accent.
_SPACING_ACCENTS = {"\u00a8": "\u0308", "\u00b4": "\u0301", "\u02c6": "\u0302", "\u02dc": "\u0303"}
_ACCENT_RE = re.compile("([\u00a8\u00b4\u02c6\u02dc])([^\\W\\d_])")


# Type 3 fonts of old TeX PDFs carry no Unicode map: the text layer then holds the font's own codes, control
# characters where the glyph is a ligature or a dash ("Signi\x1ccance", "1383\x151414"). Which TeX encoding
# placed them shows in the codes used: T1 (EC, cm-super) puts fi/fl/ffi at 0x1C-0x1E and the dashes at 0x15/0x16;
# OT1 (Computer Modern) puts ff/fi/fl/ffi/ffl at 0x0B-0x0F.
_TEX_T1 = str.maketrans(
    {
        "\x10": "\u201c", "\x11": "\u201d", "\x12": "\u201e", "\x13": "\u00ab", "\x14": "\u00bb",
        "\x15": "\u2013", "\x16": "\u2014", "\x17": "", "\x19": "\u0131", "\x1a": "\u0237",
        "\x1b": "ff", "\x1c": "fi", "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl",
    }
)  # fmt: skip
_TEX_OT1 = str.maketrans(
    {"\x0b": "ff", "\x0c": "fi", "\x0d": "fl", "\x0e": "ffi", "\x0f": "ffl", "\x10": "\u0131", "\x11": "\u0237",
     "\x19": "\u00df", "\x1a": "\u00e6", "\x1b": "\u0153", "\x1c": "\u00f8"}
)  # fmt: skip
_TEX_CODES_RE = re.compile("[\x0b-\x1f]")
_OT1_LIGATURES_RE = re.compile("[\x0b-\x0f]")
_T1_LIGATURES_RE = re.compile("[\x15\x16\x1b-\x1f]")


def decode_tex_codes(text: str) -> str:
    """Control characters left by a font without a Unicode map, read as the TeX encoding they come from."""
    if not _TEX_CODES_RE.search(text):
        return text
    ot1 = bool(_OT1_LIGATURES_RE.search(text)) and not _T1_LIGATURES_RE.search(text)
    return text.translate(_TEX_OT1 if ot1 else _TEX_T1)


def fix_ligatures(text: str) -> str:
    text = decode_tex_codes(text)
    text = _LIG_RE.sub(lambda m: LIGATURES[m.group(0)], text)
    if _ACCENT_RE.search(text):
        text = _ACCENT_RE.sub(_compose_accent, text)
    return text


def _compose_accent(m: re.Match) -> str:
    base = "i" if m.group(2) == "\u0131" else m.group(2)  # dotless i takes the accent's place
    return unicodedata.normalize("NFC", base + _SPACING_ACCENTS[m.group(1)])


def join_blocks(texts: list[str], *, vocabulary: Vocabulary | None = None) -> str:
    """Join block texts with blank lines, except where a word was cut by a block boundary (a compound's hyphen
    there is kept, see join_lines)."""
    out = ""
    for text in texts:
        if out and _HYPHEN_END_RE.search(out) and text[:1].islower():
            out = _join_at_hyphen(out, text, vocabulary)
        else:
            out = f"{out}\n\n{text}" if out else text
    return out


def clean_inline(text: str) -> str:
    """Ligatures spelled out, runs of spaces collapsed, ends stripped (soft hyphens kept for join_lines)."""
    text = fix_ligatures(text)
    return _SPACES_RE.sub(" ", text).strip()


_URL_CUT_RE = re.compile(r"\bhttps?:(?://\S*[/\-_.=?&#])?$")
# Its first word is more URL: a path goes on ("…/line-" | "spacing.html"), or the line is the URL's last segment
# ("…/researchhelp/" | "journal-abbreviations/").
_URL_REST_RE = re.compile(r"^(?://)?[\w\-~%]*(?:[/.?=&#][\w\-.~%/?=&#]|/(?:\s|$))")


def join_lines(lines: list[str], *, vocabulary: Vocabulary | None = None) -> str:
    """Join the visual lines of one paragraph, repairing words hyphenated at a line end ("perfor-" | "mance") and
    keeping a compound's hyphen there ("worst-" | "performing"). `vocabulary` (hyphenation.document_vocabulary of
    the whole document's lines) lets the document's own spelling decide; without it an English word list does."""
    out = ""
    for raw in lines:
        line = clean_inline(raw)
        if not line:
            continue
        if not out:
            out = line
        elif out.endswith("\u00ad"):
            out = out[:-1] + line  # a soft hyphen is the typesetter's own mark of a broken word
        elif _URL_CUT_RE.search(out) and _URL_REST_RE.match(line):
            out = out + line  # a URL broken at a line end ("https:" | "//host/…", "…/line-" | "spacing.html")
        elif _HYPHEN_END_RE.search(out) and line[:1].islower():
            out = _join_at_hyphen(out, line, vocabulary)
        elif joins_without_space(out[-1], line[0]):
            out = out + line  # Chinese/Japanese lines wrap without a space between them
        else:
            out = out + " " + line
    return out.replace("\u00ad", "")


def _join_at_hyphen(out: str, line: str, vocabulary: Vocabulary | None) -> str:
    """`out`, which ends in a hyphen after a letter, joined to `line`, which starts in lower case."""
    # Only the end of `out` is searched: a paragraph grows line by line and is searched at every hyphen.
    head, tail = _HEAD_RE.search(out, max(0, len(out) - _LONGEST_WORD)), _TAIL_RE.match(line)
    if head and tail and keep_hyphen(head.group(), tail.group(), vocabulary):
        return out + line
    return out[:-1] + line


def _is_cjk(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def join_line_breaks(text: str) -> str:
    """`text` with each line break made a space, or nothing where CJK text meets (a DOCX manual break inside a
    Chinese sentence: "写作而\n设计" is "写作而设计")."""
    return re.sub(
        r"[ \t]*\n[ \t]*",
        lambda m: (
            ""
            if 0 < m.start() < m.end() < len(text) and joins_without_space(text[m.start() - 1], text[m.end()])
            else " "
        ),
        text,
    )


def joins_without_space(left: str, right: str) -> bool:
    """Two CJK characters, or a CJK character and a punctuation mark ("为" + "”Document", "bug" + "，"), meet at a
    line break without a space: CJK text has none there, and quotes are often not wide characters."""
    if _is_cjk(left) and _is_cjk(right):
        return True
    punctuation = unicodedata.category(left).startswith("P") or unicodedata.category(right).startswith("P")
    return punctuation and (_is_cjk(left) or _is_cjk(right))


def normalise_for_match(text: str) -> str:
    """Loose form used to compare texts (headings vs. outline entries, tests): NFKC, lowercase,
    letters and digits only."""
    text = unicodedata.normalize("NFKC", fix_ligatures(text)).lower()
    return re.sub(r"[\W_]+", "", text)
