"""An app built up to its menu before the fork (tui_games.ui.runtime.standby), as the server's zygote
prepares it: children forked from it onto terminals of their own each get their own player's
menu (saved games, the ASCII setting, the session lock in their own folder), answer keys, and
never see each other's; what the preparation leaves in the preparing process; and which
players it is not made for."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pty
import re
import select
import signal
import sys
import tempfile
import time

import pytest
from rich.console import Console
from textual.driver import Driver
from textual.widgets import OptionList
from ui_support import process_state

from tui_games.online.client import LOBBY_ENV, LOBBY_TOKEN_ENV
from tui_games.ui import app as app_module
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.runtime import standby as standby_module
from tui_games.ui.screens.menu import MenuScreen
from tui_games.userdata.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"),
                                reason="forks onto ptys (Linux)")

ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=$ ]*[A-Za-z~@]|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\|[()][0-9A-B]|[=>78])")
WAIT = 30.0  # bounds a broken run only


@pytest.fixture
def prepared(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    standby = standby_module.prepare(online=False)
    assert standby is not None
    yield standby
    standby.discard()


def player_env(home, user: str, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", os.defpath), "HOME": str(home), "TUI_GAMES_HOME": str(home),
            "TUI_GAMES_USER": user, "TERM": "xterm-256color", "PYTHONUTF8": "1", **extra}


class Child:
    """A child forked from the prepared app onto a pty of its own, as the zygote forks one."""

    def __init__(self, standby, env: dict[str, str], prelude=None) -> None:
        self.screen = bytearray()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the player's app, never returning
            status = 1
            try:
                os.environ.clear()
                os.environ.update(env)
                os.chdir(env["HOME"])
                if prelude is not None:
                    prelude()
                status = standby.run()
            finally:
                os._exit(status)

    def text(self) -> str:
        return ESCAPES.sub(b"", bytes(self.screen)).decode("utf-8", "replace")

    def wait_for(self, wanted: str, since: int = 0) -> None:
        deadline = time.monotonic() + WAIT
        while wanted not in ESCAPES.sub(b"", bytes(self.screen[since:])).decode("utf-8", "replace"):
            assert time.monotonic() < deadline, f"{wanted!r} never came: {self.text()[-600:]!r}"
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self.screen.extend(os.read(self.fd, 65536))
                except OSError:  # the app is gone
                    raise AssertionError(f"{wanted!r} never came; the app ended: {self.text()[-600:]!r}") from None

    def drain(self) -> None:
        """Read what the app wrote meanwhile (a tenth of a second at most)."""
        if select.select([self.fd], [], [], 0.1)[0]:
            with contextlib.suppress(OSError):
                self.screen.extend(os.read(self.fd, 65536))

    def keys(self, data: bytes) -> int:
        mark = len(self.screen)
        os.write(self.fd, data)
        return mark

    def end(self) -> int:
        """Quit (Ctrl+Q) and wait for the exit status."""
        os.write(self.fd, b"\x11")
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                with contextlib.suppress(OSError):  # what it wrote last, up to the end (EIO)
                    while data := os.read(self.fd, 65536):
                        self.screen.extend(data)
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError):  # the app is gone: its status is next
                if select.select([self.fd], [], [], 0.1)[0]:
                    self.screen.extend(os.read(self.fd, 65536))
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError("the app did not quit")


def test_children_take_the_prepared_menu_each_with_their_own_player(prepared, tmp_path, monkeypatch):
    # The session's timer ticks many times before they quit: it runs in the app's context
    # (taken over outside it, each tick failed, and the app ended with a traceback).
    monkeypatch.setattr(app_module, "TAKEOVER_POLL", 0.01)
    # alice has a Connect-4 game in progress; bob none, and draws in ASCII.
    alice_home, bob_home = tmp_path / "alice", tmp_path / "bob"
    alice_home.mkdir()
    bob_home.mkdir()
    Store(root=alice_home, user="alice").save_game("connect4", {"history": [3, 3]})
    (bob_home / "settings.json").write_text(json.dumps({"ui": {"ascii": True}}))

    alice = Child(prepared, player_env(alice_home, "alice"))
    bob = Child(prepared, player_env(bob_home, "bob"))
    try:
        alice.wait_for("resume your game in progress")
        bob.wait_for("classic or full board")
        alice.wait_for("╭")  # the menu's box, drawn as prepared
        bob.wait_for("Settings")
        assert "resume your game" not in bob.text()
        assert alice.text().count("games with engines you can watch think") == 1  # one frame
        # bob's whole menu is in ASCII: nothing drawn before he took it over is left.
        assert not [char for char in bob.text() if ord(char) > 127], bob.text()
        # Each holds the session lock of its own folder, nobody's in the prepared one's.
        for child, home in ((alice, alice_home), (bob, bob_home)):
            held = [os.readlink(f"/proc/{child.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{child.pid}/fd")]
            assert any(path.startswith(str(home)) for path in held), held
            assert not [path for path in held if "standby" in path]

        # Both answer keys (their input threads wake their own loops): each opens a game.
        mark = bob.keys(b"4")  # Sudoku
        mark_alice = alice.keys(b"1")  # Tic-tac-toe
        bob.wait_for("Sudoku", since=mark)
        alice.wait_for("Tic-tac-toe", since=mark_alice)
    finally:
        statuses = [child.end() for child in (alice, bob)]
    assert statuses == [0, 0]
    for child in (alice, bob):
        assert "Traceback" not in child.text() and "Error" not in child.text(), child.text()[-1500:]
    # The prepared app is as it was for the next child: nobody's store, no session.
    assert prepared.app.store.user == "standby" and prepared.app.standby
    assert not prepared.task.done()


def test_nothing_is_drawn_between_the_take_over_and_the_terminals_size(prepared, tmp_path):
    # The session's start asks for a repaint; Textual's update timer painted it before the
    # driver's size arrived, and the held driver threw the frame away (13 ms of CPU a login)
    # before the whole frame was drawn again. Here the size comes late, so such a frame shows.
    home = tmp_path / "carol"
    home.mkdir()
    dropped = home / "dropped"

    def prelude() -> None:
        real_held = standby_module.held

        def held(driver_class, app):
            class Late(real_held(driver_class, app)):
                def start_application_mode(self) -> None:
                    # The size event comes with the start: a turn of the loop later than the
                    # update timer's interval (a busy machine's order of events).
                    asyncio.get_running_loop().call_later(0.3, super().start_application_mode)

                def write(self, data: str) -> None:
                    if app.first_frame_pending and "watch think" in data:  # the menu's frame
                        with dropped.open("a") as out:
                            out.write(f"{len(data)}\n")
                    super().write(data)
            return Late

        standby_module.held = held

    carol = Child(prepared, player_env(home, "carol"), prelude=prelude)
    try:
        carol.wait_for("Settings")
    finally:
        assert carol.end() == 0
    assert carol.text().count("games with engines you can watch think") == 1
    assert not dropped.exists(), f"frames drawn before the size: {dropped.read_text().split()} bytes"


@pytest.mark.parametrize("online", [False, True], ids=["offline", "online"])
def test_the_prepared_menu_shows_every_line_at_80x24(online, tmp_path, monkeypatch):
    # Online, the Puzzle and Games lines made fifteen for a list of fourteen: Quit was behind a
    # scroll bar, and the bar, drawn after the prepared frame, cost each login a layout.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    standby = standby_module.prepare(online=online)
    assert standby is not None
    try:
        menu = standby.app.screen.query_one(OptionList)
        assert menu.virtual_size.height <= menu.scrollable_content_region.height, menu.virtual_size
        assert not menu.show_vertical_scrollbar
    finally:
        standby.discard()


def test_the_preparation_leaves_nothing_but_the_app(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = process_state()

    standby = standby_module.prepare(online=True)
    try:
        assert standby is not None
        assert isinstance(standby.app.screen, MenuScreen) and isinstance(standby.app, TuiGamesApp)
        # The menu has the lobby's entry (the placeholder lobby never connects: no player's).
        assert standby.app.screen.query_one(OptionList).get_option("lobby") is not None
        assert list(tmp_path.iterdir()) == []  # its folder is gone, and with it any session lock
        assert process_state() == before  # nor a thread of it, which a fork would not copy
    finally:
        if standby is not None:
            standby.discard()


def test_a_terminal_or_session_it_was_not_made_for_gets_a_fresh_app(tmp_path):
    standby = standby_module.prepare(online=True)
    try:
        assert standby is not None
        lobby = {LOBBY_ENV: "/run/lobby.sock", LOBBY_TOKEN_ENV: "secret"}
        assert standby.fits(player_env(tmp_path, "ann", **lobby))
        # Other colours than those it drew in, or no lobby where it has the lobby's entry.
        assert not standby.fits(player_env(tmp_path, "ann", COLORTERM="truecolor", **lobby))
        assert not standby.fits(player_env(tmp_path, "ann", NO_COLOR="1", **lobby))
        assert not standby.fits({**player_env(tmp_path, "ann", **lobby), "TERM": "vt100"})
        # tmux's and screen's 256-colour terminals draw as xterm's does: the prepared menu fits.
        for term in ("tmux-256color", "screen-256color", "XTERM-256COLOR"):
            assert standby.fits({**player_env(tmp_path, "ann", **lobby), "TERM": term})
        assert not standby.fits({**player_env(tmp_path, "ann", **lobby), "TERM": "screen"})
        assert not standby.fits(player_env(tmp_path, "ann", TEXTUAL="debug", **lobby))
        assert not standby.fits(player_env(tmp_path, "ann"))
    finally:
        if standby is not None:
            standby.discard()


def test_a_child_that_starts_read_only_takes_the_saved_games_when_their_holder_ends(prepared, tmp_path,
                                                                                     monkeypatch):
    # Another session of alice's holds her saved games as her app takes the menu over: it
    # starts read-only, watches the holder on a timer, and takes them when the holder ends.
    monkeypatch.setattr(app_module, "HOLDER_POLL", 0.01)
    home = tmp_path / "alice"
    home.mkdir()
    # The holder is a process of its own (a lock's descriptor in this one would be inherited).
    ready, done = os.pipe(), os.pipe()
    holder = os.fork()
    if holder == 0:
        status = 1
        try:
            status = 0 if Store(root=home, user="alice").open_session() else 1
            os.write(ready[1], b"x")
            os.read(done[0], 1)
        finally:
            os._exit(status)
    assert os.read(ready[0], 1) == b"x"
    alice = Child(prepared, player_env(home, "alice"))
    try:
        alice.wait_for("read-only")
        mark = len(alice.screen)
        os.write(done[1], b"x")  # the holder ends
        assert os.waitstatus_to_exitcode(os.waitpid(holder, 0)[1]) == 0
        # Her app holds them now (it writes its pid into the lock as it takes it).
        deadline = time.monotonic() + WAIT
        while Store(root=home, user="alice").session_holder().pid != alice.pid:
            assert time.monotonic() < deadline, alice.text()[mark:][-1500:]
            alice.drain()
    finally:
        status = alice.end()
        for fd in (*ready, *done):
            os.close(fd)
    assert status == 0 and "Traceback" not in alice.text(), alice.text()[-1500:]


@pytest.mark.parametrize("term", ["xterm-256color", "tmux-256color", "screen-256color", "xterm-kitty", "rxvt-16color",
                                  "xterm", "screen", "vt100", "linux", "dumb", "unknown", "", "xterm-direct"])
def test_a_terms_depth_is_what_rich_draws_it_in(term):
    # The prepared menu is shared by the TERMs of one depth: Rich must give them one colour system.
    systems = {Console(force_terminal=True, _environ={"TERM": other}).color_system
               for other in ("xterm-256color", "xterm", "dumb", "rxvt-16color")
               if standby_module.term_depth(other) == standby_module.term_depth(term)}
    assert systems == {Console(force_terminal=True, _environ={"TERM": term}).color_system}


async def test_what_is_drawn_before_the_terminals_size_never_reaches_the_player():
    # On a busy machine the taken-over app's loop may paint (at the size prepared) before the
    # driver's size arrives; those bytes would land on the wrong rows of a larger terminal.
    class Recording(Driver):
        def __init__(self, app, **kwargs) -> None:
            super().__init__(app, **kwargs)
            self.written: list[str] = []

        def write(self, data: str) -> None:
            self.written.append(data)

        def start_application_mode(self) -> None:
            self.write("enter")

        def stop_application_mode(self) -> None:
            self.write("leave")

        def disable_input(self) -> None:
            pass

    app = TuiGamesApp(standby=True)
    driver = standby_module.held(Recording, app)(app)
    driver.start_application_mode()
    app.first_frame_pending = True  # as take_player leaves it
    driver.write("a frame at 80x24")
    app.first_frame_pending = False  # the size came: the next frame is whole
    driver.write("the first frame")
    app.first_frame_pending = True
    driver.stop_application_mode()  # an app that ends before its first frame still leaves
    assert driver.written == ["enter", "the first frame", "leave"]
