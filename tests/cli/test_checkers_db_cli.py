"""``tui-games checkers build-db`` and ``checkers probe``: tables written to the data
directory, a build that resumes where it stopped, probes of positions and their moves,
one-line errors; and the note a stats panel shows."""

from __future__ import annotations

import json

import pytest
from cli_support import assert_usage_error, run

from tui_games.commands.checkers_egdb import MAX_PIECES
from tui_games.data.checkers_db import DB_DIRNAME, MAX_BUILD_PIECES, database_note, open_db, stored_classes
from tui_games.engine.checkers.egdb import LOSS, WIN, class_order
from tui_games.engine.checkers.position import CheckersPosition


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path))
    return tmp_path


def test_build_db_writes_every_class_and_resumes(capsys, home):
    code, out, _ = run(capsys, "checkers", "build-db", "--pieces", "3")
    assert code == 0
    classes = stored_classes(3)
    assert len(class_order(3)) == 16 and len(classes) == 9  # seven classes are the others' twins
    assert f"{len(classes)} classes and their colour twins ({len(classes)} built, 0 already there)" in out
    directory = home / DB_DIRNAME
    files = sorted(p.name for p in directory.glob("*.wld"))
    assert len(files) == len(classes) and all(name.endswith(".wld") for name in files)
    first = {name: (directory / name).read_bytes() for name in files}

    # Interrupted builds leave a missing class, a cut file, a stale part: all redone.
    (directory / "0102.wld").unlink()
    cut = directory / "1010.wld"
    cut.write_bytes(cut.read_bytes()[:-1])
    (directory / "2010.wld.part").write_bytes(b"half")
    code, out, _ = run(capsys, "checkers", "build-db", "--pieces", "3")
    assert code == 0
    assert f"({2} built, {len(classes) - 2} already there)" in out
    assert {p.name: p.read_bytes() for p in directory.glob("*.wld*")} == first
    assert open_db(home=home).pieces == 3


def test_probe_reports_the_value_and_each_move(capsys, home):
    code, out, _ = run(capsys, "checkers", "probe", "B:WK3:BK10,K11")
    assert code == 0 and out.startswith("not in the database (3 pieces")
    assert "build-db --pieces 3" in out
    run(capsys, "checkers", "build-db", "--pieces", "3")
    code, out, _ = run(capsys, "checkers", "probe", "W:WK3:BK10,K11")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "database: loss for White (to move)"
    assert sorted(lines[1:]) == ["3-7 loss", "3-8 loss"]
    code, out, _ = run(capsys, "checkers", "probe", "B:W18:B14", "--json")
    record = json.loads(out)
    assert record["value"] == "win" and record["side"] == "black" and record["moves"] == {"14x23": "win"}


@pytest.mark.parametrize("argv, fragment", [
    (["checkers", "build-db", "--pieces", "7"], "from 2 to 6 pieces"),
    (["checkers", "build-db", "--pieces", "x"], "not a whole number"),
    (["checkers", "build-db"], "--pieces"),
    (["checkers", "probe", "B:W99:B1"], "99"),
    (["checkers", "probe", "B:W18:B14", "1-5"], "1-5"),
])
def test_usage_errors_are_one_line(capsys, home, argv, fragment):
    assert_usage_error(*run(capsys, *argv), fragment)


def test_database_note_for_the_stats_panel(capsys, home):
    run(capsys, "checkers", "build-db", "--pieces", "2")
    db = open_db(home=home)
    assert database_note(CheckersPosition("B:W18:B14"), db) == "database: win for Black"
    assert database_note(CheckersPosition(), db) is None
    assert db.probe(CheckersPosition("B:W18:B14")) == WIN


def test_the_command_line_bound_is_the_builders():
    assert MAX_PIECES == MAX_BUILD_PIECES


def test_a_second_build_in_the_same_directory_is_refused(capsys, home):
    from tui_games.userdata.session_lock import SessionLock

    lock = SessionLock(home / DB_DIRNAME)
    assert lock.acquire()
    try:
        assert_usage_error(*run(capsys, "checkers", "build-db", "--pieces", "2"), "another build is writing")
    finally:
        lock.release()
    assert run(capsys, "checkers", "build-db", "--pieces", "2")[0] == 0


# -- the search with the tables: play, the engine mode, the arena's players --------------------------

WON = "B:WK1:BK31,K30"  # two kings against one in the double corner: a win for Black


def test_play_uses_the_tables_in_the_data_directory(capsys, home):
    code, out, _ = run(capsys, "checkers", "play", WON, "--depth", "6", "--json")
    assert code == 0 and json.loads(out)["database"] is None  # none built yet
    run(capsys, "checkers", "build-db", "--pieces", "3")
    code, out, _ = run(capsys, "checkers", "play", WON, "--depth", "6", "--json")
    record = json.loads(out)
    assert code == 0 and record["database"] == "win"
    after = CheckersPosition(WON)
    after.push_text(record["move"])
    assert open_db(home=home).probe(after) == LOSS  # the move keeps the win
    code, out, _ = run(capsys, "checkers", "play", WON, "--depth", "6")
    assert "database: win for Black" in out.splitlines()
    code, out, _ = run(capsys, "checkers", "play", WON, "--depth", "6", "--json", "--no-database")
    assert json.loads(out)["database"] is None


def test_the_engine_mode_says_when_the_position_is_in_the_tables(capsys, home, monkeypatch):
    run(capsys, "checkers", "build-db", "--pieces", "3")
    code, out, _ = run(capsys, "checkers", "engine", stdin=f"new {WON}\ngo depth 4\nnew\ngo depth 2\nquit\n",
                       monkeypatch=monkeypatch)
    replies = out.splitlines()
    assert code == 0 and replies[1].startswith("bestmove") and replies[1].endswith("database win")
    assert replies[3].startswith("bestmove") and "database" not in replies[3]


def test_the_arena_and_house_players_get_the_tables(capsys, home):
    from tui_games.data.checkers_db import checkers_arena
    from tui_games.games import find_game

    assert find_game("checkers").arena == "tui_games.data.checkers_db:checkers_arena"
    run(capsys, "checkers", "build-db", "--pieces", "3")
    adapter = checkers_arena()
    assert adapter.database is not None and adapter.database.pieces == 3
    strong = adapter.make_player("strong", seed=1, seconds=0.5, variant={})
    decision = strong.choose(CheckersPosition(WON))
    assert decision.note.startswith("database: win for Black")  # what the stats panel shows
    # The levels stay what their depth makes them.
    assert adapter.make_player("level3", seed=1, seconds=None, variant={}).engine.database is None
