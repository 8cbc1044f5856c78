"""What makemessages would extract, read in Python: the (context, msgid) pairs of the templates' translate and
blocktranslate tags, of gettext calls in the apps' and portal's Python, and of gettext/ngettext in static/js. The
translation tests compare them with the .po files, so a string added without running makemessages fails too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from django.template.base import Lexer, TokenType
from django.utils.text import smart_split

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
PYTHON_DIRS = [ROOT / "apps", ROOT / "portal"]
JS_DIR = ROOT / "static" / "js"

Msg = tuple[str | None, str]

_CONTEXT = re.compile(r"""\bcontext\s+("[^"]*"|'[^']*')""")
_VAR = re.compile(r"^\s*([\w.]+)")


def _literal(text: str) -> str:
    return ast.literal_eval(text)


def template_messages(path: Path) -> Iterator[Msg]:
    """The msgids of one template, as makemessages writes them (%(name)s for variables, %% for %, trimmed)."""
    tokens = Lexer(path.read_text(encoding="utf-8")).tokenize()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.token_type != TokenType.BLOCK:
            continue
        bits = list(smart_split(token.contents))
        name = bits[0]
        context_match = _CONTEXT.search(token.contents)
        context = _literal(context_match[1]) if context_match else None
        if name in ("translate", "trans"):
            if bits[1][0] in "\"'":
                yield context, _literal(bits[1])
            continue
        if name not in ("blocktranslate", "blocktrans"):
            continue
        trimmed = "trimmed" in bits
        singular: list[str] = []
        plural: list[str] = []
        current = singular
        while tokens[i].token_type != TokenType.BLOCK or tokens[i].contents.split()[0] not in (
            "endblocktranslate",
            "endblocktrans",
        ):
            inner = tokens[i]
            if inner.token_type == TokenType.TEXT:
                current.append(inner.contents.replace("%", "%%"))
            elif inner.token_type == TokenType.VAR:
                current.append(f"%({_VAR.match(inner.contents)[1]})s")  # type: ignore[index]
            elif inner.token_type == TokenType.BLOCK and inner.contents.strip() == "plural":
                current = plural
            i += 1
        i += 1
        text = "".join(singular)
        if trimmed:
            text = " ".join(line.strip() for line in text.strip().splitlines() if line.strip())
        yield context, text


def python_messages(path: Path) -> Iterator[Msg]:
    """gettext, gettext_lazy, gettext_noop (as `_` or by name), pgettext and ngettext calls with literal text."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        if name in ("_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy") and args and args[0]:
            yield None, args[0]
        elif name in ("pgettext", "pgettext_lazy") and len(args) >= 2 and args[0] and args[1]:
            yield args[0], args[1]


_JS_CALL = re.compile(r"""\b(?:gettext|ngettext)\(\s*("(?:[^"\\]|\\.)*")""")


def js_messages(path: Path) -> Iterator[Msg]:
    for match in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
        yield None, _literal(match[1])


def all_messages() -> dict[str, set[Msg]]:
    """Per domain, every message the sources mark for translation."""
    django: set[Msg] = set()
    for path in sorted(TEMPLATES.rglob("*.html")):
        django |= set(template_messages(path))
    for folder in PYTHON_DIRS:
        for path in sorted(folder.rglob("*.py")):
            if "migrations" not in path.parts:
                django |= set(python_messages(path))
    js = {m for path in sorted(JS_DIR.glob("*.js")) for m in js_messages(path)}
    return {"django": django, "djangojs": js}
