"""The session host both servers share (server/host.py) and the pre-started app it forks
logins from (server/zygote.py): seats per player and per address, places from measured
memory, a login through the zygote, isolation between two of its children, and a zygote
killed under the server's feet."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import signal
import sys
import tempfile
import time

import pytest

asyncssh = pytest.importorskip("asyncssh", reason='the SSH tests need asyncssh: pip install ".[test]"')

from ssh_support import APP_START, ESCAPES, connect, two_player_connect4, wait_until  # noqa: E402

from tui_games.online.client import LOBBY_TOKEN_ENV  # noqa: E402
from tui_games.server import host as host_module  # noqa: E402
from tui_games.server import zygote as zygote_module  # noqa: E402
from tui_games.server.host import SessionHost, SessionLimits, memory_of, places  # noqa: E402
from tui_games.server.limits import default_memory_total_mb  # noqa: E402

linux_only = pytest.mark.skipif(not os.path.exists("/proc/self/smaps_rollup"), reason="needs Linux's /proc")


class FakeSession:
    def __init__(self, user: str | None, peer: str, pid: int | None = None) -> None:
        self.user, self.peer, self.pid = user, peer, pid
        self.last_input = time.monotonic()
        self.ended: list[str] = []

    def end(self, reason: str):
        self.ended.append(reason)


def host_for(tmp_path, **options) -> SessionHost:
    lines: list[str] = []
    return SessionHost(SessionLimits(**options), lines.append, zygote=False)


# -- seats --------------------------------------------------------------------------------------

def test_one_player_cannot_take_every_seat(tmp_path):
    # Issue 22: bob held 16 of 17 places from one address and mallory was told "busy".
    host = host_for(tmp_path, max_sessions=17, memory_total_mb=None)
    taken = 0
    while host.refusal("bob", "198.51.100.7") is None and taken < 17:
        host.sessions.add(FakeSession("bob", "198.51.100.7"))
        taken += 1
    assert taken == 3
    assert host.refusal("bob", "198.51.100.7") == "bob already has 3 sessions open (at most 3 a player); close one first"
    # Other names from the same address: a quarter of 17, but never fewer than 4.
    host.sessions.add(FakeSession("bob2", "198.51.100.7"))
    reason = host.refusal("bob3", "198.51.100.7")
    assert reason == "your address already has 4 of the 17 places (at most 4, 25%); try again later"
    assert host.refusal("mallory", "203.0.113.9") is None


def test_the_seat_limits_are_flags(tmp_path):
    host = host_for(tmp_path, max_sessions=100, memory_total_mb=None, sessions_per_player=1, address_share=50)
    host.sessions.add(FakeSession("ann", "192.0.2.1"))
    assert "at most 1 a player" in host.refusal("ann", "192.0.2.9")
    for number in range(49):
        host.sessions.add(FakeSession(f"p{number}", "192.0.2.1"))
    assert "at most 50, 50%" in host.refusal("zed", "192.0.2.1")
    assert host.refusal("zed", "192.0.2.2") is None


def test_an_ipv6_address_counts_by_its_64(tmp_path):
    host = host_for(tmp_path, max_sessions=8, memory_total_mb=None)
    for number in range(4):
        host.sessions.add(FakeSession(f"v{number}", f"2001:db8:1:2::{number + 1}"))
    assert "your address already has 4 of the 8 places" in host.refusal("v9", "2001:db8:1:2:ffff::9")
    assert host.refusal("v9", "2001:db8:1:3::1") is None


def test_a_login_among_a_hundred_players_reads_no_address_of_theirs_again(tmp_path, monkeypatch):
    # Issue 27: each login parsed every open session's address (8 us each) to count its own
    # address's places: 0.8 ms of the server's CPU a login at 100 players.
    import ipaddress

    host = host_for(tmp_path, max_sessions=200, memory_total_mb=None, address_share=100)
    for number in range(100):
        host.sessions.add(FakeSession(f"p{number}", f"127.0.{1 + number // 250}.{1 + number % 250}"))
    assert host.refusal("newcomer", "127.0.9.9") is None
    parsed: list[str] = []
    real = ipaddress.ip_address
    monkeypatch.setattr(ipaddress, "ip_address", lambda text: parsed.append(text) or real(text))
    assert host.refusal("another", "127.0.9.10") is None
    assert len(parsed) <= 1, f"{len(parsed)} addresses parsed for one login"
    # Still counted by their sources, IPv6 by its /64.
    for number in range(3):
        host.sessions.add(FakeSession(f"v{number}", f"2001:db8:1:2::{number + 1}"))
    host.sessions.add(FakeSession("w", "::ffff:192.0.2.1"))
    assert sum(1 for session in host.sessions if host_module.source_of(session.peer) == "2001:db8:1:2::/64") == 3
    assert host_module.source_of("::ffff:192.0.2.1") == "192.0.2.1"


def test_a_sessions_environment_is_built_without_walking_the_package_path(tmp_path, monkeypatch):
    # Issue 27: every login resolved the package's path again (a syscall for each part of it).
    from pathlib import Path

    from tui_games.server.child import child_env

    walked: list[str] = []
    real = Path.resolve
    monkeypatch.setattr(Path, "resolve", lambda path, strict=False: walked.append(str(path)) or real(path, strict))
    env = child_env(tmp_path, "xterm-256color", {"TUI_GAMES_USER": "ann"})
    assert walked == []
    assert Path(env["PYTHONPATH"], "tui_games", "__main__.py").is_file() and env["HOME"] == str(tmp_path)


def test_the_web_has_no_names_so_only_the_address_counts(tmp_path):
    host = host_for(tmp_path, max_sessions=8, memory_total_mb=None)
    for _ in range(4):
        assert host.refusal(None, "192.0.2.1") is None
        host.sessions.add(FakeSession(None, "192.0.2.1"))
    assert "your address already has 4 of the 8 places" in host.refusal(None, "192.0.2.1")


# -- places and memory --------------------------------------------------------------------------

def test_max_sessions_is_honoured_on_a_machine_that_holds_them():
    # Issue 27: --max-sessions 100 on a 24 GB machine seated 17 (75% of RAM / a 1 GB cap each).
    assert places(100, 18078, 20000).most == 100
    total = default_memory_total_mb()
    if total and total >= 100 * host_module.SESSION_ESTIMATE_MB:
        assert places(100, total, None).most == 100


def test_what_lowers_the_places_is_said_with_the_flag_that_raises_it():
    lowered = places(100, 1000, None)
    assert lowered.most == 1000 // host_module.SESSION_ESTIMATE_MB
    assert "--max-sessions 100 lowered to 15" in lowered.why and "raise --memory-total-mb" in lowered.why
    by_files = places(100, None, 256)
    assert by_files.most == 32 and "open-file limit is 256" in by_files.why


@linux_only
def test_seats_follow_the_memory_the_apps_really_use(tmp_path, monkeypatch):
    pss, private = memory_of(os.getpid())
    assert 0 < private <= pss * 2 and pss > 1
    # Sessions of this test process's size: the total holds two of them, not a third, though
    # it would hold many sessions of the size expected before any is measured.
    monkeypatch.setattr(host_module, "SESSION_ESTIMATE_MB", 8)
    total = int(pss * 2.5)
    host = host_for(tmp_path, max_sessions=100, memory_total_mb=total)
    host.sessions.update(FakeSession(name, f"192.0.2.{n}", os.getpid()) for n, name in enumerate(("a", "b")))
    host.measure()
    used, expected = host.memory_in_use()
    assert used == pytest.approx(2 * pss, rel=0.2) and expected == pytest.approx(pss, rel=0.2)
    assert host.refusal("c", "192.0.2.9").startswith("the server is busy (its memory is in use: 2 players")


@linux_only
def test_the_apps_page_tables_are_walked_only_when_the_seats_depend_on_it(tmp_path, monkeypatch):
    # Issue 27: every 5 s the server read each app's PSS, a walk of its page tables (~0.5 ms an
    # app: 5% of a core at 100 players). Their resident sizes are counters, and bound the PSS.
    walked: list[int] = []
    monkeypatch.setattr(host_module, "memory_of", lambda pid: walked.append(pid) or memory_of(pid))
    pss = memory_of(os.getpid())[0]
    sessions = [FakeSession(name, f"192.0.2.{n}", os.getpid()) for n, name in enumerate(("a", "b"))]
    roomy = host_for(tmp_path, max_sessions=100, memory_total_mb=10**6)
    roomy.sessions.update(sessions)
    roomy.measure()
    assert walked == [] and roomy.refusal("c", "192.0.2.9") is None
    assert roomy.memory_in_use()[0] >= 2 * pss * 0.9  # the bounds: never less than the PSS
    # Forked apps share most of their pages: resident sizes far above their PSS. Near the
    # total the PSS decides, and a login the bounds would refuse is seated.
    monkeypatch.setattr(host_module, "resident_of", lambda pid: 10 * pss)
    monkeypatch.setattr(host_module, "SESSION_ESTIMATE_MB", 8)  # the places are not what is tested
    tight = host_for(tmp_path, max_sessions=100, memory_total_mb=int(pss * 3.5))
    tight.sessions.update(sessions)
    tight.measure()
    assert tight.refusal("c", "192.0.2.9") is None and len(walked) == 2
    tight.sessions.add(FakeSession("c", "192.0.2.9", os.getpid()))
    tight.measure()
    assert tight.refusal("d", "192.0.2.10").startswith("the server is busy (its memory is in use: 3 players")


async def test_the_listening_line_says_everything_and_the_places_asked_for(start_server):
    server = await start_server(max_sessions=100, zygote=False)
    files = host_module.open_file_limit()
    if (server.config.sessions.memory_total_mb or 0) >= 100 * host_module.SESSION_ESTIMATE_MB and (files or 10**6) >= 700:
        assert server.most_sessions == 100  # issue 27: it seated 17 on a 24 GB machine
    else:
        assert server.session_host.places.why in "\n".join(start_server.logs)
    (line,) = [line for line in start_server.logs if line.startswith("listening")]
    # Issue 27: the values were cut at 64 characters, losing the words that say registration is open.
    assert "any key may register a free name" in line
    assert f"data={server.config.root}" in line
    assert re.search(r"players=\"\d+ at a time\" per_player=3 per_address=25%", line), line


async def test_a_second_session_of_a_player_past_their_seats_is_told_why(start_server):
    server = await start_server(sessions_per_player=1, zygote=False)
    first = await connect(server.port, "bob")
    await first.wait_for("Sudoku", timeout=APP_START)
    second = await connect(server.port, "bob")
    await second.wait_for("bob already has 1 session open (at most 1 a player); close one first")
    await asyncio.wait_for(second.closed.wait(), 10)
    for player in (first, second):
        await player.close()


# -- the zygote ---------------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(sys, "_debugmallocstats"), reason="CPython's allocator statistics")
def test_the_zygote_fills_the_holes_in_its_allocator_before_it_forks():
    # A child's first objects would go into those holes, and copy each shared page they land in.
    gc.collect()
    before = sum(zygote_module.allocator_holes().values())
    assert zygote_module.fill_allocator_holes() >= before
    after = sum(zygote_module.allocator_holes().values())
    assert after < before and after < 2000, (before, after)


def login_lines(logs: list[str], user: str) -> list[str]:
    return [line for line in logs if line.startswith(f"login user={user} ")]


@linux_only
async def test_a_login_through_the_zygote_reaches_the_menu_and_players_never_cross(start_server):
    server = await start_server()
    zygote = server.session_host.zygote
    await asyncio.wait_for(zygote.wait_ready(), 120)
    root = server.config.root
    # bob has a game in progress and a file of his own; alice has neither.
    bob_home = two_player_connect4(root, "bob")
    (bob_home / "files").mkdir()
    (bob_home / "files" / "bobs-secret.pdn").write_text("[Event \"bob's\"]\n")

    bob = await connect(server.port, "bob")
    await bob.wait_for("Connect-4", timeout=APP_START)
    bob.keys("2")
    await bob.wait_for("● to move")
    bob.keys("4")
    await bob.wait_for("○ to move")
    await bob.close()
    await wait_until(lambda: not server.sessions, APP_START, "bob's session to end")

    alice = await connect(server.port, "alice")
    bob = await connect(server.port, "bob")
    await alice.wait_for("classic or full board", timeout=APP_START)
    await bob.wait_for("resume your game in progress", timeout=APP_START)
    assert "resume your game" not in alice.text
    # Each took over the zygote's app at its menu (none built its own).
    assert all("start=zygote-menu" in line for line in login_lines(start_server.logs, "alice") +
               login_lines(start_server.logs, "bob")), start_server.logs
    sessions = {session.user: session for session in server.sessions}
    assert sessions["alice"].app.pgid != sessions["bob"].app.pgid
    # Each app works in its own player's directory.
    assert os.readlink(f"/proc/{sessions['alice'].app.pgid}/cwd") == str(root / "users" / "alice")
    assert os.readlink(f"/proc/{sessions['bob'].app.pgid}/cwd") == str(bob_home)

    # The lobby knows each app by its own secret: each is told its own name.
    for player, name in ((alice, "alice"), (bob, "bob")):
        mark = player.mark()
        player.keys("o")
        await player.wait_for(f"You are {name}", since=mark, timeout=APP_START)
        assert f"You are {'bob' if name == 'alice' else 'alice'}" not in player.text
    # The zygote itself holds nobody's secret, home or name: it never ran a session.
    environ = open(f"/proc/{zygote.process.pid}/environ", "rb").read()
    assert b"TUI_GAMES_HOME" not in environ and LOBBY_TOKEN_ENV.encode() not in environ
    # What must be there when a process starts (a fork does not start again) is.
    assert b"\0MALLOC_ARENA_MAX=2\0" in b"\0" + environ and b"\0PYTHONUTF8=1\0" in b"\0" + environ
    assert os.readlink(f"/proc/{zygote.process.pid}/cwd") != str(bob_home)
    # It built an app up to its menu before the first fork, for nobody, and that left nothing
    # open in it or in its children: no folder, settings or session lock of its own, no player's.
    ready = next(line for line in start_server.logs if line.startswith("zygote-ready"))
    assert 'prepared="an app at its menu, which each login takes over"' in ready, ready
    assert not [path for path in open_paths(zygote.process.pid) if "standby" in path or str(root) in path]
    for session in sessions.values():
        assert not [path for path in open_paths(session.app.pgid) if "standby" in path]
    for player in (alice, bob):
        await player.close()


def open_paths(pid: int) -> set[str]:
    paths = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            paths.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:  # closed meanwhile
            continue
    return paths


def zygote_environment(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as environ:
        pairs = [item.decode().partition("=") for item in environ.read().split(b"\0") if item]
    return {name: value for name, _, value in pairs}


@linux_only
async def test_a_killed_zygote_is_restarted_and_logins_keep_working_meanwhile(start_server, monkeypatch):
    # The restart waits for the test's word, so the login in between is sure to meet no zygote.
    gate = asyncio.Event()
    original = zygote_module.Zygote._run_once

    async def gated(self):
        if self.started >= 1:
            await gate.wait()
        return await original(self)

    monkeypatch.setattr(zygote_module.Zygote, "_run_once", gated)
    server = await start_server()
    zygote = server.session_host.zygote
    await asyncio.wait_for(zygote.wait_ready(), 120)
    before = await connect(server.port, "carol")
    await before.wait_for("Sudoku", timeout=APP_START)

    # Its temporary files (the prepared app's home while it prepares) are in a folder of its
    # own, which the server removes: a zygote killed mid-preparation cleans up nothing itself.
    temporary = zygote_environment(zygote.process.pid)["TMPDIR"]
    assert os.path.isdir(temporary) and temporary != tempfile.gettempdir()

    os.kill(zygote.process.pid, signal.SIGKILL)
    await wait_until(lambda: any(line.startswith("zygote-died") for line in start_server.logs), 30,
                     "the server to notice")
    assert not os.path.exists(temporary)
    during = await connect(server.port, "dave")
    await during.wait_for("Sudoku", timeout=APP_START)
    assert "start=fresh" in login_lines(start_server.logs, "dave")[0]
    died = next(line for line in start_server.logs if line.startswith("zygote-died"))
    assert 'meanwhile="logins start fresh processes"' in died

    # carol's app, forked by the dead zygote, plays on, and her quit is seen with its status.
    mark = before.mark()
    before.keys("o")
    await before.wait_for("You are carol", since=mark, timeout=APP_START)
    before.keys("\x11")
    await asyncio.wait_for(before.closed.wait(), APP_START)
    await wait_until(lambda: any(line.startswith("quit user=carol") for line in start_server.logs), 30,
                     "carol's quit")
    assert "quit user=carol from=127.0.0.1 status=0" in "\n".join(start_server.logs)

    gate.set()
    await asyncio.wait_for(zygote.wait_ready(), 120)
    assert zygote.started == 2
    after = await connect(server.port, "erin")
    await after.wait_for("Sudoku", timeout=APP_START)
    assert "start=zygote-menu" in login_lines(start_server.logs, "erin")[0]
    for player in (before, during, after):
        await player.close()


@linux_only
async def test_the_prepared_menu_is_taken_over_at_each_terminals_own_size(start_server):
    server = await start_server()
    await asyncio.wait_for(server.session_host.zygote.wait_ready(), 120)
    # Larger than the 80×24 it was prepared at: laid out again, down to the last row.
    wide = await connect(server.port, "wanda", size=(132, 43))
    await wide.wait_for("q Quit", timeout=APP_START)
    assert b"\x1b[43;1H" in wide.output and "Sudoku" in wide.text
    # No frame at the size it was prepared at came first: its footer would be on row 24,
    # before anything was drawn on row 43.
    before_last_row = bytes(wide.output[:wide.output.index(b"\x1b[43;1H")])
    assert "q Quit" not in ESCAPES.sub(b"", before_last_row).decode("utf-8", "replace")
    # Smaller: the notice; grown, the menu.
    small = await connect(server.port, "sam", size=(60, 20))
    await small.wait_for("needs at least 80×24, now 60×20", timeout=APP_START)
    mark = small.mark()
    small.process.change_terminal_size(90, 30)
    await small.wait_for("Sudoku", since=mark, timeout=APP_START)
    assert all("start=zygote-menu" in line for line in login_lines(start_server.logs, "wanda") +
               login_lines(start_server.logs, "sam")), start_server.logs
    for player in (wide, small):
        await player.close()
