"""tui_games.userdata.store: defaults, merging, corrupt files, atomic and locked writes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tui_games.userdata import files as files_module
from tui_games.userdata import store as store_module
from tui_games.userdata.setting_rules import SettingError
from tui_games.userdata.store import Store, data_dir, default_settings

CORRUPT_NAME = re.compile(r"^(?P<base>[\w.]+)\.corrupt-\d{8}-\d{6}(-\d+)?$")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "home"
    monkeypatch.setenv("TUI_GAMES_HOME", str(root))
    return root


@pytest.fixture
def store(home) -> Store:
    return Store()


def corrupt_copies(root: Path, name: str) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.name.startswith(name + ".corrupt-"))


def leftovers(root: Path) -> list[Path]:
    """Temporary files an interrupted or failed write would leave behind."""
    return [p for p in root.rglob("*") if p.name.endswith(".tmp")]


# -- the data directory ---------------------------------------------------------------------------


def test_data_dir_follows_env_and_is_created(home):
    assert not home.exists()
    assert data_dir() == home
    assert home.is_dir()


def test_data_dir_defaults_to_platformdirs(monkeypatch, tmp_path):
    monkeypatch.delenv("TUI_GAMES_HOME", raising=False)
    monkeypatch.setattr(store_module.platformdirs, "user_data_dir", lambda name: str(tmp_path / name))
    assert data_dir() == tmp_path / "tui-games"


def test_store_uses_env_home_and_writes_lazily(home):
    s = Store()
    assert s.root == home
    s.load_settings()
    s.scores()
    assert not home.exists(), "reading must not create files"
    s.record_result("tictactoe", "perfect", "draw")
    assert (home / "scores.json").is_file()


# -- settings -------------------------------------------------------------------------------------


def test_defaults_when_no_file(store):
    settings = store.load_settings()
    assert settings == default_settings()
    settings["tictactoe"]["rows"] = 7  # a copy: the defaults are untouched
    assert default_settings()["tictactoe"]["rows"] == 3
    assert store.take_warnings() == []


def test_settings_round_trip(store, home):
    settings = store.load_settings()
    settings["tictactoe"].update(rows=5, cols=6, k=4, misere=True, seconds=2.5)
    settings["ui"]["theme"] = "nord"
    store.save_settings(settings)
    assert json.loads((home / "settings.json").read_text())["tictactoe"]["cols"] == 6
    assert Store().load_settings() == settings
    assert store.take_warnings() == []


def test_update_settings_changes_only_the_given_keys(store):
    store.update_settings("tictactoe", rows=4, misere=True)
    store.update_settings("ui", show_tree=True)
    store.update_settings("tictactoe", seconds=3)  # an int is a fine float
    settings = Store().load_settings()
    assert settings["tictactoe"]["rows"] == 4 and settings["tictactoe"]["misere"] is True
    assert settings["tictactoe"]["seconds"] == 3.0 and isinstance(settings["tictactoe"]["seconds"], float)
    assert settings["ui"]["show_tree"] is True
    assert settings["engine"] == default_settings()["engine"]


def test_update_settings_refuses_programming_errors(store):
    with pytest.raises(ValueError, match="section"):
        store.update_settings("nope", rows=3)
    with pytest.raises(ValueError, match="tictactoe.colour"):
        store.update_settings("tictactoe", colour="red")
    with pytest.raises(SettingError, match="tictactoe.rows is '4', but it must be a whole number from 3 to 7"):
        store.update_settings("tictactoe", rows="4")
    with pytest.raises(SettingError, match="misere is 1, but it must be true or false"):
        store.update_settings("tictactoe", misere=1)


def test_merge_keeps_known_keys_of_the_right_type(store, home):
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({
        "tictactoe": {"rows": 4, "cols": "wide", "misere": 1, "seconds": 5, "k": True, "future": 1},
        "engine": "fast",
        "ui": {"theme": "nord", "show_stats": False},
        "chess": {"elo": 3000},
    }))
    settings = store.load_settings()
    ttt = settings["tictactoe"]
    assert ttt["rows"] == 4
    assert ttt["seconds"] == 5.0
    assert ttt["cols"] == 3 and ttt["misere"] is False and ttt["k"] == 3  # wrong types: defaults
    assert "future" not in ttt and "chess" not in settings  # unknown keys dropped
    assert settings["engine"] == default_settings()["engine"]
    assert settings["ui"] == {**default_settings()["ui"], "theme": "nord", "show_stats": False}
    assert set(settings) == set(default_settings())

    warnings = store.take_warnings()
    assert len(warnings) == 4, warnings
    assert any("tictactoe.cols" in w and "'wide'" in w for w in warnings)
    assert any("tictactoe.misere" in w for w in warnings)
    assert any("tictactoe.k" in w for w in warnings)  # a bool is not a number here
    assert any(w.startswith("settings.json: engine") for w in warnings)
    assert all("\n" not in w for w in warnings)
    # A wrong value is not a corrupt file: nothing is moved aside.
    assert corrupt_copies(home, "settings.json") == []
    # Each problem is reported once per session, however often the file is read.
    store.load_settings()
    assert store.take_warnings() == []


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2, 3]", b"\xff\xfe garbage", b"", b'"text"', b"null"])
def test_corrupt_settings_are_moved_aside_and_reported_once(store, home, content):
    home.mkdir()
    (home / "settings.json").write_bytes(content)
    assert store.load_settings() == default_settings()

    copies = corrupt_copies(home, "settings.json")
    assert len(copies) == 1
    assert CORRUPT_NAME.match(copies[0].name)
    assert copies[0].read_bytes() == content, "the damaged file is kept as it was"
    assert not (home / "settings.json").exists()

    warnings = store.take_warnings()
    assert warnings == [f"settings.json was corrupt; kept it as {copies[0].name} and started from defaults"]
    assert store.load_settings() == default_settings()
    assert store.take_warnings() == []
    assert store.warnings == []


def test_corrupt_names_get_a_counter_when_taken(store, home, monkeypatch):
    monkeypatch.setattr(files_module.time, "strftime", lambda fmt: "20261122-153000")
    home.mkdir()
    (home / "settings.json.corrupt-20261122-153000").write_text("older")
    (home / "settings.json").write_text("{bad")
    store.load_settings()
    assert (home / "settings.json.corrupt-20261122-153000").read_text() == "older"
    assert (home / "settings.json.corrupt-20261122-153000-1").read_text() == "{bad"
    (home / "settings.json").write_text("{worse")
    store.load_settings()
    assert (home / "settings.json.corrupt-20261122-153000-2").read_text() == "{worse"
    assert store.take_warnings() == [
        "settings.json was corrupt; kept it as settings.json.corrupt-20261122-153000-1 and started from defaults",
        "settings.json was corrupt; kept it as settings.json.corrupt-20261122-153000-2 and started from defaults",
    ]


def test_saving_after_corruption_writes_a_good_file(store, home):
    home.mkdir()
    (home / "settings.json").write_text("{")
    store.update_settings("ui", coordinates=False)
    assert Store().load_settings()["ui"]["coordinates"] is False
    assert len(corrupt_copies(home, "settings.json")) == 1


# -- scores ---------------------------------------------------------------------------------------


def test_scores_start_empty_and_count(store):
    assert store.scores() == {}
    store.record_result("tictactoe", "perfect", "draw")
    store.record_result("tictactoe", "perfect", "draw")
    store.record_result("tictactoe", "level 3", "win")
    assert store.record_result("connect4", "perfect", "loss") == {"win": 0, "loss": 1, "draw": 0}
    assert Store().scores() == {
        "tictactoe": {"perfect": {"win": 0, "loss": 0, "draw": 2}, "level 3": {"win": 1, "loss": 0, "draw": 0}},
        "connect4": {"perfect": {"win": 0, "loss": 1, "draw": 0}},
    }
    with pytest.raises(ValueError):
        store.record_result("tictactoe", "perfect", "won")


def test_reset_scores(store):
    store.record_result("tictactoe", "perfect", "draw")
    store.record_result("connect4", "perfect", "loss")
    store.reset_scores("tictactoe")
    assert set(store.scores()) == {"connect4"}
    store.reset_scores("sudoku")  # nothing to forget: fine
    store.reset_scores()
    assert store.scores() == {}


@pytest.mark.parametrize("content", [
    "{",
    "[]",
    '{"tictactoe": []}',
    '{"tictactoe": {"perfect": 3}}',
    '{"tictactoe": {"perfect": {"win": "3"}}}',
    '{"tictactoe": {"perfect": {"win": -1}}}',
    '{"tictactoe": {"perfect": {"win": true}}}',
    '{"tictactoe": {"perfect": {"wins": 1}}}',
])
def test_corrupt_scores_are_moved_aside_and_reported_once(store, home, content):
    home.mkdir()
    (home / "scores.json").write_text(content)
    assert store.scores() == {}
    copies = corrupt_copies(home, "scores.json")
    assert len(copies) == 1 and CORRUPT_NAME.match(copies[0].name)
    assert copies[0].read_text() == content
    assert store.take_warnings() == [f"scores.json was corrupt; kept it as {copies[0].name} and started with no scores"]
    store.record_result("tictactoe", "perfect", "win")
    assert store.scores() == {"tictactoe": {"perfect": {"win": 1, "loss": 0, "draw": 0}}}
    assert store.take_warnings() == []


def test_record_result_over_a_corrupt_file_sets_it_aside_first(store, home):
    home.mkdir()
    (home / "scores.json").write_text("garbage")
    store.record_result("tictactoe", "random", "win")
    assert store.scores() == {"tictactoe": {"random": {"win": 1, "loss": 0, "draw": 0}}}
    assert len(corrupt_copies(home, "scores.json")) == 1
    assert len(store.take_warnings()) == 1


def test_records_keep_the_best_time_and_count_solves(store):
    assert store.records() == {}
    assert store.record_time("sudoku", "basic", 300.0) == ({"best": 300.0, "solved": 1, "assisted": 0}, True)
    assert store.record_time("sudoku", "basic", 412.5) == ({"best": 300.0, "solved": 2, "assisted": 0}, False)
    assert store.record_time("sudoku", "basic", 250.0) == ({"best": 250.0, "solved": 3, "assisted": 0}, True)
    store.record_time("sudoku", "extreme", 1800.0)
    assert store.records() == {"sudoku": {"basic": {"best": 250.0, "solved": 3, "assisted": 0},
                                          "extreme": {"best": 1800.0, "solved": 1, "assisted": 0}}}
    with pytest.raises(ValueError):
        store.record_time("sudoku", "basic", -1)
    store.reset_records()
    assert store.records() == {}


def test_a_solve_with_hints_is_counted_as_assisted_and_never_a_best_time(store):
    assert store.record_time("sudoku", "fiendish", 59.0, assisted=True) == (
        {"best": None, "solved": 0, "assisted": 1}, False)
    assert store.record_time("sudoku", "fiendish", 900.0) == ({"best": 900.0, "solved": 1, "assisted": 1}, True)
    assert store.record_time("sudoku", "fiendish", 30.0, assisted=True) == (
        {"best": 900.0, "solved": 1, "assisted": 2}, False)
    assert store.records() == {"sudoku": {"fiendish": {"best": 900.0, "solved": 1, "assisted": 2}}}


@pytest.mark.parametrize("content", [
    "[]",
    '{"sudoku": 3}',
    '{"sudoku": {"basic": {"solved": 1}}}',
    '{"sudoku": {"basic": {"best": "fast", "solved": 1}}}',
    '{"sudoku": {"basic": {"best": 10, "solved": -1}}}',
])
def test_corrupt_records_are_moved_aside_and_reported_once(store, home, content):
    home.mkdir()
    (home / "records.json").write_text(content)
    assert store.records() == {}
    copies = corrupt_copies(home, "records.json")
    assert len(copies) == 1 and copies[0].read_text() == content
    assert store.take_warnings() == [f"records.json was corrupt; kept it as {copies[0].name} and started with no records"]
    store.record_time("sudoku", "basic", 10)
    assert store.records() == {"sudoku": {"basic": {"best": 10.0, "solved": 1, "assisted": 0}}}


def test_missing_counts_are_zero(store, home):
    home.mkdir()
    (home / "scores.json").write_text('{"tictactoe": {"perfect": {"draw": 4}}}')
    assert store.scores() == {"tictactoe": {"perfect": {"win": 0, "loss": 0, "draw": 4}}}
    assert store.take_warnings() == []


def test_two_sessions_both_keep_their_results(home):
    first, second = Store(), Store()
    first.scores(), second.scores()  # both have looked at the table before either writes
    first.record_result("tictactoe", "perfect", "draw")
    second.record_result("tictactoe", "perfect", "loss")
    first.record_result("tictactoe", "random", "win")
    second.update_settings("ui", show_stats=False)
    first.update_settings("tictactoe", rows=5)
    assert Store().scores() == {"tictactoe": {"perfect": {"win": 0, "loss": 1, "draw": 1},
                                              "random": {"win": 1, "loss": 0, "draw": 0}}}
    settings = Store().load_settings()
    assert settings["ui"]["show_stats"] is False and settings["tictactoe"]["rows"] == 5


def test_threads_recording_at_once_lose_nothing(home):
    threads, per_thread = 8, 40
    shared = Store()
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def play(i: int) -> None:
        # Half the threads share one Store, half have their own, like separate sessions.
        s = shared if i % 2 else Store()
        try:
            start.wait()
            for j in range(per_thread):
                s.record_result("tictactoe", f"opponent {i % 3}", ("win", "loss", "draw")[j % 3])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    workers = [threading.Thread(target=play, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    table = Store().scores()["tictactoe"]
    assert sum(sum(row.values()) for row in table.values()) == threads * per_thread
    assert leftovers(home) == []


def test_processes_recording_at_once_lose_nothing(home):
    processes, per_process = 4, 40
    script = textwrap.dedent(f"""
        import sys
        from tui_games.userdata.store import Store
        s = Store()
        for j in range({per_process}):
            s.record_result("tictactoe", "perfect", ("win", "loss", "draw")[j % 3])
            s.record_result("connect4", sys.argv[1], "draw")
        assert not s.warnings, s.warnings
    """)
    env = {**os.environ, "TUI_GAMES_HOME": str(home)}
    children = [subprocess.Popen([sys.executable, "-c", script, f"session {i}"], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                for i in range(processes)]
    for child in children:
        output, _ = child.communicate(timeout=120)
        assert child.returncode == 0, output
    table = Store().scores()
    assert sum(table["tictactoe"]["perfect"].values()) == processes * per_process
    assert table["connect4"] == {f"session {i}": {"win": 0, "loss": 0, "draw": per_process}
                                 for i in range(processes)}
    assert leftovers(home) == []


# -- saved games ----------------------------------------------------------------------------------


def test_saved_game_round_trip_and_clear(store, home):
    assert store.load_game("tictactoe") is None
    state = {"board": "X../.O./...", "k": 3, "misere": False, "history": ["a1", "b2"]}
    assert store.save_game("tictactoe", state)
    assert (home / "saves" / "tictactoe.json").is_file()
    assert Store().load_game("tictactoe") == state
    store.clear_game("tictactoe")
    store.clear_game("tictactoe")  # twice is fine
    assert store.load_game("tictactoe") is None
    assert store.take_warnings() == []


def test_saved_game_names_are_file_safe(store):
    for bad in ("../settings", "a/b", "", "Tic Tac"):
        with pytest.raises(ValueError):
            store.save_game(bad, {})
    with pytest.raises(TypeError):
        store.save_game("tictactoe", {"when": object()})
    assert store.load_game("tictactoe") is None


@pytest.mark.parametrize("content", ["{", "[]", '{"state": 3}', '{"game": "checkers", "state": {}}'])
def test_corrupt_saved_game_is_moved_aside(store, home, content):
    (home / "saves").mkdir(parents=True)
    (home / "saves" / "tictactoe.json").write_text(content)
    assert store.load_game("tictactoe") is None
    copies = corrupt_copies(home / "saves", "tictactoe.json")
    assert len(copies) == 1 and CORRUPT_NAME.match(copies[0].name)
    assert store.take_warnings() == [f"saves/tictactoe.json was corrupt; kept it as {copies[0].name} "
                                     f"and the game starts afresh"]


# -- writes ---------------------------------------------------------------------------------------


def test_writes_are_atomic_and_leave_no_temp_files(store, home):
    store.update_settings("tictactoe", rows=4)
    store.record_result("tictactoe", "perfect", "win")
    store.save_game("tictactoe", {"board": "X../.../..."})
    assert leftovers(home) == []
    assert sorted(p.name for p in home.iterdir()) == [".lock", "saves", "scores.json", "settings.json"]


def test_failed_write_keeps_the_old_file_and_removes_the_temp(store, home, monkeypatch):
    store.update_settings("tictactoe", rows=4)
    before = (home / "settings.json").read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.os, "replace", broken_replace)
    assert store.save_settings(default_settings()) is False
    store.record_result("tictactoe", "perfect", "win")
    monkeypatch.undo()

    assert (home / "settings.json").read_bytes() == before
    assert leftovers(home) == []
    warnings = store.take_warnings()
    assert len(warnings) == 2
    assert all("No space left on device" in w for w in warnings)
    assert any(w.startswith("could not save settings.json") for w in warnings)
    assert any(w.startswith("could not save scores.json") for w in warnings)


def test_unwritable_directory_warns_instead_of_crashing(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("TUI_GAMES_HOME", str(blocker / "tui-games"))
    s = Store()
    assert s.load_settings() == default_settings()
    s.update_settings("ui", show_tree=True)
    s.record_result("tictactoe", "perfect", "draw")
    s.reset_scores()
    assert s.save_game("tictactoe", {"board": "..."}) is False
    assert s.load_game("tictactoe") is None
    s.clear_game("tictactoe")
    assert s.scores() == {}
    warnings = s.take_warnings()
    assert warnings and all(w.startswith("could not save") for w in warnings)
    assert len(warnings) == len(set(warnings)) == 3  # settings, scores, the saved game: once each


def test_each_document_is_a_small_module_of_its_own():
    """Store is the sum of one class per document of the data directory, each in its own short
    module over the shared file handling, not one class holding them all."""
    import inspect

    from tui_games.userdata import arena_runs, files, game_archive, records, saved_games, scores, settings

    modules = (settings, scores, records, arena_runs, saved_games, game_archive)
    for module in (*modules, files):
        assert len(inspect.getsource(module).splitlines()) <= 250, module.__name__
    assert {base.__module__ for base in Store.__bases__} == {module.__name__ for module in modules}
    assert [name for name, value in vars(Store).items() if inspect.isfunction(value)] == ["__init__"]
