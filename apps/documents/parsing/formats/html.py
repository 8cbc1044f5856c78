"""HTML pages (lxml): the visible text as blocks, with h1-h6 driving the heading path.

Scripts, styles, navigation, forms and anything marked hidden (the `hidden` attribute, aria-hidden, an
inline display:none) are dropped: they are not what a reader of the page sees. Locators are paragraph
ordinals; a page has no stable paragraph ids, so none are invented.
"""

from __future__ import annotations

import re

import lxml.etree
import lxml.html

from ..blocks import Block, ParsedDocument
from ..encoding import DecodedText, read_text
from ..errors import ParseError
from ..textutil import clean_inline

_DROP = {
    "script", "style", "noscript", "template", "nav", "svg", "canvas", "iframe", "object", "embed", "button",
    "select", "input", "textarea", "head", "map", "audio", "video", "dialog",
}  # fmt: skip
_BLOCK = {
    "p", "div", "section", "article", "main", "header", "footer", "aside", "address", "blockquote", "figure",
    "ul", "ol", "dl", "dt", "dd", "form", "fieldset", "details", "summary", "hr", "body", "html", "center",
    "legend", "hgroup", "menu",
}  # fmt: skip
_HEADING_RE = re.compile(r"^h([1-6])$")
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_CHARSET_RE = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


class HtmlParser:
    name = "html"
    doc_type = "html"
    extensions = (".html", ".htm")
    label = "web page"

    def score(self, filename: str, head: bytes) -> float:
        start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:64].lower()
        markup = start.startswith((b"<!doctype html", b"<html"))
        if filename.lower().endswith(self.extensions):
            return 0.7 if b"\x00" not in head[:4096] or markup else 0.05
        return 0.5 if markup else 0.0

    def parse(self, data: bytes, filename: str) -> ParsedDocument:
        root, decoded = _parse_html(data)
        walker = _Walker()
        body = root.find("body")
        walker.visit(body if body is not None else root)
        walker.flush()
        metadata: dict = {"text_encoding": decoded.encoding, "text_encoding_source": decoded.source}
        title = clean_inline(root.findtext(".//title") or "")
        first_h1 = next((b.text for b in walker.blocks if b.kind == "heading" and len(b.heading_path) == 1), "")
        if title or first_h1:
            metadata["title"] = title or first_h1
        author = root.xpath("string(//meta[@name='author']/@content)")
        if clean_inline(author):
            metadata["authors"] = [clean_inline(author)]
        lang = root.get("lang")
        if lang:
            metadata["language"] = lang
        return ParsedDocument(blocks=walker.blocks, metadata=metadata, doc_type="html")


def _parse_html(data: bytes) -> tuple[lxml.html.HtmlElement, DecodedText]:
    """The page's tree, and the encoding its text was read in (encoding.read_text, with the <meta charset>)."""
    match = _CHARSET_RE.search(data[:4096])
    declared = match.group(1).decode("ascii", errors="replace") if match else None
    try:
        decoded = read_text(data, declared=declared)
    except ParseError:
        raise ParseError("The file is not a readable web page (it looks like a binary file).") from None
    try:
        # Handed over as UTF-8 so that lxml does not decode again by the (possibly wrong) declaration.
        parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
        return lxml.html.document_fromstring(decoded.text.encode("utf-8"), parser=parser), decoded
    except (lxml.etree.ParserError, ValueError, LookupError) as exc:
        raise ParseError("The web page could not be read (it may be empty or damaged).", detail=repr(exc)) from exc


def _hidden(el: lxml.html.HtmlElement) -> bool:
    if not isinstance(el.tag, str) or el.tag.lower() in _DROP:
        return True
    if el.get("hidden") is not None or el.get("aria-hidden", "").lower() == "true":
        return True
    if el.get("role", "").lower() == "navigation":
        return True
    return bool(_HIDDEN_STYLE_RE.search(el.get("style", "")))


class _Walker:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.path: list[tuple[int, str]] = []
        self.buf: list[str] = []
        self.kind = "paragraph"

    def visit(self, el: lxml.html.HtmlElement) -> None:
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        if m := _HEADING_RE.match(tag):
            self.flush()
            text = clean_inline(_visible_text(el))
            if text:
                level = int(m.group(1))
                self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, text)]
                self._emit("heading", text)
        elif tag == "table":
            self.flush()
            self._table(el)
        elif tag == "pre":
            self.flush()
            self._emit("paragraph", _visible_text(el).strip("\n"))
        elif tag in ("li", "figcaption", "caption"):
            self.flush()
            outer, self.kind = self.kind, "list_item" if tag == "li" else "caption"
            self._children(el)
            self.flush()
            self.kind = outer
        elif tag in _BLOCK:
            self.flush()
            self._children(el)
            self.flush()
        elif tag == "br":
            self.buf.append(" ")
        else:  # inline markup: its text runs on with the surrounding text
            self._children(el)

    def _children(self, el: lxml.html.HtmlElement) -> None:
        if el.text:
            self.buf.append(el.text)
        for child in el:
            if not _hidden(child):
                self.visit(child)
            if child.tail:
                self.buf.append(child.tail)

    def _table(self, table: lxml.html.HtmlElement) -> None:
        caption = table.find("caption")
        if caption is not None and not _hidden(caption):
            self._emit("caption", clean_inline(_visible_text(caption)))
        rows = []
        for tr in table.xpath("./tr|./thead/tr|./tbody/tr|./tfoot/tr"):
            cells = [clean_inline(_visible_text(td)) for td in tr if isinstance(td.tag, str) and td.tag in ("td", "th")]
            if any(cells):
                rows.append(tuple(cells))
        self._emit("table", "\n".join(" | ".join(cells) for cells in rows), cells=tuple(rows))

    def flush(self) -> None:
        text = clean_inline("".join(self.buf))
        self.buf = []
        if text:
            self._emit(self.kind, text)

    def _emit(self, kind: str, text: str, cells: tuple[tuple[str, ...], ...] = ()) -> None:
        if not text.strip():
            return
        path = tuple(t for _, t in self.path)
        self.blocks.append(Block(kind=kind, text=text, heading_path=path, para_no=len(self.blocks), cells=cells))


def _visible_text(el: lxml.html.HtmlElement) -> str:
    """Text of an element without its hidden descendants (tails of hidden elements are still visible)."""
    parts = [el.text or ""]
    for child in el:
        if not _hidden(child):
            if isinstance(child.tag, str) and child.tag.lower() == "br":
                parts.append(" ")
            else:
                parts.append(_visible_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


PARSER = HtmlParser()
