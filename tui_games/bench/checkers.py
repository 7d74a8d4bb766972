"""``tui-games bench checkers``: perft and engine speed tables.

1. Perft from the start, depths 1–9 (quick: 1–7): leaves, seconds, leaves per second. The
   move generator's speed, checked against the published counts.
2. The engine for one CPU second on each of eight middlegame positions (three-move ballots
   followed by some engine moves, fixed here as FENs, none with a forced move): depth
   reached, nodes, nodes per second, the move and its score; with the compiled core (when
   it was built), again with the network evaluation (``--evaluation network``: the default
   evaluation with the small network on top, whose nodes cost more and whose search is
   narrower), and with the pure-Python twin.
3. The same second with the generic search (``search.search``, negamax + TT + deepening on
   the position object): why checkers has its own hot loop (see docs/DESIGN.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from tui_games.bench.table import table
from tui_games.engine.checkers.core import COMPILED
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.perft import perft
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import TT, SearchLimits, search

Write = Callable[[str], None]

# perft from the start (README of data/checkers): checked on every row.
EXPECTED = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931, 9: 3963680,
            10: 18391564}

# Eight middlegames: a standard three-move ballot, then the engine (depth 7) playing both
# sides for 9-12 plies and on until the side to move has no capture and four moves or more.
MIDDLEGAMES = (
    "W:W19,23,25,26,27,29,30,31,32:B1,2,3,4,8,11,12,14,20",  # 133 (11-16 21-17 7-11) +10
    "B:W19,21,23,24,25,27,29,30,31,32:B1,2,3,4,8,10,12,13,16,20",  # 054 (9-14 24-19 11-16) +11
    "B:W13,19,21,22,24,27,28,29,30,31,32:B1,2,3,5,6,7,8,10,11,14,20",  # 164 (12-16 22-17 16-19) +9
    "B:W20,22,23,25,26,27,28,29,30,32:B1,3,4,8,9,10,11,12,14,15",  # 086 (10-15 21-17 7-10) +11
    "W:W13,18,19,21,23,24,25,26,27,30,31,32:B1,3,5,6,7,8,9,10,12,14,16,20",  # 059 (10-14 22-17 7-10) +12
    "W:W14,23,24,25,26,27,28,30,31,32:B1,3,4,5,7,8,10,12,13,15",  # 117 (11-15 22-17 9-13) +10
    "W:W18,19,21,22,24,25,29,30,31,32:B1,3,4,5,6,10,11,12,13,15",  # 075 (10-14 24-19 6-10) +12
    "W:W19,21,22,23,25,28,29,30,32:B1,2,3,4,8,9,10,12,14",  # 151 (11-16 23-18 10-14) +12
)
ENGINE_SECONDS = 1.0


def bench_perft(write: Write, depths: range) -> None:
    write("Perft from the start (every capture path its own move; bulk-counted last ply; CPU seconds)")
    write("")
    row = table(write, ["depth", "leaves", "seconds", "leaves/s", "check"], [5, 12, 8, 11, 6])
    start = CheckersPosition()
    for depth in depths:
        began = time.thread_time()
        n = perft(start, depth)
        seconds = time.thread_time() - began
        check = "ok" if EXPECTED.get(depth) == n else "WRONG"
        row([str(depth), f"{n:,}", f"{seconds:.3f}", f"{n / seconds:,.0f}" if seconds > 0 else "-", check])


def bench_engine(write: Write, seconds: float, positions: tuple[str, ...], *, compiled: bool,
                 evaluation: str = "default") -> None:
    write("")
    core = "compiled core (C)" if compiled else "pure-Python core"
    if evaluation != "default":
        core += f", {evaluation} evaluation"
    write(f"Engine, {core}: {seconds:g} CPU s on each middlegame (PVS + TT + killers/history + LMR/futility/ProbCut + capture extension)")
    write("")
    widths = [3, 6, 7, 10, 8, 9, 6, 12]
    row = table(write, ["pos", "depth", "seldep", "nodes", "seconds", "nodes/s", "score", "move"], widths,
                 left=(0, 7))
    total_nodes = 0
    total_seconds = 0.0
    depths = []
    for i, fen in enumerate(positions, 1):
        engine = Engine(evaluation=evaluation, compiled=compiled, wall_factor=100.0)  # CPU seconds, however loaded the machine
        result = engine.search(CheckersPosition(fen), SearchLimits(seconds=seconds), rng=random.Random(0))
        s = result.stats
        total_nodes += s.nodes
        total_seconds += s.seconds
        depths.append(s.depth)
        row([str(i), str(s.depth), str(s.seldepth), f"{s.nodes:,}", f"{s.seconds:.2f}", f"{s.nodes_per_second:,.0f}",
             f"{result.score:+d}", str(result.move)])
    write(f"mean depth {sum(depths) / len(depths):.1f}, {total_nodes / total_seconds:,.0f} nodes/s overall"
          if total_seconds > 0 else "")


def bench_generic(write: Write, seconds: float, positions: tuple[str, ...]) -> None:
    write("")
    write(f"Generic search (search.search, {TT}) for {seconds:g} s on the same positions")
    write("(speed only: it has no capture extension, so its depths do not compare)")
    write("")
    row = table(write, ["pos", "nodes", "nodes/s"], [3, 10, 9])
    total_nodes = 0
    total_seconds = 0.0
    for i, fen in enumerate(positions, 1):
        result = search(CheckersPosition(fen), SearchLimits(seconds=seconds), TT, rng=random.Random(0))
        s = result.stats
        total_nodes += s.nodes
        total_seconds += s.seconds
        row([str(i), f"{s.nodes:,}", f"{s.nodes_per_second:,.0f}"])
    if total_seconds > 0:
        write(f"{total_nodes / total_seconds:,.0f} nodes/s overall")


def bench_checkers(write: Write, *, quick: bool = False) -> None:
    """Perft 1–9 (quick: 1–7), the engine (the compiled core, again with the network
    evaluation, and the Python twin) and the generic search on the middlegames (quick: the first four)."""
    bench_perft(write, range(1, 8 if quick else 10))
    positions = MIDDLEGAMES[:4] if quick else MIDDLEGAMES
    if COMPILED:
        bench_engine(write, ENGINE_SECONDS, positions, compiled=True)
        bench_engine(write, ENGINE_SECONDS, positions, compiled=True, evaluation="network")
    else:
        write("")
        write("(the compiled core was not built: no C compiler at install)")
    bench_engine(write, ENGINE_SECONDS, positions, compiled=False)
    bench_generic(write, ENGINE_SECONDS, positions)
