"""tui_games/training/checkers_import_games.py (scripts/checkers_import_games.py runs it): outside game records into training positions."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from tui_games.engine.checkers.position import CheckersPosition, has_capture


def _their_square(standard: int) -> int:
    """The transcripts' 0-31 number of a standard square (the inverse of the script's map)."""
    row = (standard - 1) // 4
    return 4 * row + 4 * row + 4 - standard


def test_the_square_numbering_matches_the_transcripts_board():
    script = importlib.import_module("tui_games.training.checkers_import_games")
    # The transcripts' picture: 0 is A1 (Black's left corner, standard 4), 3 is G1 (standard 1),
    # 31 is H8 (standard 29); the first game's opening 10-13 21-17 is 10-15 23-19.
    assert [script.standard_square(t) for t in (0, 3, 4, 31, 10, 13, 21, 17)] == [4, 1, 8, 29, 10, 15, 23, 19]
    assert sorted(script.standard_square(t) for t in range(32)) == list(range(1, 33))
    assert all(script.standard_square(_their_square(s)) == s for s in range(1, 33))
    with pytest.raises(ValueError):
        script.standard_square(32)


def _random_game(seed: int) -> tuple[list[str], list[tuple[int, int, int, int]]]:
    rng = random.Random(seed)
    pos = CheckersPosition()
    texts, quiet = [], []
    while pos.outcome() is None and pos.ply < 120:
        if not has_capture(pos.black, pos.white, pos.kings, pos.turn):
            quiet.append((pos.black, pos.white, pos.kings, pos.turn))
        move = rng.choice(pos.legal_moves())
        texts.append("-".join(str(_their_square(s)) for s in move.path))
        pos.push(move)
    return texts, quiet


def test_games_replay_to_their_quiet_positions_and_bad_lines_are_skipped(tmp_path):
    script = importlib.import_module("tui_games.training.checkers_import_games")
    games = [_random_game(seed) for seed in range(6)]
    assert any("-" in t[t.index("-") + 1:] for moves, _ in games for t in moves)  # multi-leg jumps occur
    for moves, quiet in games:
        assert script.game_positions(moves) == quiet
    with pytest.raises(ValueError, match="not legal"):
        script.game_positions(["10-13", "10-13"])
    lines = [" ".join(games[0][0]) + "\t1-0", " ".join(games[1][0]) + "\t1/2-1/2",
             "10-13 21-17 21-17\t0-1", "10-13 21-17\tunfinished", ""]
    src = tmp_path / "games.txt"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "games.jsonl"
    assert script.main([str(src), "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["result"] for r in records] == [1.0, 0.5]
    assert [tuple(p) for p in records[1]["positions"]] == games[1][1]
