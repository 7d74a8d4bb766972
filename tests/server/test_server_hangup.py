"""A hang-up saves every game in progress and exits; the menu offers the saved games; a
player's app runs on its own pty, in its own session, under the memory cap.

The first tests call ``TuiGamesApp.hang_up`` (what the SIGHUP/SIGTERM handler calls) under
the pilot; the last ones run the real program on a pty and send it a real SIGHUP.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import pytest
from ui_support import PUZZLE, SIZE, cell, goto, ready

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.menu import MenuScreen
from tui_games.userdata.store import Store

posix_only = pytest.mark.skipif(os.name != "posix", reason="ptys and process groups are POSIX")


def menu_text(app: TuiGamesApp) -> str:
    from textual.widgets import OptionList

    options = app.screen.query_one(OptionList)
    return "\n".join(str(options.get_option_at_index(i).prompt) for i in range(4))


async def test_hang_up_saves_the_board_game_and_exits(home):
    app = TuiGamesApp("connect4", {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "5", "4")
        save = home / "saves" / "connect4.json"
        save.unlink()  # saved after every move already: make sure the hang-up writes it
        app.hang_up()
        await pilot.pause()
        assert json.loads(save.read_text())["state"]["history"] == [3, 4, 3]
    assert app.return_code == 0


async def test_hang_up_saves_sudoku_and_the_menu_offers_both_games(home):
    app = TuiGamesApp("sudoku", {"source": "paste", "text": PUZZLE})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await goto(pilot, screen.board, cell(1, 1))
        await pilot.press("4")
        (home / "saves" / "sudoku.json").unlink()
        app.hang_up()
        await pilot.pause()
    state = Store().load_game("sudoku")
    assert state is not None and state["values"][0] == "4" and state["puzzle"][0] in ".0"

    Store().save_game("connect4", {"options": {}, "first": 0, "history": [3]})
    Store().save_game("checkers", {"options": {}, "first": 0, "history": []})  # opened, no move: nothing to offer
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        lines = menu_text(app).splitlines()
        offered = [line.split()[0] for line in lines if "resume" in line]
        assert offered == ["Connect-4", "Sudoku"]
        # Back from a finished or abandoned game the labels follow.
        Store().clear_game("connect4")
        await pilot.press("4")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert "Connect-4    resume" not in menu_text(app)


async def test_the_menu_reads_a_damaged_save_without_moving_it(home):
    saves = home / "saves"
    saves.mkdir(parents=True)
    (saves / "connect4.json").write_text("{not json")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "resume" not in menu_text(app)
    assert (saves / "connect4.json").exists()  # opening the game sets it aside, not the menu


# -- the real program on a pty ---------------------------------------------------------------


async def _run_on_pty(argv, env, until: bytes, timeout: float = 30.0):
    from tui_games.server.sessions import PtyApp

    output = bytearray()
    app = PtyApp(argv, env, 80, 24, output.extend)
    await app.start()
    deadline = time.monotonic() + timeout
    while until not in output and app.returncode is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return app, output


@posix_only
async def test_sighup_saves_and_exits_within_the_grace(tmp_path):
    env = {"PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color", "TUI_GAMES_HOME": str(tmp_path),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    app, output = await _run_on_pty([sys.executable, "-m", "tui_games", "play", "connect4", "--opponent", "human"],
                                    env, "to move".encode())
    try:
        assert os.getsid(app.pgid) == app.pgid
        app.write(b"4")
        save = tmp_path / "saves" / "connect4.json"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (Store(tmp_path).peek_game("connect4") or {}).get("history") != [3]:
            await asyncio.sleep(0.05)
        save.unlink()
        await app.hang_up(grace=10.0)
        # Its own clean exit on SIGHUP, not the SIGKILL that ends the grace (-9).
        assert app.returncode == 0, "the app did not exit on SIGHUP by itself"
        assert json.loads(save.read_text())["state"]["history"] == [3]
    finally:
        await app.hang_up(grace=0.1)


@posix_only
async def test_pty_child_has_a_controlling_terminal_and_the_memory_cap():
    probe = ("import os, resource, sys; print('pgrp', os.tcgetpgrp(0) == os.getpgrp(), "
             "'size', os.get_terminal_size(0).columns, 'cap', resource.getrlimit(resource.RLIMIT_AS)[0]); "
             "sys.stdout.flush()")
    from tui_games.server.sessions import PtyApp

    output = bytearray()
    app = PtyApp([sys.executable, "-c", probe], {"PATH": os.environ.get("PATH", "")}, 80, 24, output.extend,
                 memory_bytes=512 * 1024 * 1024)
    await app.start()
    assert await asyncio.wait_for(app.wait(), 30) == 0
    assert f"pgrp True size 80 cap {512 * 1024 * 1024}".encode() in bytes(output)


@posix_only
def test_output_waiting_in_several_pieces_goes_on_in_one_write():
    # Issue 27: a pty gives at most about 4 KB a read, so a 5 KB frame reached the player as
    # two SSH packets (and a larger one as more), each encrypted and sent on its own.
    from tui_games.server.sessions import READ_CHUNK, PtyApp

    writes: list[bytes] = []
    app = PtyApp(["true"], {}, 80, 24, writes.append)
    master, slave = os.openpty()
    try:
        os.set_blocking(master, False)
        frame = bytes(range(32, 127)) * 100  # 9,500 bytes, as a big screen's first frame
        os.write(slave, frame)
        app._master = master
        app._read()
        assert writes == [frame]
        app._read()  # nothing waiting: nothing written
        assert writes == [frame]
        # A flood is passed on in bounded pieces: at most READ_CHUNK a call.
        os.set_blocking(slave, False)
        flooded = 0
        while flooded < 2 * READ_CHUNK:
            try:
                flooded += os.write(slave, b"x" * 4096)
            except BlockingIOError:
                break
        app._read()
        assert 0 < len(writes[-1]) <= READ_CHUNK
    finally:
        app._master = None
        os.close(slave)
        os.close(master)
