"""``tui-games bench terminal``: what a player on a remote terminal pays and feels.

For every board, at 80×24 in truecolor on a pseudo-terminal: the bytes of the first draw,
the bytes per cursor keypress (median and max of 20), and the bytes sent in 3 s of idling
afterwards. Then, while the Connect-4 perfect player thinks on the empty board, the delay
from a cursor key to its repaint (median and 95th percentile of 40 keys, 100 ms apart).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable

from tui_games.bench.terminal_probe import measure_latency, measure_screen, screens

Write = Callable[[str], None]


def bench_terminal(write: Write, *, quick: bool = False) -> None:
    if sys.platform == "win32":
        raise ValueError("the terminal bench needs a POSIX pseudo-terminal")
    keys = 8 if quick else 20
    idle = 1.0 if quick else 3.0
    write(f"Bytes written to the terminal, 80x24, truecolor ({keys} cursor keys per board, then {idle:g} s idle)")
    write("")
    title = f"{'screen':<12} {'first draw':>11} {'per key (median)':>17} {'per key (max)':>14} {'idle bytes/s':>13}"
    write(title)
    write("-" * len(title))
    for name, args in screens().items():
        f = measure_screen(name, args, keys=keys, idle_seconds=idle)
        write(f"{name:<12} {f.first_draw:>11,} {f.key_median:>17,.0f} {f.key_max:>14,} "
              f"{f.idle_bytes / f.idle_seconds:>13,.0f}")
    write("")
    presses = 15 if quick else 40
    write(f"Key to repaint while the engine searches (Connect-4, perfect player without its book on the empty board, "
          f"{presses} keys)")
    write("")
    latency = measure_latency(keys=presses)
    samples = sorted(1000 * s for s in latency.samples)
    write(f"median {latency.median * 1000:.1f} ms   95th percentile {latency.p95 * 1000:.1f} ms   "
          f"max {samples[-1]:.1f} ms   mean {statistics.mean(samples):.1f} ms")
