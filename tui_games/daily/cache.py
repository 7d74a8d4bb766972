"""The days' puzzles a process keeps (:data:`DAYS` a game), each made once however many
threads ask for it at once.

The lobby makes puzzles in its event loop's executor threads, and a day's first requests
come together (players log in at the same hour): with a bare ``lru_cache`` each of them
made the same puzzle, seconds of CPU each for Sudoku and checkers, holding the GIL against
the loop. Here a request for a day being made waits for it, as ``checkers.tables()`` does
for the tables; requests for other days (or games) go on beside it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from threading import Lock
from typing import TypeVar

__all__ = ["DAYS", "kept"]

T = TypeVar("T")
DAYS = 16


def kept(make: Callable[..., T]) -> Callable[..., T]:
    """``make`` (a pure function of hashable arguments: a game's maker and a day) cached for
    :data:`DAYS` argument tuples, the calls for one tuple made one at a time."""
    cached = functools.lru_cache(maxsize=DAYS)(make)
    guard = Lock()
    making: dict[tuple[Hashable, ...], Lock] = {}

    @functools.wraps(make)
    def made(*args: Hashable) -> T:
        with guard:
            lock = making.setdefault(args, Lock())
        try:
            with lock:
                return cached(*args)
        finally:
            with guard:
                # The puzzle is in the cache now: a later request needs no lock to find it.
                if making.get(args) is lock:
                    del making[args]

    return made
