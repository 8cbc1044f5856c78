"""Plain text and Markdown: paragraphs separated by blank lines, each with its 1-based line range.

Markdown gets just enough structure for locating and sectioning: ATX (`## x`) and setext headings,
fenced code kept whole, list items and pipe tables as their own blocks. Inline markup is left as is.

Plain text gets the structure plain-text documents write without any markup language: a title underlined (and
perhaps overlined) with a run of one punctuation character ("Install\n=======", reStructuredText's sections, the
way README.txt files and Python documentation mark them; levels in the order the styles first appear), and list
items, each its own block, where a block opens with a bullet or counter ("* ", "- ", "• ", "1. ") and a later line
opens with one at the same indentation. A line that starts with "- " inside a paragraph ("… the cost\n- which …") stays
in its paragraph.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from ..blocks import Block, ParsedDocument
from ..encoding import read_text
from ..sentences import cjk_count, is_cjk
from ..textutil import joins_without_space

_ATX_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_RE = re.compile(r"^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+\S")
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Plain text: a title's underline or overline (reStructuredText's adornment characters), and list markers.
_ADORNMENT_RE = re.compile(r"^([=\-~^\"'`#*+:._])\1{2,}[ \t]*$")
_TEXT_LIST_RE = re.compile(r"^([ \t]*)([-*+•]|\d{1,3}[.)]|\(\d{1,3}\)|#\.)[ \t]+\S")
_LINE_SPLIT_RE = re.compile(r"\r\n|\r|\n")
# Korean is written with spaces between words, so its wrapped lines keep the space Chinese and Japanese lack.
_HANGUL_RE = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")


class TextParser:
    name = "text"
    doc_type = "txt"
    extensions = (".txt", ".md", ".markdown")
    label = "text"

    def score(self, filename: str, head: bytes) -> float:
        lower = filename.lower()
        if lower.endswith(self.extensions):
            return 0.6 if _looks_like_text(head) else 0.05
        # A name with no extension at all ("README", "notes") is read as text when it is text;
        # any other unknown extension is refused rather than guessed.
        if "." not in lower.rsplit("/", 1)[-1] and _looks_like_text(head):
            return 0.2
        return 0.0

    def parse(self, data: bytes, filename: str) -> ParsedDocument:
        decoded = read_text(data)
        markdown = filename.lower().endswith((".md", ".markdown"))
        blocks = _MarkdownReader(markdown).read(_LINE_SPLIT_RE.split(decoded.text))
        metadata: dict = {"text_encoding": decoded.encoding, "text_encoding_source": decoded.source}
        first_heading = next((b for b in blocks if b.kind == "heading"), None)
        if markdown and first_heading is not None and first_heading.heading_path == (first_heading.text,):
            metadata["title"] = first_heading.text
        return ParsedDocument(blocks=blocks, metadata=metadata, doc_type="md" if markdown else "txt")


def _looks_like_text(head: bytes) -> bool:
    # UTF-16 without a BOM has NULs too: a .txt file still comes here with its low score, and read_text tells it
    # from binary data; a file without a name to go by is not guessed at.
    return head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" not in head


def _join_wrapped(lines: list[str]) -> str:
    """The hard-wrapped lines of one block as one line: a space between them, none where Chinese or Japanese
    text was wrapped (a Chinese file wrapped at a fixed width has no space at its line ends: "岛\n屿" is "岛屿")."""
    stripped = [t.strip() for t in lines if t.strip()]
    # Chinese or Japanese text is wrapped at a number of characters, so a break may fall anywhere, inside a
    # number too ("200\n6年", "在\n2010年"); English is wrapped only where a space was.
    wide = cjk_count("".join(stripped)) >= 0.2 * sum(len(t.replace(" ", "")) for t in stripped)
    out = ""
    for line in stripped:
        if out and not _joins_without_space(out[-1], line[0], wide):
            out += " "
        out += line
    return out


def _joins_without_space(left: str, right: str, wide: bool) -> bool:
    if _HANGUL_RE.match(left) or _HANGUL_RE.match(right):
        return False
    if joins_without_space(left, right):
        return True
    return wide and (is_cjk(left) or is_cjk(right) or (left.isdigit() and right.isdigit()))


def decode_text(data: bytes) -> str:
    """The text of a text file in the encoding encoding.read_text chooses (a BOM, else UTF-8, else detection);
    binary data is refused instead of being turned into mojibake blocks."""
    return read_text(data).text


@dataclass
class _MarkdownReader:
    markdown: bool
    blocks: list[Block] = field(default_factory=list)
    path: list[tuple[int, str]] = field(default_factory=list)
    pending: list[tuple[int, str]] = field(default_factory=list)  # (line number, line)
    fence: str | None = None
    adornments: list[tuple[str, bool]] = field(default_factory=list)  # plain text: title styles, first seen first

    def read(self, lines: list[str]) -> list[Block]:
        for lineno, line in enumerate(lines, start=1):
            self._line(lineno, line)
        self._flush()
        return self.blocks

    def _line(self, lineno: int, line: str) -> None:
        md = self.markdown
        if self.fence is not None:
            self.pending.append((lineno, line))
            if line.strip().startswith(self.fence):
                self.fence = None
                self._flush()
            return
        if md and (m := _FENCE_RE.match(line)):
            self._flush()
            self.fence = m.group(1)[0] * 3
            self.pending.append((lineno, line))
            return
        if md and (m := _ATX_RE.match(line)):
            self._flush()
            self._heading(len(m.group(1)), (m.group(2) or "").strip(), lineno, lineno)
            return
        if md and self.pending and _SETEXT_RE.match(line) and not _LIST_RE.match(self.pending[0][1]):
            text = _join_wrapped([t for _, t in self.pending])
            start = self.pending[0][0]
            self.pending = []
            self._heading(1 if line.strip()[0] == "=" else 2, text, start, lineno)
            return
        if not md and _ADORNMENT_RE.match(line) and self._titled(line, lineno):
            return
        if not line.strip():
            self._flush()
            return
        if (md and _LIST_RE.match(line)) or (not md and self._next_item(line)):
            self._flush()  # each list item is its own block, so it can be cited on its own
        self.pending.append((lineno, line))

    def _titled(self, line: str, lineno: int) -> bool:
        """Plain text: `line` (a run of one punctuation character) underlines the one line pending, with or without
        the same overline above it; that line becomes a heading. An overline alone waits in `pending` for its
        title."""
        char = line.strip()[0]
        texts = [t for _, t in self.pending]
        overlined = len(texts) == 2 and texts[0].strip() == line.strip()
        title = texts[-1].strip() if texts else ""
        if not title or len(texts) > 2 or (len(texts) == 2 and not overlined) or _TEXT_LIST_RE.match(texts[-1]):
            return False
        if len(line.strip()) < min(len(title), 3) or _ADORNMENT_RE.match(title):
            return False  # reStructuredText's underline is at least as long as its title
        style = (char, overlined)
        if style not in self.adornments:
            self.adornments.append(style)
        start = self.pending[0][0]
        self.pending = []
        self._heading(min(6, self.adornments.index(style) + 1), title, start, lineno)
        return True

    def _next_item(self, line: str) -> bool:
        """Plain text: `line` opens an item after the item the pending block is (a bullet or a counter at the same
        indentation); a line inside a paragraph that happens to start with "- " does not."""
        item = _TEXT_LIST_RE.match(line)
        first = _TEXT_LIST_RE.match(self.pending[0][1]) if self.pending else None
        return bool(item and first and item.group(1) == first.group(1))

    def _heading(self, level: int, text: str, start: int, end: int) -> None:
        if not text:
            return
        self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, text)]
        self._emit("heading", text, start, end)

    def _flush(self) -> None:
        if not self.pending:
            return
        lines = [t for _, t in self.pending]
        start, end = self.pending[0][0], self.pending[-1][0]
        self.pending = []
        if self.markdown and _FENCE_RE.match(lines[0]):
            self._emit("paragraph", "\n".join(lines).strip(), start, end)
        elif self.markdown and all(t.lstrip().startswith("|") for t in lines):
            self._emit("table", "\n".join(t.strip() for t in lines), start, end)
        elif _LIST_RE.match(lines[0]) if self.markdown else _TEXT_LIST_RE.match(lines[0]):
            self._emit("list_item", _join_wrapped(lines), start, end)
        else:
            # Hard-wrapped lines are one paragraph; hyphens in plain text are real, so no repair.
            self._emit("paragraph", _join_wrapped(lines), start, end)

    def _emit(self, kind: str, text: str, start: int, end: int) -> None:
        if not text.strip():
            return
        self.blocks.append(
            Block(
                kind=kind,
                text=text,
                heading_path=tuple(t for _, t in self.path),
                para_no=len(self.blocks),
                line_start=start,
                line_end=end,
            )
        )


PARSER = TextParser()
