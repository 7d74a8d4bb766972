"""A progress line for long commands on a terminal: ``[#####.....] 12/40 games``, rewritten in
place with ``\\r`` on stderr, and nothing at all when stderr is not a terminal (piped, in a
script) or the command prints JSON, so what such a reader gets is unchanged."""

from __future__ import annotations

import sys
import time
from typing import TextIO

# How often the line may change, in seconds: a fast series would otherwise write it thousands
# of times a second (bytes over SSH for nothing).
EVERY = 0.2
WIDTH = 30


class ProgressLine:
    def __init__(self, total: int, *, unit: str = "games", shown: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total, self.unit = total, unit
        self.shown = self.stream.isatty() if shown is None else shown
        self.done, self.note = 0, ""
        self._last = 0.0
        self._width = 0

    def update(self, done: int, note: str = "") -> None:
        """``done`` of the total finished; ``note`` says what goes on (``game 3, ply 17``)."""
        self.done, self.note = done, note
        now = time.monotonic()
        if self.shown and (now - self._last >= EVERY or done >= self.total):
            self._last = now
            filled = WIDTH * min(done, self.total) // max(1, self.total)
            text = f"[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{self.total} {self.unit}"
            if note:
                text += f" · {note}"
            self.stream.write("\r" + text.ljust(self._width))
            self.stream.flush()
            self._width = len(text)

    def clear(self) -> None:
        """Take the line away before the command prints its results."""
        if self.shown and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
