"""Where the time of a multi-step operation went: one named lap per step, for diagnostics and job timings."""

from __future__ import annotations

import time


class Laps:
    """`lap(name)` records the time since the previous lap (or the start), in seconds times `scale`."""

    def __init__(self, scale: float = 1.0, digits: int = 3) -> None:
        self.laps: dict[str, float] = {}
        self._scale, self._digits = scale, digits
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round((now - self._last) * self._scale, self._digits)
        self._last = now
