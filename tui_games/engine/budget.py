"""Search budgets: CPU seconds of the searching thread, under a wall-clock ceiling.

A budget in wall seconds makes every engine weaker when the machine is busy: a server with
many games, or a test suite beside two other jobs, gives the search fewer cycles in the
same seconds, and a "perfect" player runs out of time and guesses. The CPU time of the
thread that searches counts only the work done, so a search under a CPU budget reaches the
same depth on a busy machine as on an idle one, only later. The wall-clock ceiling
(:data:`WALL_FACTOR` times the CPU budget unless given) keeps a starved search from
leaving its player waiting for ever.

``time.thread_time`` counts the calling thread only: a Budget is made, and read, in the
thread that searches. The clocks are read through the ``time`` module at every call, so a
test can stand in a fake clock for either.
"""

from __future__ import annotations

import time

# The wall-clock ceiling, as a multiple of the CPU budget: a search thread on a machine at a
# load of four per core still gets its whole CPU budget.
WALL_FACTOR = 4.0


class Budget:
    """``cpu`` seconds of this thread's CPU time, and at most ``wall`` seconds of wall time
    (default ``WALL_FACTOR * cpu``), both counted from the Budget's making."""

    __slots__ = ("cpu", "wall", "cpu_start", "wall_start")

    def __init__(self, cpu: float, wall: float | None = None) -> None:
        self.cpu = max(0.0, float(cpu))
        self.wall = self.cpu * WALL_FACTOR if wall is None else max(0.0, float(wall))
        self.cpu_start = time.thread_time()
        self.wall_start = time.monotonic()

    def cpu_spent(self) -> float:
        return time.thread_time() - self.cpu_start

    def wall_spent(self) -> float:
        return time.monotonic() - self.wall_start

    def passed(self) -> bool:
        """The CPU budget is spent, or the wall-clock ceiling is reached."""
        return self.cpu_spent() >= self.cpu or self.wall_spent() >= self.wall

    def share(self, fraction: float) -> Budget:
        """``fraction`` of this budget (CPU and ceiling), counted from the same start."""
        part = Budget(self.cpu * fraction, self.wall * fraction)
        part.cpu_start, part.wall_start = self.cpu_start, self.wall_start
        return part

    def cpu_left(self) -> float:
        """CPU seconds left, and no more than the wall seconds left before the ceiling."""
        return max(0.0, min(self.cpu - self.cpu_spent(), self.wall - self.wall_spent()))
