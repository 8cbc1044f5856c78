"""The code style the project keeps (ruff with Django rules), checked with the tests so CI enforces it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert found, "ruff is a dev dependency; install the project with its [dev] extra"
    return [found]


def test_ruff_finds_nothing():
    result = subprocess.run([*_ruff(), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_dependencies_point_one_way():
    """documents <- retrieval <- citations <- integrations (pyproject.toml [tool.importlinter]); an import against
    that order fails, and so does a listed exception that is no longer needed (the list only shrinks)."""
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert found, "import-linter is a dev dependency; install the project with its [dev] extra"
    result = subprocess.run([found, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_migrations_match_the_models():
    result = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
