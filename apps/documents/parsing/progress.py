"""How a step deep inside reading (OCR, page by page) tells the ingest job how far it got.

Reading runs in a forked child (sandbox.py) that must not touch the worker's database connection, so a parser only
calls report(); whoever runs the reading decides where that goes: sandbox.run_bounded sends it through a pipe to
the parent, which writes the job row; an in-process reading calls the sink directly. Nobody listening: a no-op.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

log = logging.getLogger(__name__)

Sink = Callable[[str, int, int], None]  # (stage, done, total)
_sink: Sink | None = None


def report(stage: str, done: int, total: int) -> None:
    """Tell the listener, if any, that `done` of `total` units of `stage` are finished; never raises."""
    if _sink is None:
        return
    try:
        _sink(stage, done, total)
    except Exception:  # progress is a courtesy: it must never fail the reading
        log.debug("progress report %s %s/%s not delivered", stage, done, total, exc_info=True)


@contextlib.contextmanager
def reporting_to(sink: Sink | None) -> Iterator[None]:
    """report() goes to `sink` inside the block (None: nowhere)."""
    global _sink
    previous, _sink = _sink, sink
    try:
        yield
    finally:
        _sink = previous
