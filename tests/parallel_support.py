"""Heavy checks of many independent items (every line of a collection, every puzzle of a
sample), spread over the machine's cores: the same checks, in a fraction of the wall time
on a CI runner whose suite otherwise runs on one core.

The function and its items must pickle: a module-level function of a test module (or a
functools.partial of one), and values such as a Sudoku grid. The workers are spawned, not forked: a fork of
the test process could copy a lock another test's thread holds. A failed check raises in the
test as it would have in a loop (its message kept; pytest's rewriting of the assert is not).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_WORKERS = 4


def workers() -> int:
    """The processes to use: the cores this process may run on, at most MAX_WORKERS."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def parallel_map(func: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """``[func(x) for x in items]``, computed in ``workers()`` processes when there are several."""
    items = list(items)
    count = min(workers(), len(items))
    if count < 2:
        return [func(item) for item in items]
    with ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(func, items))
