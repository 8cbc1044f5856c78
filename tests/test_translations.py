"""Every word a person sees exists in Simplified Chinese: the templates hold no visible English outside translate
tags, every message the templates, Python and JavaScript mark is in the catalogs with a translation (not empty,
not fuzzy), and the committed .mo files say exactly what the .po files say (the portal runs without GNU gettext,
so the compiled catalogs are committed and must not go stale)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

from tests.i18n.extract import ROOT, TEMPLATES, all_messages, template_messages
from tests.i18n.po_files import expected_catalog, read_mo, read_po

LOCALE = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")

# Text a template may show as it is: names of things, units and symbols, the same in both languages.
ALLOWED_WORDS = {"doi", "PDF", "API", "REST", "DOCX", "OCR", "Markdown", "Zotero"}
# Attributes a person reads (tooltips, placeholders, screen readers, the delete confirmation).
VISIBLE_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "data-confirm"}
# Blocks whose text goes into an attribute of the base template, not onto the page ({% block main_class %}wide).
NOT_TEXT_BLOCKS = {"main_class"}
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")
_PLACEHOLDER = "\x00"


def _untranslated_template_text(source: str) -> list[str]:
    """The visible text and attribute values of a template that lie outside translate tags, with every template
    tag and variable replaced by a placeholder (translated text then counts as a placeholder too)."""
    parts: list[str] = []
    skipping: str | None = None
    for token in Lexer(source).tokenize():
        if skipping:
            if token.token_type == TokenType.BLOCK and token.contents.split()[0] == skipping:
                skipping = None
            continue
        if token.token_type == TokenType.TEXT:
            parts.append(token.contents)
            continue
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            if name in ("blocktranslate", "blocktrans"):
                skipping = "end" + name
            elif name == "comment":
                skipping = "endcomment"
            elif name == "block" and token.contents.split()[1] in NOT_TEXT_BLOCKS:
                skipping = "endblock"
        parts.append(_PLACEHOLDER)

    found: list[str] = []

    class Visible(HTMLParser):
        hidden_depth = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("script", "style"):
                self.hidden_depth += 1
            found.extend(value for name, value in attrs if name in VISIBLE_ATTRIBUTES and value)

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style"):
                self.hidden_depth -= 1

        def handle_data(self, data: str) -> None:
            if not self.hidden_depth:
                found.append(data)

    Visible().feed("".join(parts))
    return [text for text in found if any(w not in ALLOWED_WORDS for w in _WORD.findall(text))]


def _templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_shows_english_outside_a_translate_tag(path):
    untranslated = _untranslated_template_text(path.read_text(encoding="utf-8"))
    assert not untranslated, f"{path.name}: visible text outside {{% translate %}}: {untranslated}"


def test_the_template_scan_finds_text_outside_translate_tags():
    # given a template with one translated and two untranslated texts (an element's text and a tooltip)
    source = (
        '{% load i18n %}<h1>{% translate "Members" %}</h1><p title="Zoom in">{{ n }} · doi</p>'
        "<button>Upload</button>{% blocktranslate %}Ask {{ name }}{% endblocktranslate %}"
        "<script>const hidden = 'Not visible';</script>{% comment %}Not shown{% endcomment %}"
    )
    # then exactly the two untranslated ones are reported
    assert _untranslated_template_text(source) == ["Zoom in", "Upload"]


def test_blocktranslate_is_read_as_makemessages_writes_it(tmp_path):
    template = tmp_path / "t.html"
    template.write_text(
        "{% blocktranslate trimmed count counter=n with name=x %}One {{ name }}\n  of 100%"
        "{% plural %}{{ counter }} {{ name }}{% endblocktranslate %}"
        '{% translate "Sources" context "answer" %}'
    )
    assert list(template_messages(template)) == [(None, "One %(name)s of 100%%"), ("answer", "Sources")]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_message_has_a_chinese_translation(domain):
    entries = read_po(LOCALE / f"{domain}.po")
    in_catalog = {(e.msgctxt, e.msgid) for e in entries}
    missing = sorted(all_messages()[domain] - in_catalog, key=str)
    untranslated = [e.msgid for e in entries if e.msgid and not e.translated]
    assert not missing, f"marked for translation but not in {domain}.po (run makemessages): {missing}"
    assert not untranslated, f"no Chinese (empty or fuzzy) in {domain}.po: {untranslated}"


def test_the_catalog_check_fails_on_an_empty_or_fuzzy_translation(tmp_path):
    po = tmp_path / "t.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Sources"\nmsgstr "来源"\n\n'
        'msgid "Search"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Ask"\nmsgstr "提问"\n\n'
        'msgid "%(n)s page"\nmsgid_plural "%(n)s pages"\nmsgstr[0] ""\n',
        encoding="utf-8",
    )
    assert [e.msgid for e in read_po(po) if e.msgid and not e.translated] == ["Search", "Ask", "%(n)s page"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_files_say_what_the_po_files_say(domain):
    """Compiled by compilemessages after the last change of the .po; a .po changed since fails here."""
    expected = expected_catalog(read_po(LOCALE / f"{domain}.po"))
    compiled = read_mo(LOCALE / f"{domain}.mo")
    assert compiled == expected, (
        f"{domain}.mo is stale (run manage.py compilemessages): "
        f"{sorted(set(expected.items()) ^ set(compiled.items()), key=str)[:5]}"
    )


def test_the_po_and_mo_comparison_sees_a_changed_translation(tmp_path):
    entries = read_po(LOCALE / "django.po")
    expected = expected_catalog(entries)
    compiled = read_mo(LOCALE / "django.mo")
    changed = dict(compiled, **{"Sources": "资料"})
    assert expected["Sources"] == "来源" and changed != expected
