"""Checkers positions the engine tests share: random games and king endings."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from tui_games.engine.checkers.egdb import LOSS, WIN
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import WIN_BOUND, SearchLimits

KING_POSITIONS = [
    "B:WK5,K14,K23,26:BK10,K19,K27,3",  # kings in the middle: many capture paths
    "W:WK18:B10,11,14,15,19,22,23,26,27",  # a king with a long multi-jump tour
    "B:WK28:BK19,K22",
    "W:W21,22,23,24,25:BK9,K10,K11,12",
]


def random_positions(count: int, seed: int, *, max_plies: int = 120) -> list[CheckersPosition]:
    """Positions from random games: openings, middlegames, and king endgames late on."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = CheckersPosition()
        for _ in range(rng.randrange(0, max_plies)):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            out.append(pos)
    return out


def tally_proven(value: int, score: int, fen: str, proven: Counter[int]) -> None:
    """A search that proves a win or a loss must find what the table says; a search that
    proves nothing says nothing about the table."""
    if score >= WIN_BOUND:
        assert value == WIN, fen
        proven[WIN] += 1
    elif score <= -WIN_BOUND:
        assert value == LOSS, fen
        proven[LOSS] += 1


def load_script(name: str) -> ModuleType:
    """``scripts/NAME.py`` (the training and import tools, which are not in the package) as a module."""
    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def search_summary(engine, pos: CheckersPosition, depth: int, seed: int) -> tuple:
    """Everything a fixed-depth search reports that the two cores must agree on."""
    result = engine.search(pos, SearchLimits(depth=depth), rng=random.Random(seed))
    stats = result.stats
    return (str(result.move), result.score, [str(m) for m in result.pv], stats.nodes, stats.leaves, stats.cutoffs,
            stats.tt_hits, stats.seldepth, [(str(rm.move), rm.score, rm.bound) for rm in result.root_moves])
