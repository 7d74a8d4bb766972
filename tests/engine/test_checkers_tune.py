"""tui_games/training/checkers_tune.py (scripts/checkers_tune.py runs it) selfplay: games that end where the endgame tables cover them."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from tui_games.engine.checkers.egdb import class_order
from tui_games.engine.checkers.egdb_build import Builder
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.position import CheckersPosition


@pytest.fixture(scope="module")
def db():
    builder = Builder()
    for cls in class_order(3):
        if cls not in builder.db:  # its colour twin answers for it
            builder.build(cls)
    return builder.db


@pytest.mark.parametrize(("fen", "black_result"), [
    ("B:WK10,K20:B1", 0.0),    # Black to move, two White kings against a man: lost for Black
    ("W:WK10,K20:B1", 0.0),    # the same with White to move: won for White
    ("W:W32:BK14,K23", 1.0),   # White to move, a man against two Black kings: won for Black
    ("B:W29:BK14", None),      # a king against a man on its back rank: whatever the table says
])
def test_a_game_ends_with_the_tables_result_where_they_cover_it(db, fen, black_result):
    script = importlib.import_module("tui_games.training.checkers_tune")
    engine = Engine(database=db, table_bits=12)
    start = CheckersPosition(fen)
    verdict = engine.verdict(start)
    assert verdict is not None
    expected = 0.5 + verdict / 2 if start.turn == 0 else 0.5 - verdict / 2
    result, kept = script.play(engine, engine, start, 2000, random.Random(1), end_in_database=True)
    assert (result, kept) == (expected, [])
    assert black_result is None or result == black_result


def test_without_the_flag_the_game_is_played_out(db):
    script = importlib.import_module("tui_games.training.checkers_tune")
    engine = Engine(database=db, table_bits=12)
    start = CheckersPosition("W:WK10,K20:B1")
    result, kept = script.play(engine, engine, start, 2000, random.Random(1), random_ply=start.ply)
    # Played on (a random first move, then searches): the quiet positions are kept, the result is the game's.
    assert kept and result in (0.0, 0.5, 1.0)


def test_selfplay_refuses_database_without_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path))
    script = importlib.import_module("tui_games.training.checkers_tune")
    with pytest.raises(SystemExit) as err:
        script.main(["selfplay", "--games", "1", "--database", "--out", str(tmp_path / "g.jsonl")])
    assert "no endgame tables" in str(err.value)
    assert not (tmp_path / "g.jsonl").exists()


def test_selfplay_with_the_network_writes_games(tmp_path):
    script = importlib.import_module("tui_games.training.checkers_tune")
    out = tmp_path / "g.jsonl"
    assert script.main(["selfplay", "--games", "1", "--nodes", "300", "--network", "--seed", "3", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["result"] in (0.0, 0.5, 1.0) and len(record["positions"][0]) == 5


def _transcript(seed: int, plies: int) -> tuple[str, list[CheckersPosition]]:
    """A random game in the transcripts' notation and the position before each of its moves."""
    rng = random.Random(seed)
    pos = CheckersPosition()
    texts, before = [], []
    while pos.outcome() is None and pos.ply < plies:
        move = rng.choice(pos.legal_moves())
        before.append(pos.copy())
        # The transcripts number the squares 0-31 from Black's left corner (checkers_import_games.py).
        texts.append("-".join(str(8 * ((s - 1) // 4) + 4 - s) for s in move.path))
        pos.push(move)
    return " ".join(texts) + "\t1/2-1/2", before


def test_selfplay_from_games_starts_in_their_middlegames(tmp_path):
    script = importlib.import_module("tui_games.training.checkers_tune")
    games = [_transcript(seed, 40) for seed in range(4)]
    src = tmp_path / "acf.txt"
    # A short game (too few plies for a start) and an unreadable line are passed over.
    src.write_text("\n".join([games[0][0], "10-13 21-17\t1-0", games[1][0], "nonsense\t1-0",
                              games[2][0], games[3][0]]) + "\n")
    out = tmp_path / "g.jsonl"
    assert script.main(["selfplay", "--games", "9", "--nodes", "200", "--seed", "5", "--from-games", str(src),
                        "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4  # the readable games long enough, each once, then the file is done
    lines = {1: games[0][1], 3: games[1][1], 5: games[2][1], 6: games[3][1]}
    starts = set()
    for record in records:
        name, _, ply_text = record["ballot"].partition(" ply ")
        line, ply = int(name.split(" line ")[1]), int(ply_text)
        assert 10 <= ply <= 24 and line in lines
        starts.add(line)
        start = lines[line][ply]
        first = record["positions"][0]
        # No random move: the first kept position is the game's start (or the first quiet one after it).
        assert first[:4] == [start.black, start.white, start.kings, start.turn] or start.legal_moves()[0].is_capture
        assert record["result"] in (0.0, 0.5, 1.0)
    assert starts == set(lines)


def test_selfplay_from_games_names_a_missing_file(tmp_path):
    script = importlib.import_module("tui_games.training.checkers_tune")
    with pytest.raises(SystemExit) as err:
        script.main(["selfplay", "--games", "1", "--from-games", str(tmp_path / "none.txt"),
                     "--out", str(tmp_path / "g.jsonl")])
    assert "--from-games" in str(err.value) and "none.txt" in str(err.value)
    assert not (tmp_path / "g.jsonl").exists()
