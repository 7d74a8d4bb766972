"""One player, two sessions: the first app of a data directory writes the saved games; a second
one opens them read-only, says so, and can take them over, the first one saving and being told.

Three levels: the store's session lock on its own (processes stand in for sessions where it
matters: a killed owner, a killed asker), two apps under the pilot in one process (the locks
are per open file, so they exclude each other as processes do), and two real app processes on
their own ptys, read through a terminal emulator.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyte
import pytest
from ui_support import PUZZLE, cell, goto, ready

from tui_games.ui import app as app_module
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.widgets.session_notice import SessionNotice
from tui_games.userdata import session_lock
from tui_games.userdata.session_lock import LOCK_NAME, REQUEST_NAME, SessionLock
from tui_games.userdata.store import Store

SIZE = (80, 24)
ROOT = Path(__file__).resolve().parents[2]
posix_only = pytest.mark.skipif(os.name != "posix", reason="flock, ptys and signals are POSIX")


def saved_history(home: Path, game: str = "connect4") -> list | None:
    state = Store(home).peek_game(game)
    return None if state is None else state["history"]


def child_env(home: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color", "TUI_GAMES_HOME": str(home),
            "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}


# -- the store ---------------------------------------------------------------------------------


def test_the_second_session_is_read_only_and_cannot_overwrite_the_first(home):
    first, second = Store(home), Store(home)
    assert first.open_session() and not first.read_only
    assert first.save_game("connect4", {"options": {}, "first": 0, "history": [3]})
    assert not second.open_session() and second.read_only
    assert second.session_holder().pid == os.getpid()
    # It reads the saved game, and every way of changing it is refused.
    assert second.load_game("connect4")["history"] == [3]
    assert second.save_game("connect4", {"options": {}, "first": 0, "history": [4]}) is False
    second.clear_game("connect4")
    assert saved_history(home) == [3]
    # What is merged under the store's lock stays open to both: nobody loses a result.
    second.record_result("connect4", "perfect", "loss")
    first.record_result("connect4", "perfect", "win")
    assert Store(home).scores()["connect4"]["perfect"] == {"win": 1, "loss": 1, "draw": 0}
    second.update_settings("ui", show_tree=True)
    first.update_settings("ui", coordinates=False)
    assert Store(home).load_settings()["ui"]["show_tree"] is True
    # The first one goes: the second may take over, and writes from then on.
    first.close_session()
    assert first.read_only
    assert second.take_over() and not second.read_only
    assert second.save_game("connect4", {"options": {}, "first": 0, "history": [4]})
    assert saved_history(home) == [4]
    assert first.save_game("connect4", {"options": {}, "first": 0, "history": [5]}) is False
    second.close_session()


def test_a_read_only_session_leaves_a_damaged_save_where_it_is(home):
    owner, reader = Store(home), Store(home)
    owner.open_session()
    reader.open_session()
    (home / "saves").mkdir()
    (home / "saves" / "sudoku.json").write_text("{oops")
    assert reader.load_game("sudoku") is None
    assert (home / "saves" / "sudoku.json").exists() and reader.take_warnings() == []
    assert owner.load_game("sudoku") is None
    assert not (home / "saves" / "sudoku.json").exists()  # the owner sets it aside, and says so
    assert "was corrupt" in owner.take_warnings()[0]
    owner.close_session()


def test_take_over_asks_the_holder_and_one_asker_at_a_time(home):
    owner, asker, third = Store(home), Store(home), Store(home)
    owner.open_session()
    asker.open_session()
    third.open_session()
    assert not owner.takeover_requested()
    assert asker.request_takeover()
    assert owner.takeover_requested()
    assert not third.request_takeover()  # somebody is asking already
    assert not asker.take_over()  # the holder has not let go yet
    owner.hand_over()
    assert owner.read_only and owner.handed_over
    assert asker.take_over() and not asker.read_only
    assert not (home / REQUEST_NAME).exists()
    assert not asker.takeover_requested() and not owner.takeover_requested()
    # Given up: an asker that gets no answer withdraws, and the holder is not asked any more.
    assert owner.request_takeover()
    owner.withdraw_takeover()
    assert not asker.takeover_requested()
    for store in (owner, asker, third):
        store.close_session()


def test_a_left_over_request_is_ignored_and_removed(home):
    owner = Store(home)
    owner.open_session()
    (home / REQUEST_NAME).write_text("12345\n")  # nobody holds it: its asker is gone
    assert not owner.takeover_requested()
    assert not (home / REQUEST_NAME).exists()
    owner.close_session()


def test_without_a_usable_lock_the_session_saves_as_before_and_says_why(home):
    (home / LOCK_NAME).mkdir()  # cannot be opened as a file
    store = Store(home)
    assert store.open_session() and not store.read_only
    assert store.save_game("sudoku", {"values": "1"})
    assert "could not open session.lock" in store.take_warnings()[0]


@posix_only
def test_a_symlinked_lock_file_is_not_followed(home, tmp_path_factory):
    victim = tmp_path_factory.mktemp("elsewhere") / "precious"
    victim.write_text("keep me\n")
    (home / LOCK_NAME).symlink_to(victim)
    (home / REQUEST_NAME).symlink_to(victim)
    store = Store(home)
    assert store.open_session() and not store.read_only  # no lock: it says so and saves as before
    assert "could not open session.lock" in store.take_warnings()[0]
    assert not store.takeover_requested()
    other = SessionLock(home)
    assert not other.request_takeover()
    assert victim.read_text() == "keep me\n"


def test_a_garbled_lock_file_names_nobody(home):
    (home / LOCK_NAME).write_bytes(b"\xff" * 10000)
    assert SessionLock(home).holder() == session_lock.Holder()
    (home / LOCK_NAME).write_text('{"pid": true, "host": 7, "since": ["x"]}')
    assert SessionLock(home).holder() == session_lock.Holder()


HOLD = ("import sys, time; from tui_games.userdata.store import Store; s = Store(sys.argv[1]); "
        "print('held' if s.open_session() else 'refused', flush=True); time.sleep(120)")
ASK = ("import sys, time; from tui_games.userdata.store import Store; s = Store(sys.argv[1]); s.open_session(); "
       "print('asking' if s.request_takeover() else 'refused', flush=True); time.sleep(120)")


def start_child(code: str, home: Path) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, "-c", code, str(home)], stdout=subprocess.PIPE, text=True,
                             env=child_env(home))
    return child


@posix_only
def test_a_killed_owner_leaves_no_stale_lock(home):
    owner = start_child(HOLD, home)
    try:
        assert owner.stdout.readline().strip() == "held"
        store = Store(home)
        assert not store.open_session()
        assert store.session_holder().pid == owner.pid
        owner.send_signal(signal.SIGKILL)
        owner.wait(10)
        assert store.take_over()  # the kernel let the lock go with the process
        assert store.save_game("connect4", {"history": []})
        store.close_session()
    finally:
        owner.kill()
        owner.wait()


@posix_only
def test_a_killed_asker_leaves_no_request_anyone_obeys(home):
    owner = Store(home)
    owner.open_session()
    asker = start_child(ASK, home)
    try:
        assert asker.stdout.readline().strip() == "asking"
        assert owner.takeover_requested()
        asker.send_signal(signal.SIGKILL)
        asker.wait(10)
        assert (home / REQUEST_NAME).exists()
        assert not owner.takeover_requested() and not owner.read_only
    finally:
        asker.kill()
        asker.wait()
        owner.close_session()


# -- two apps under the pilot ----------------------------------------------------------------


def notice(app: TuiGamesApp) -> str | None:
    widget = app.screen.query_one(SessionNotice)
    return str(widget.render()) if widget.display else None


async def wait_until(pilot, condition, timeout: float = 60.0) -> None:
    # The timeout only bounds a broken run: at a load of 40 the condition can take seconds.
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        await pilot.pause(0.05)
    assert condition()


async def test_two_apps_the_second_read_only_then_taking_over(home):
    first = TuiGamesApp("connect4", {"opponent": "human"})
    async with first.run_test(size=SIZE) as p1:
        await p1.press("4", "5")
        assert saved_history(home) == [3, 4]
        assert notice(first) is None
        second = TuiGamesApp("connect4", {"opponent": "human"})
        async with second.run_test(size=SIZE) as p2:
            await p2.pause()
            assert second.store.read_only and not first.store.read_only
            assert f"pid {os.getpid()}" in notice(second) and "T takes over" in notice(second)
            assert second.screen.position.history == [3, 4]  # it shows the saved game
            assert any("read-only" in n.message for n in second._notifications)
            # Its moves and its hang-up save are refused: the first one's game stays.
            await p2.press("1", "2")
            assert second.screen.position.history == [3, 4, 0, 1]
            second.hang_up()
            await p2.pause()
        assert saved_history(home) == [3, 4]
        assert not first.store.read_only  # the second left: nothing changed for the first

        # A second one again, and this time it takes over.
        second = TuiGamesApp("connect4", {"opponent": "human"})
        async with second.run_test(size=SIZE) as p2:
            await p2.pause()
            await p2.press("7")  # not saved: shown as read-only
            await p1.press("6")  # the first one's move: saved
            assert saved_history(home) == [3, 4, 5]
            await p2.press("T")
            await wait_until(p2, lambda: not second.store.read_only)
            await p1.pause()
            # The first saved at once, was told, and is read-only now.
            assert first.store.read_only and first.store.handed_over
            assert "took over your saved games" in notice(first)
            assert any(n.message == "Another session took over your saved games; this one is now read-only"
                       for n in first._notifications)
            # The second shows the game as the first left it, and saves from now on.
            assert notice(second) is None
            assert second.screen.position.history == [3, 4, 5]
            await p2.press("1")
            assert saved_history(home) == [3, 4, 5, 0]
            await p1.press("2")  # the first one's moves no longer reach the disk
            assert saved_history(home) == [3, 4, 5, 0]
            # And back: the first takes them again (T), the second is told.
            await p1.press("T")
            await wait_until(p1, lambda: not first.store.read_only)
            await p2.pause()
            assert second.store.read_only and first.screen.position.history == [3, 4, 5, 0]
            assert "took over your saved games" in notice(second)


async def test_take_over_brings_sudoku_as_the_other_session_saved_it(home):
    def make():
        return TuiGamesApp("sudoku", {"source": "paste", "text": PUZZLE})

    first = make()
    async with first.run_test(size=SIZE) as p1:
        await ready(p1, first.screen)
        await goto(p1, first.screen.board, cell(1, 1))
        await p1.press("4")
        second = TuiGamesApp("sudoku")  # resumes what is saved
        async with second.run_test(size=SIZE) as p2:
            await ready(p2, second.screen)
            assert second.screen.game.grid.values[cell(1, 1)] == 4
            await goto(p2, second.screen.board, cell(1, 2))
            await p2.press("8")  # only on this screen
            await goto(p1, first.screen.board, cell(1, 4))
            await p1.press("5")  # finding 9: this digit was lost when the other tab saved
            await p2.press("T")
            await wait_until(p2, lambda: not second.store.read_only)
            values = second.screen.game.grid.values
            assert values[cell(1, 1)] == 4 and values[cell(1, 4)] == 5 and values[cell(1, 2)] == 0
            saved = Store(home).load_game("sudoku")["values"]
            assert saved[cell(1, 1)] == "4" and saved[cell(1, 4)] == "5"


async def test_a_holder_that_does_not_answer_leaves_the_asker_read_only(home, monkeypatch):
    monkeypatch.setattr(app_module, "TAKEOVER_WAIT", 0.5)
    holder = Store(home)
    holder.open_session()  # a session that never looks for requests (stuck)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "T takes over" in notice(app)
        await pilot.press("T")
        # Wait for the refusal itself: before T is handled the timer is None too.
        await wait_until(pilot, lambda: any("did not hand over" in n.message for n in app._notifications),
                         timeout=60)
        assert app.store.read_only and app._takeover_timer is None
        assert not (home / REQUEST_NAME).exists()  # withdrawn: the holder will not act on it later
        holder.close_session()
        await pilot.press("T")  # the other one has gone: taken at once
        await pilot.pause()
        assert not app.store.read_only and notice(app) is None


@posix_only
async def test_the_notice_says_when_the_other_session_has_ended(home, monkeypatch):
    monkeypatch.setattr(app_module, "HOLDER_POLL", 0.1)
    monkeypatch.setattr(app_module, "HOLDER_POLL_LATER", 0.1)
    monkeypatch.setattr(app_module, "AUTO_TAKE_SECONDS", 0.0)  # long open: the player decides
    owner = start_child(HOLD, home)
    try:
        assert owner.stdout.readline().strip() == "held"
        app = TuiGamesApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert notice(app) == (f"READ-ONLY: another session (pid {owner.pid}) has your saved games · "
                                   f"T takes over")
            owner.send_signal(signal.SIGKILL)
            owner.wait(10)
            await wait_until(pilot, lambda: "ended" in notice(app))
            assert notice(app) == "READ-ONLY: your other session has ended · T takes over your saved games"
            await pilot.press("T")
            await pilot.pause()
            assert not app.store.read_only and notice(app) is None
    finally:
        owner.kill()
        owner.wait()


@posix_only
async def test_a_session_started_as_the_old_one_was_leaving_takes_the_games_by_itself(home, monkeypatch):
    # A browser tab reloaded, or an SSH login again after a drop: the old app still saves and
    # exits while the new one starts.
    monkeypatch.setattr(app_module, "HOLDER_POLL", 0.1)
    owner = start_child(HOLD, home)
    try:
        assert owner.stdout.readline().strip() == "held"
        Store(home).save_game("connect4", {"options": {"opponent": "human", "first": "human", "full_board": False,
                                                       "heuristic": "default"}, "first": 0, "history": [3]})
        app = TuiGamesApp("connect4", {"opponent": "human"})
        said: list[str] = []
        notify = app.notify

        def spy(message, *args, **kwargs):  # notifications expire: a busy machine may outlast one
            said.append(str(message))
            return notify(message, *args, **kwargs)

        app.notify = spy  # type: ignore[method-assign]
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.store.read_only and app.screen.position.history == [3]
            await pilot.press("5")  # read-only: not saved
            owner.send_signal(signal.SIGKILL)
            owner.wait(10)
            await wait_until(pilot, lambda: not app.store.read_only)
            assert notice(app) is None and app.screen.position.history == [3]  # as saved
            assert any("has ended: this one saves them now" in message for message in said), said
            await pilot.press("1")
            await wait_until(pilot, lambda: saved_history(home) == [3, 0])
    finally:
        owner.kill()
        owner.wait()


async def test_the_take_over_key_is_offered_only_to_a_read_only_session(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.check_action("take_over", ()) is False
        await pilot.press("T")
        assert not app.store.read_only and notice(app) is None


# -- two real app processes --------------------------------------------------------------------


class Terminal:
    """A pty app and what its screen shows (pyte)."""

    def __init__(self, home: Path, *args: str) -> None:
        from tui_games.server.sessions import PtyApp

        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.Stream(self.screen)
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.app = PtyApp([sys.executable, "-m", "tui_games", *args], child_env(home), *SIZE, self._output)

    def _output(self, data: bytes) -> None:
        self.stream.feed(self.decoder.decode(data))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert text in self.text(), f"{text!r} is not on the screen:\n{self.text()}"

    async def keys(self, *keys: bytes) -> None:
        # What a key did is checked by waiting for it on the screen (or in the saved game).
        for key in keys:
            self.app.write(key)


async def wait_for_save(home: Path, history: list, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while saved_history(home) != history and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert saved_history(home) == history


@posix_only
async def test_two_real_app_processes_take_over_and_a_killed_owner_frees_the_games(tmp_path):
    args = ("play", "connect4", "--opponent", "human")
    first, second = Terminal(tmp_path, *args), Terminal(tmp_path, *args)
    await first.app.start()
    try:
        await first.wait_for("to move")
        await first.keys(b"4")
        await wait_for_save(tmp_path, [3])
        await second.app.start()
        await second.wait_for("READ-ONLY: another session")
        assert f"(pid {first.app.process.pid})" in second.text()
        await second.keys(b"5")
        # The move is on its screen once played, and a save would have come before that.
        await second.wait_for("● to move")
        assert saved_history(tmp_path) == [3]  # the read-only one's move is not saved
        await second.keys(b"T")
        await first.wait_for("READ-ONLY: another session took over your saved games")
        await first.wait_for("Another session took over your saved")
        await second.wait_for("You took over your saved games")
        await second.keys(b"1")
        await wait_for_save(tmp_path, [3, 0])
        await first.keys(b"7")
        await first.wait_for("● to move")
        assert saved_history(tmp_path) == [3, 0]
        # The owner dies without a word: the first takes the games back at once, no stale lock.
        os.killpg(second.app.pgid, signal.SIGKILL)
        await asyncio.wait_for(second.app.wait(), 10)
        await first.keys(b"T")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and SessionLock(tmp_path).holder().pid != first.app.process.pid:
            await asyncio.sleep(0.05)
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == first.app.process.pid
        deadline = time.monotonic() + 15  # bounds a broken run only
        while "READ-ONLY" in first.text() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert "READ-ONLY" not in first.text()
        await first.keys(b"2")
        await wait_for_save(tmp_path, [3, 0, 1])
        # Its hang-up saves as before, and lets the lock go.
        await first.app.hang_up(grace=10.0)
        assert first.app.returncode == 0
        store = Store(tmp_path)
        assert store.open_session()
        store.close_session()
    finally:
        for terminal in (first, second):
            await terminal.app.hang_up(grace=0.1)



# -- over SSH: two logins of one player ----------------------------------------------------------


@posix_only
@pytest.mark.e2e
async def test_two_ssh_logins_of_one_player_the_second_read_only_then_taking_over(start_server):
    pytest.importorskip("asyncssh", reason='the SSH tests need asyncssh: pip install ".[test]"')
    from ssh_support import APP_START, connect, two_player_connect4

    server = await start_server()
    home = two_player_connect4(server.config.root, "alice")
    first = await connect(server.port, "alice")
    second = None
    try:
        await first.wait_for("Connect-4", timeout=APP_START)
        first.keys("2")
        await first.wait_for("● to move")
        first.keys("4")
        await wait_for_save(home, [3])
        second = await connect(server.port, "alice")
        await second.wait_for("READ-ONLY: another session (pid", timeout=APP_START)
        mark = second.mark()
        second.keys("2")  # the same game, resumed read-only
        await second.wait_for("○ to move", since=mark)
        mark = second.mark()
        second.keys("5")
        await second.wait_for("● to move", since=mark)  # played on its screen: a save came before
        assert saved_history(home) == [3]
        mark = first.mark()
        second.keys("T")
        await first.wait_for("READ-ONLY: another session took over your saved games", since=mark)
        await second.wait_for("You took over your saved games")
        second.keys("1")
        await wait_for_save(home, [3, 0])
        mark = first.mark()
        first.keys("7")
        await first.wait_for("● to move", since=mark)
        assert saved_history(home) == [3, 0]
    finally:
        for player in (first, second):
            if player is not None:
                await player.close()
