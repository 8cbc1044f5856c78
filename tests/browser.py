"""Driving the system Chromium through Playwright: one way to open a page for every browser test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def open_page(chromium_path: str, *, timeout_ms: int = 20_000, **context_options) -> Iterator:
    """A fresh page of a fresh browser; `context_options` go to Playwright's new_context (viewport, scale).

    The portal's Content-Security-Policy refuses eval, and Playwright's wait_for_function polls its predicate
    with eval inside the page, so these pages bypass the policy by default. tests/test_csp.py opens them with
    bypass_csp=False and fails on any violation: the policy is tested there, the features here."""
    from playwright.sync_api import sync_playwright

    context_options.setdefault("bypass_csp", True)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(**context_options)
            context.set_default_timeout(timeout_ms)
            yield context.new_page()
        finally:
            browser.close()
