"""What the LLM path's attaching (answers.attach) takes from answers.markers is public: the prompt's evidence
wrapping, one definition that the streaming attacher and the final cleaning share. No database."""

from __future__ import annotations

import ast
from pathlib import Path

from apps.citations.answers import attach
from apps.citations.answers.markers import PROMPT_WRAPPING, clean_markers, strip_prompt_wrapping

COPIED = "The evidence is:\n[kb 2 begin]\ndocument 7 | Lions\ncite as [2]\nLions live in Gir. 【kb 2 end】"


def test_the_prompts_wrapping_is_stripped_by_its_public_name_and_cleaning_agrees():
    assert strip_prompt_wrapping(COPIED) == "The evidence is:\n\ndocument 7 | Lions\n\nLions live in Gir. "
    assert PROMPT_WRAPPING.search("cite as 【3】") and not PROMPT_WRAPPING.search("see [3]")
    # Cleaning strips exactly that wrapping, and keeps real markers.
    assert clean_markers(f"{COPIED} [2]", {2}).text == clean_markers(strip_prompt_wrapping(f"{COPIED} [2]"), {2}).text
    assert "[1]" in clean_markers(f"{COPIED} [2]", {2}).text


def test_attach_imports_no_private_name_of_another_module():
    tree = ast.parse(Path(attach.__file__).read_text(encoding="utf-8"))
    private = [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert private == []
