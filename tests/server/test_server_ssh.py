"""End to end: the SSH game server on 127.0.0.1, players connecting with asyncssh's client.

Each test starts a GameServer in-process on a free port (a host key is made on the way), so
it can see the server's sessions and their process groups. Players type key bytes and read
the screen bytes the app sends, as an SSH client would. The game is Connect-4 for two humans
(no engine: nothing to wait for, nothing to burn CPU).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

asyncssh = pytest.importorskip("asyncssh", reason='the SSH tests need asyncssh: pip install ".[test]"')

from ssh_support import (  # noqa: E402
    APP_START,
    NO_KEY,
    connect,
    group_alive,  # noqa: E402
    key_for,
    two_player_connect4,
    wait_until,
)

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(os.name != "posix", reason="the SSH server needs POSIX ptys")]

def saved_history(home: Path) -> list | None:
    try:
        return json.loads((home / "saves" / "connect4.json").read_text())["state"]["history"]
    except (OSError, ValueError, KeyError):
        return None


async def test_play_resize_drop_and_resume(start_server, tmp_path):
    # Fresh processes: /proc shows the environment a process was started with, and an app forked
    # from the zygote was started with the zygote's (test_server_host covers those).
    server = await start_server(zygote=False)
    root = server.config.root
    assert (root / "ssh_host_ed25519_key").stat().st_mode & 0o777 == 0o600
    alice_home = two_player_connect4(root, "alice")

    alice = await connect(server.port, "alice", env={"COLORTERM": "truecolor", "PYTHONPATH": "/nowhere"})
    await alice.wait_for("Connect-4", timeout=APP_START)
    (session,) = server.sessions
    pgid = session.app.pgid
    assert os.getsid(pgid) == pgid  # a session (and group) of its own
    env = Path(f"/proc/{pgid}/environ")
    if env.exists():
        variables = dict(item.split("=", 1) for item in env.read_text().split("\0") if "=" in item)
        assert variables["TERM"] == "xterm-256color" and variables["COLORTERM"] == "truecolor"
        assert variables["TUI_GAMES_HOME"] == str(alice_home)
        assert variables["PYTHONPATH"] != "/nowhere"  # only COLORTERM, NO_COLOR and LANG pass

    mark = alice.mark()
    alice.keys("2")  # the menu's Connect-4
    await alice.wait_for("● to move", since=mark)
    alice.keys("4")
    await alice.wait_for("○ to move", since=mark)
    alice.keys("5")
    await wait_until(lambda: saved_history(alice_home) == [3, 4], 10, "the two moves to be saved")

    # Too small a window: the app says so (it got the new size); back to 80×24, the board again.
    mark = alice.mark()
    alice.process.change_terminal_size(60, 20)
    await alice.wait_for("now 60×20", since=mark)
    mark = alice.mark()
    alice.process.change_terminal_size(80, 24)
    await alice.wait_for("● to move", since=mark)

    # Gone without a word: the group is hung up (the app saves and exits) within the grace.
    (alice_home / "saves" / "connect4.json").unlink()  # so only the hang-up can bring it back
    await alice.close()
    await wait_until(lambda: not group_alive(pgid), server.config.sessions.grace_seconds + 5, "the session's group to end")
    # The group ends before the server has heard of it: wait for the server's own view.
    await wait_until(lambda: not server.sessions, 5, "the server to drop the session")
    assert saved_history(alice_home) == [3, 4]

    # Back again: the menu offers the game and it resumes where it was.
    alice = await connect(server.port, "alice")
    await alice.wait_for("resume your game in progress", timeout=APP_START)
    # Meanwhile a second player on their own: a fresh menu, no saved game of alice's.
    bob = await connect(server.port, "bob")
    await bob.wait_for("classic or full board", timeout=APP_START)
    assert "resume your game" not in bob.text
    assert len(server.sessions) == 2
    mark = alice.mark()
    alice.keys("2")
    await alice.wait_for("Resumed your", since=mark)
    await alice.wait_for("● to move", since=mark)
    assert saved_history(alice_home) == [3, 4]
    mark = bob.mark()
    bob.keys("2")
    await bob.wait_for("to move", since=mark)
    assert not (root / "users" / "bob" / "saves" / "connect4.json").exists() or \
        saved_history(root / "users" / "bob") == []

    # Quitting ends the session: the client sees the channel close.
    bob.keys("\x11")  # ctrl+q
    await asyncio.wait_for(bob.closed.wait(), 10)
    await bob.close()
    await alice.close()


async def test_full_server_says_so(start_server):
    server = await start_server(max_sessions=1)
    first = await connect(server.port, "carol")
    second = await connect(server.port, "dave")
    await second.wait_for("the server is full (1 player at a time)")
    await asyncio.wait_for(second.closed.wait(), 30)  # closed at once; 30 s only bounds a broken run
    assert second.process.exit_status == 1
    await second.close()
    await first.close()


async def test_wrong_key_is_refused_and_right_key_plays(start_server, tmp_path):
    right = asyncssh.generate_private_key("ssh-ed25519")
    wrong = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "players.keys"
    keys.write_bytes(right.export_public_key())
    server = await start_server(auth="keys", register="closed", authorized_keys=keys)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncio.wait_for(connect(server.port, "erin", key=wrong), 10)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncio.wait_for(connect(server.port, "erin", key=NO_KEY), 10)
    player = await connect(server.port, "erin", key=right)
    await player.wait_for("tui-games", timeout=APP_START)
    await player.close()


async def test_idle_player_is_hung_up_with_a_message(start_server):
    server = await start_server(idle_seconds=1.0)
    players = [await connect(server.port, name) for name in ("frank", "gwen")]
    await wait_until(lambda: all(s.app and s.app.pgid for s in server.sessions), APP_START, "the apps to start")
    pgids = [session.app.pgid for session in server.sessions]
    for player in players:
        await asyncio.wait_for(player.closed.wait(), APP_START)
        assert "no keys for 1 second; your game is saved" in player.text
        await player.close()
    await wait_until(lambda: not server.sessions, 5, "the server to drop the sessions")
    assert not any(group_alive(pgid) for pgid in pgids)


async def test_odd_requests_get_a_line_not_a_hang(start_server):
    server = await start_server()

    async def fresh():
        return await asyncssh.connect("127.0.0.1", server.port, username="gina", known_hosts=None, config=None,
                                      agent_path=None, client_keys=[key_for("gina")])

    async with await fresh() as conn:
        # A command is for the lobby: one that is not its own gets one line and exit status 2.
        result = await asyncio.wait_for(conn.run("ls /", encoding=None), 10)
        assert result.exit_status == 2 and b"'ls' is not a command" in result.stderr
        # One game per connection: a second channel is refused with a reason.
        with pytest.raises(asyncssh.ChannelOpenError, match="one game per connection"):
            await asyncio.wait_for(conn.run("ls /", encoding=None), 10)
    async with await fresh() as conn:
        result = await asyncio.wait_for(conn.run(encoding=None, term_type=None), 10)  # a shell, no pty
        assert result.exit_status == 1 and b"need a terminal" in result.stdout
    # A name that cannot be a directory is refused at authentication, and the log says why.
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncio.wait_for(connect(server.port, "../etc"), 10)
    await wait_until(lambda: any("cannot be a player name" in line for line in start_server.logs), 5,
                     "the refusal to be logged")
