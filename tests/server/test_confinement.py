"""A served player's files stay in their own folder: every dialog that names a file, tried with
the paths an attacker would type (absolute, ``..``, a symlink out, a FIFO, a huge file, control
characters); and locally nothing changes."""

from __future__ import annotations

import os
import random

import pytest
from ui_support import SIZE, arena_run, text_of

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.checkers import CheckersScreen
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.ui.screens.sudoku import load_puzzle
from tui_games.ui.screens.sudoku_new import NewPuzzle
from tui_games.userdata import player_files

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n"


@pytest.fixture
def served(home, monkeypatch):
    """A served player's data directory where the server keeps it, beside the server's secrets."""
    server = home / "server"
    player = server / "users" / "bob"
    player.mkdir(parents=True)
    (server / "authorized_keys").write_text("ssh-ed25519 AAAA the-keys\n")
    (server / "ssh_host_ed25519_key").write_text(SECRET)
    monkeypatch.setenv("TUI_GAMES_HOME", str(player))
    monkeypatch.setenv(player_files.SERVED_ENV, "1")
    return player


def hostile(home) -> list[str]:
    """Names that must be refused; the symlink and the FIFO are made in the player's folder."""
    folder = player_files.player_folder()
    os.symlink(home.parents[1] / "ssh_host_ed25519_key", folder / "link.pdn")
    os.mkfifo(folder / "fifo.pdn")
    return ["/tmp/x.pdn", str(home.parents[1] / "authorized_keys"), "../../server/authorized_keys",
            "../settings.json", "sub/dir.pdn", ".hidden", "..", "x\x1b[2J.pdn", "a" * 200, "~/x.pdn",
            "link.pdn", "fifo.pdn"]


def untouched(home) -> None:
    server = home.parents[1]
    assert (server / "authorized_keys").read_text() == "ssh-ed25519 AAAA the-keys\n"
    assert (server / "ssh_host_ed25519_key").read_text() == SECRET
    assert sorted(p.name for p in server.iterdir()) == ["authorized_keys", "ssh_host_ed25519_key", "users"]
    assert sorted(p.name for p in (server / "users").iterdir()) == ["bob"]
    assert not os.path.exists("/tmp/x.pdn")


# -- the one place that decides ---------------------------------------------------------------------

def test_served_names_outside_the_folder_are_refused(served):
    for name in hostile(served):
        with pytest.raises(player_files.FileRefused) as refused:
            player_files.read_text(name)
        message = str(refused.value)
        assert "\n" not in message and "\x1b" not in message and "secret" not in message
        with pytest.raises(player_files.FileRefused):
            player_files.write_text(name, "[Event]\n", overwrite=True)
    untouched(served)
    # The symlink and the FIFO are still what they were: nothing replaced or followed.
    folder = player_files.player_folder()
    assert os.path.islink(folder / "link.pdn")


def test_a_refusal_says_where_files_go(served):
    assert "plain file name" in player_files.refusal("../x")
    assert player_files.refusal("game.pdn") is None
    assert "your own folder" in player_files.where()


def test_served_files_are_written_and_read_in_the_folder_private(served):
    shown = player_files.write_text("game.pdn", "1. 11-15 *\n")
    target = served / player_files.FILES_DIR / "game.pdn"
    assert shown == "'game.pdn'" and target.read_text() == "1. 11-15 *\n"
    assert target.stat().st_mode & 0o777 == 0o600
    assert player_files.read_text(" game.pdn ") == "1. 11-15 *\n"
    with pytest.raises(player_files.FileExists):
        player_files.write_text("game.pdn", "other")
    player_files.write_text("game.pdn", "other", overwrite=True)
    assert target.read_text() == "other"
    assert player_files.exists("game.pdn") and not player_files.exists("../game.pdn")


def test_big_and_binary_files_are_refused(served):
    folder = player_files.player_folder()
    (folder / "big.txt").write_bytes(b"1" * (player_files.MAX_READ_BYTES + 1))
    (folder / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(player_files.FileRefused, match="too big"):
        player_files.read_text("big.txt")
    with pytest.raises(player_files.FileRefused, match="not UTF-8"):
        player_files.read_text("bin.txt")


def test_locally_any_path_works_as_before(home, tmp_path, monkeypatch):
    monkeypatch.delenv(player_files.SERVED_ENV, raising=False)
    target = tmp_path / "elsewhere" / "game.pdn"
    target.parent.mkdir()
    player_files.write_text(str(target), "x")
    assert player_files.read_text(str(target)) == "x"
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(player_files.FileRefused, match="not a plain file"):
        player_files.read_text(str(tmp_path / "fifo"))  # refused at once, never blocking on the FIFO


# -- every dialog --------------------------------------------------------------------------------

async def type_into(pilot, app, text: str) -> None:
    assert isinstance(app.screen, InputDialog)
    app.screen.query_one("Input").value = text
    await pilot.press("enter")
    await pilot.pause()


async def test_checkers_save_and_load_refuse_hostile_paths(served):
    app = TuiGamesApp("checkers", {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "1", "minus", "1", "5", "enter")
        for name in hostile(served):
            for key in ("w", "r"):
                await pilot.press(key)
                dialog = app.screen
                assert "your own folder" in " ".join(text_of(dialog.query_one("#input-prompt")).split())
                await type_into(pilot, app, name)
                assert app.screen is dialog, f"{key} accepted {name!r}"
                problem = text_of(dialog.query_one("#input-error"))
                assert problem and "secret" not in problem and "BEGIN" not in problem
                await pilot.press("escape")
        untouched(served)

        # A plain name is written in the folder; the same name again asks before replacing.
        await pilot.press("w")
        await type_into(pilot, app, "mine.pdn")
        saved = served / player_files.FILES_DIR / "mine.pdn"
        first = saved.read_text()
        assert "11-15" in first
        await pilot.press("2", "3", "minus", "1", "9", "enter", "w")
        await type_into(pilot, app, "mine.pdn")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert saved.read_text() == first
        await pilot.press("w")
        await type_into(pilot, app, "mine.pdn")
        await pilot.press("y")
        await pilot.pause()
        assert "23-19" in saved.read_text()

        await pilot.press("n", "r")
        await type_into(pilot, app, "mine.pdn")
        assert isinstance(app.screen, CheckersScreen)
        assert [str(m) for m in app.screen.position.history] == ["11-15", "23-19"]


async def test_lab_export_refuses_hostile_paths(served):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "tictactoe", "random", "random", 2)
        for name in ("/tmp/x.pdn", "../../server/authorized_keys", "a/b.csv"):
            await pilot.press("e")
            await type_into(pilot, app, name)
            assert isinstance(app.screen, InputDialog)
            assert "plain file name" in text_of(app.screen.query_one("#input-error"))
            await pilot.press("escape")
        await pilot.press("e")
        await type_into(pilot, app, "runs.csv")
        assert app.screen is lab
        assert (served / player_files.FILES_DIR / "runs.csv").read_text().count("\n") == 3  # header and two games
        untouched(served)


def test_sudoku_from_a_file_refuses_hostile_paths(served):
    names = hostile(served)
    for name in names:
        with pytest.raises(ValueError) as refused:
            load_puzzle(NewPuzzle(source="file", text=name), random.Random(1))
        assert "secret" not in str(refused.value) and "BEGIN" not in str(refused.value)
    (player_files.player_folder() / "mine.txt").write_text(PUZZLE + "\n")
    puzzle, solution, grade, label = load_puzzle(NewPuzzle(source="file", text="mine.txt"), random.Random(1))
    assert label == "mine.txt #1" and len(solution) == 81


async def test_sudoku_dialog_refuses_a_path_at_once(served):
    app = TuiGamesApp("sudoku", {"source": "paste", "text": PUZZLE})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("n")
        dialog = app.screen
        dialog.query_one("#source").value = "file"
        await pilot.pause()
        dialog.query_one("#new-text").value = "../../server/authorized_keys"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert "plain file name" in text_of(dialog.query_one("#new-error"))
