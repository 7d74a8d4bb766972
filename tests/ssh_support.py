"""Helpers the SSH tests share: a player logged in with asyncssh's client (keys in, screen
text out), each test player's own key, waiting for a condition, a server directory set up for
a two-human Connect-4 game, whether a session's process group is alive, one ``ssh … COMMAND``
with the real OpenSSH client, the docs' lobby bot run against a server, a GameServer started as the
tests start one."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Callable

import pytest

asyncssh = pytest.importorskip("asyncssh", reason='the SSH tests need asyncssh: pip install ".[test]"')


# Everything that is not text: CSI and OSC sequences, other escapes, control characters.
ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P^_].*?\x1b\\|\x1b.|[\x00-\x1f]",
                     re.DOTALL)

APP_START = 30.0  # a cold start of the app on a busy 2-core machine takes a few seconds
LOBBY_BOT = Path(__file__).resolve().parents[1] / "examples" / "lobby_bot.py"

class Player:
    """One SSH login: keys in, screen text out."""

    def __init__(self, conn, process) -> None:
        self.conn, self.process = conn, process
        self.output = bytearray()
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while data := await self.process.stdout.read(65536):
                self.output += data
        except (asyncssh.Error, OSError, asyncio.CancelledError):
            pass
        finally:
            self.closed.set()

    @property
    def text(self) -> str:
        return ESCAPES.sub(b"", bytes(self.output)).decode("utf-8", "replace")

    def mark(self) -> int:
        """A place in the output: wait_for(..., since=mark) looks only at what came after."""
        return len(self.output)

    async def wait_for(self, text: str, since: int = 0, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in ESCAPES.sub(b"", bytes(self.output[since:])).decode("utf-8", "replace"):
                return
            if self.closed.is_set():
                break
            await asyncio.sleep(0.05)
        raise AssertionError(f"{text!r} not on the screen; it shows:\n{self.text[-1500:]}")

    def keys(self, data: str) -> None:
        self.process.stdin.write(data.encode())

    async def close(self) -> None:
        self.conn.abort()
        self._reader.cancel()
        await asyncio.gather(self._reader, return_exceptions=True)

KEYS: dict[str, object] = {}

def key_for(user: str):
    """Each test player's own key, the same for every login of theirs."""
    if user not in KEYS:
        KEYS[user] = asyncssh.generate_private_key("ssh-ed25519")
    return KEYS[user]

NO_KEY = object()

async def connect(port: int, user: str, key=None, env: dict | None = None, size=(80, 24)) -> Player:
    """Log in as ``user`` with their own key (or ``key``; NO_KEY: none at all)."""
    key = key_for(user) if key is None else key
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, config=None, agent_path=None,
        client_keys=None if key is NO_KEY else [key])
    process = await conn.create_process(term_type="xterm-256color", term_size=size, env=env or {}, encoding=None)
    return Player(conn, process)

async def wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")

def two_player_connect4(root: Path, user: str) -> Path:
    """The user's data directory, set up so Connect-4 opens as a two-human game."""
    home = root / "users" / user
    home.mkdir(parents=True)
    (home / "settings.json").write_text(json.dumps({"connect4": {"opponent": "human"}}))
    return home

def key_file(tmp_path, name: str):
    """A private key file for ``ssh -i`` (and the key object)."""
    key = key_for(name)
    path = tmp_path / f"{name}.key"
    if not path.exists():
        path.write_bytes(key.export_private_key())
        path.chmod(0o600)
    return path, key

def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def ssh_command(port: int, user: str, identity, command: str, source: str = "127.0.0.1",
                      timeout: float = 60) -> tuple[int, bytes, bytes]:
    """``ssh -q NAME@127.0.0.1 COMMAND`` from ``source``: (exit status, stdout, stderr)."""
    argv = ["ssh", "-q", "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
            "-o", "IdentityAgent=none", "-o", "ConnectTimeout=20", "-o", f"BindAddress={source}",
            "-i", str(identity), f"{user}@127.0.0.1", command]
    process = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.DEVNULL,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return process.returncode, out, err


@contextlib.asynccontextmanager
async def lobby_bot(port: int, identity, game: str, *options: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """examples/lobby_bot.py playing ``game`` as robot on the server at ``port`` (its ssh told
    the key in TUI_GAMES_SSH), its output piped; killed at the end if it is still running."""
    env = {**os.environ, "TUI_GAMES_SSH": f"-F /dev/null -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                                          f"-o IdentitiesOnly=yes -o LogLevel=ERROR -i {identity}"}
    bot = await asyncio.create_subprocess_exec(
        sys.executable, str(LOBBY_BOT), "robot@127.0.0.1", str(port), game, *options, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        yield bot
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.communicate()


async def started_server(root: Path, log: Callable[[str], None], **options):
    """A started GameServer on a free port of 127.0.0.1 in ``root`` (``options``: SSHConfig's and
    SessionLimits'), logging to ``log``: keys and open registration, so each test player's key
    claims their name at the first login. The caller closes it (the start_server fixture does)."""
    from tui_games.server.host import SessionLimits
    from tui_games.server.ssh import GameServer, SSHConfig

    options = {"auth": "keys", "register": "open", "grace_seconds": 3.0, "root": root, **options}
    limits, options = SessionLimits.split(options)
    server = GameServer(SSHConfig(port=0, log=log, sessions=limits, **options))
    await server.start()
    return server
