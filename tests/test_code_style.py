"""The code style the project keeps (ruff with Django rules), checked with the tests so CI enforces it."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
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


def _imports_inside_functions(tree: ast.Module):
    """(function, line, module) of every import made inside a function body, AppConfig.ready() excepted (apps
    plug into the seams of the apps below them there, once the registry is ready)."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or function.name == "ready":
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                yield function.name, node.lineno, node.module
            elif isinstance(node, ast.Import):
                yield from ((function.name, node.lineno, alias.name) for alias in node.names)


def test_no_app_is_imported_inside_a_function_of_another():
    """An import hidden in a function is how a dependency dodges the layers check and an import cycle waits for
    run time: between apps, every import is at the top of the module, where the check and a reader see it."""
    hidden = []
    for path in sorted((ROOT / "apps").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        own_app = path.relative_to(ROOT / "apps").parts[0]
        for function, line, module in _imports_inside_functions(ast.parse(path.read_text(encoding="utf-8"))):
            parts = module.split(".")
            if parts[0] == "apps" and len(parts) > 1 and parts[1] != own_app:
                hidden.append(f"{path.relative_to(ROOT)}:{line} {function}() imports {module}")
    assert not hidden, "\n".join(hidden)


MYPY_BASELINE = ROOT / "tests" / "mypy-baseline.txt"
_MYPY_ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+: error: (?P<message>.*?)\s+\[(?P<code>[a-z-]+)\]$")


def mypy_errors(output: str) -> Counter[str]:
    """mypy's errors as "path [code] message", without line numbers, so moving code does not change them."""
    found = (_MYPY_ERROR.match(line) for line in output.splitlines())
    return Counter(f"{m['path']} [{m['code']}] {m['message']}" for m in found if m)


def test_mypy_finds_no_error_beyond_its_baseline():
    """mypy with the Django and DRF stubs ([tool.mypy] in pyproject.toml). The errors it found when it was adopted
    are listed in tests/mypy-baseline.txt; a new one fails, and so does a listed one that is gone (delete its line:
    the list only shrinks). Regenerate: `python tests/test_code_style.py --mypy-baseline`."""
    found = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert found, "mypy is a dev dependency; install the project with its [dev] extra"
    env = {**os.environ, "SECRET_KEY": os.environ.get("SECRET_KEY") or "mypy-only"}  # settings load for the plugin
    result = subprocess.run([found], cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode in (0, 1), result.stdout + result.stderr  # 2: mypy itself failed
    errors = mypy_errors(result.stdout)
    assert errors or result.returncode == 0, result.stdout + result.stderr
    baseline = Counter(line for line in MYPY_BASELINE.read_text(encoding="utf-8").splitlines() if line.strip())
    new, gone = errors - baseline, baseline - errors
    assert not new, "mypy errors not in the baseline:\n" + "\n".join(sorted(new.elements()))
    assert not gone, "fixed, delete from tests/mypy-baseline.txt:\n" + "\n".join(sorted(gone.elements()))


def test_migrations_match_the_models():
    result = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


if __name__ == "__main__" and sys.argv[1:] == ["--mypy-baseline"]:
    run = subprocess.run(["mypy"], cwd=ROOT, capture_output=True, text=True, env={**os.environ, "SECRET_KEY": "x"})
    MYPY_BASELINE.write_text("".join(f"{line}\n" for line in sorted(mypy_errors(run.stdout).elements())))
