"""Connect-4 against outside oracles: perft counts and Pascal Pons' published scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_games.engine.connect4.position import Connect4, Connect4Error
from tui_games.engine.connect4.solver import Solver

DATA = Path(__file__).parent / "data" / "connect4"
PERFT = [7, 49, 343, 2401, 16807, 117649]


def perft(pos: Connect4, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for col in pos.legal_moves():
        pos.push(col)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


@pytest.mark.parametrize("depth", range(1, 6))
def test_perft_from_the_empty_board(depth):
    assert perft(Connect4(), depth) == PERFT[depth - 1]


def test_readme_examples():
    solver = Solver()
    assert solver.solve(Connect4.parse("4455")).score == 18
    assert solver.solve(Connect4.parse("44455554221")).score == -15


def sample(name: str, count: int) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if line.strip())][:count]


@pytest.mark.parametrize("name, count", [("Test_L3_R1", 50), ("Test_L2_R1", 50), ("Test_L2_R2", 5), ("Test_L1_R1", 10)])
def test_solver_matches_published_scores(name, count):
    solver = Solver()
    for moves, score in sample(name, count):
        assert solver.solve(Connect4.parse(moves)).score == score, moves


def test_analyze_agrees_with_solve():
    solver = Solver()
    for moves, score in sample("Test_L2_R1", 10):
        pos = Connect4.parse(moves)
        columns = solver.analyze(pos)
        assert max(s for s in columns if s is not None) == score, moves


@pytest.mark.parametrize("moves, fragment", [
    ("12348", "column 8 is not 1-7"),
    ("1111111", "column 1 is full"),
    ("1212121" + "3", "the game was already over"),
    ("12a", "'a' is not a column digit"),
])
def test_bad_move_strings_name_the_move(moves, fragment):
    with pytest.raises(Connect4Error, match=fragment):
        Connect4.parse(moves)
