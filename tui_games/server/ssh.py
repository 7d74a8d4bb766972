"""``tui-games serve --ssh``: a game server anyone can ``ssh -p 2222 host`` into.

Each login gets the full app (``python -m tui_games``) as its own process on its own pty (see
sessions.py), with the client's terminal type and size, its resizes, and its ``COLORTERM``,
``NO_COLOR`` and ``LANG`` if it sent them. Each SSH user name has a data directory of its own
(settings, scores, saved games) under the server's, and all of them share one leaderboard.

Layout of the server's directory (``<data dir>/server``)::

    ssh_host_ed25519_key   made on first start, mode 0600
    authorized_keys        the players' public keys (``--auth keys``, the default)
    leaderboard.json       every player's results, per game
    users/NAME/            a player's TUI_GAMES_HOME

A connection that cannot be served (server full, no terminal, a command given, a user name
we will not use as a directory) gets one line saying why and is closed: never a hang. A wrong
key is refused by SSH itself ("Permission denied (publickey)").
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tui_games.server import EXTRA_HINT, ServerError, paths
from tui_games.server.sessions import PtyApp

try:
    import asyncssh
except ImportError:  # the CLI turns this into one line naming the extra
    asyncssh = None  # type: ignore[assignment]

HOST_KEY_FILE = "ssh_host_ed25519_key"
AUTHORIZED_KEYS_FILE = "authorized_keys"
LEADERBOARD_FILE = "leaderboard.json"
USERS_DIR = "users"
DEFAULT_TERM = "xterm-256color"
# What a client may pass to the app; anything else it sends (SSH clients send LC_* and more)
# is dropped, so a player cannot set PYTHONPATH or TUI_GAMES_HOME for their session.
CLIENT_ENV = ("COLORTERM", "NO_COLOR", "LANG")
# User names become directory names: no dots in front, no slashes, nothing odd.
USER_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}$")


def _stderr(line: str) -> None:
    print(f"tui-games serve: {line}", file=sys.stderr, flush=True)


@dataclass
class SSHConfig:
    root: Path  # the server's directory (see the module docstring)
    host: str = "127.0.0.1"
    port: int = 2222  # 0: any free port (tests); GameServer.port tells which
    auth: str = "keys"  # "keys" or "none"
    authorized_keys: Path | None = None  # default: root / authorized_keys
    max_sessions: int = 32
    idle_seconds: float = 30 * 60
    memory_mb: int | None = 1024  # per session (RLIMIT_AS); None or 0: no cap
    grace_seconds: float = 3.0  # between SIGHUP and SIGKILL
    app_argv: list[str] = field(default_factory=lambda: [sys.executable, "-m", "tui_games"])
    log: Callable[[str], None] = _stderr

    @property
    def keys_path(self) -> Path:
        return self.authorized_keys or self.root / AUTHORIZED_KEYS_FILE


def require_asyncssh() -> None:
    if asyncssh is None:
        raise ServerError(f"serving over SSH needs asyncssh: {EXTRA_HINT}")


def load_host_key(root: Path):
    """The server's host key, made (ed25519, mode 0600) on first start so clients can pin it."""
    path = root / HOST_KEY_FILE
    if not path.exists():
        root.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519", comment="tui-games server")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another server started at the same moment and made one
            pass
        else:
            with os.fdopen(fd, "wb") as handle:
                handle.write(key.export_private_key())
            path.with_name(path.name + ".pub").write_bytes(key.export_public_key())
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        raise ServerError(f"cannot read the host key {path}: {error}") from None


def read_authorized_keys(path: Path):
    try:
        return asyncssh.read_authorized_keys(str(path))
    except FileNotFoundError:
        raise ServerError(f"no {path}: put the players' public keys there (one per line, as in "
                          f"~/.ssh/authorized_keys), or use --auth none on a trusted network") from None
    except (OSError, ValueError) as error:
        raise ServerError(f"cannot use {path}: {error}") from None


def session_env(config: SSHConfig, user: str, term: str | None, client_env: dict[str, str]) -> dict[str, str]:
    """The environment of a player's app: built afresh, never the server's own."""
    home = config.root / USERS_DIR / user
    package_root = Path(__file__).resolve().parents[2]
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "TERM": term or DEFAULT_TERM,
        "TUI_GAMES_HOME": str(home),
        "TUI_GAMES_LEADERBOARD": str(config.root / LEADERBOARD_FILE),
        "TUI_GAMES_USER": user,
        # Every file the player names stays in their own folder (server/paths.py).
        paths.SERVED_ENV: "1",
        # So `-m tui_games` finds the package even when the server runs from a source tree.
        "PYTHONPATH": str(package_root),
        "PYTHONUTF8": "1",
        # glibc reserves 64 MB of address space per malloc arena (one per engine thread, up
        # to 8 a core): under the --memory-mb cap that reserve, not real use, would run out.
        "MALLOC_ARENA_MAX": "2",
    }
    env.update({name: client_env[name] for name in CLIENT_ENV if name in client_env})
    return env


def _duration(seconds: float) -> str:
    amount, unit = (seconds / 60, "minute") if seconds >= 60 else (seconds, "second")
    return f"{amount:g} {unit}{'' if amount == 1 else 's'}"


class GameServer:
    """The listening server and its live sessions."""

    def __init__(self, config: SSHConfig) -> None:
        require_asyncssh()
        self.config = config
        self.sessions: set[GameSession] = set()
        self._listener = None
        self._idle_task: asyncio.Task | None = None

    @property
    def port(self) -> int:
        return self._listener.get_port() if self._listener else self.config.port

    async def start(self) -> None:
        config = self.config
        config.root.mkdir(parents=True, exist_ok=True)
        host_key = load_host_key(config.root)
        if config.auth == "keys":
            read_authorized_keys(config.keys_path)  # fail now, not at the first login
        try:
            self._listener = await asyncssh.create_server(
                lambda: _Connection(self), config.host, config.port,
                server_host_keys=[host_key], encoding=None, line_editor=False,
                password_auth=False, kbdint_auth=False, allow_scp=False,
                agent_forwarding=False, x11_forwarding=False,
                login_timeout=30,
                # A client that vanished without a word (network gone) is noticed in ~90 s.
                keepalive_interval=30, keepalive_count_max=3)
        except OSError as error:
            raise ServerError(f"cannot listen on {config.host}:{config.port}: {error.strerror or error}") from None
        self._idle_task = asyncio.create_task(self._watch_idle())
        auth = "no authentication" if config.auth == "none" else f"keys from {config.keys_path}"
        config.log(f"listening on {config.host}:{self.port} ({auth}; {config.max_sessions} players at a time; "
                   f"data in {config.root})")

    async def close(self) -> None:
        """Stop listening, hang up every session (each saves its game) and wait for them."""
        if self._idle_task:
            self._idle_task.cancel()
        if self._listener:
            self._listener.close()
            await self._listener.wait_closed()
        await asyncio.gather(*(session.end("the server is shutting down") for session in list(self.sessions)),
                             return_exceptions=True)

    async def _watch_idle(self) -> None:
        limit = self.config.idle_seconds
        if not limit or limit <= 0:
            return
        while True:
            await asyncio.sleep(min(limit / 4, 15.0))
            now = time.monotonic()
            for session in list(self.sessions):
                if session.app is not None and now - session.last_input > limit:
                    session.end(f"no keys for {_duration(limit)}")

    def refusal(self, session: "GameSession") -> str | None:
        """Why this session cannot be served, or None."""
        if session.command:
            return "this server only plays games; connect without a command"
        if not session.has_pty:
            return "the games need a terminal; connect with ssh -t"
        if not USER_NAME.match(session.user):
            return f"{session.user!r} cannot be a player name here; use letters, digits, '.', '_' or '-'"
        most = self.config.max_sessions
        if len(self.sessions) >= most:
            return f"the server is full ({most} player{'s' if most != 1 else ''} at a time); try again later"
        return None


class _Connection(asyncssh.SSHServer if asyncssh else object):
    """One SSH connection: authentication, then a GameSession per session channel."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn = None
        self.peer = "?"

    def connection_made(self, conn) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = peer[0] if peer else "?"

    def begin_auth(self, username: str) -> bool:
        config = self.server.config
        if config.auth == "none":
            return False
        # Read afresh for every login: adding a player needs no restart.
        try:
            self.conn.set_authorized_keys(read_authorized_keys(config.keys_path))
        except ServerError as error:
            config.log(f"refusing {username}@{self.peer}: {error}")
        return True

    def session_requested(self):
        return GameSession(self.server, self.conn.get_extra_info("username") or "", self.peer)


class GameSession(asyncssh.SSHServerSession if asyncssh else object):
    """One player's session channel, bridged to their app on a pty."""

    def __init__(self, server: GameServer, user: str, peer: str) -> None:
        self.server, self.user, self.peer = server, user, peer
        self.chan = None
        self.app: PtyApp | None = None
        self.has_pty = False
        self.command: str | None = None
        self.last_input = time.monotonic()
        self.accepted = False
        self._typeahead = bytearray()  # keys that came before the app
        self._runner: asyncio.Task | None = None
        self._ending: asyncio.Task | None = None

    # -- what the client asks for --------------------------------------------------------------

    def connection_made(self, chan) -> None:
        self.chan = chan

    def pty_requested(self, term_type, term_size, term_modes) -> bool:
        self.has_pty = True
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # refused with a message once the session starts
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        reason = self.server.refusal(self)
        if reason is not None:
            self.server.config.log(f"refused {self.user}@{self.peer}: {reason}")
            self._close(1, reason)
            return
        # Counted from now, so two logins at once cannot both take the last place.
        self.server.sessions.add(self)
        self.accepted = True
        self._runner = asyncio.create_task(self._run())  # held: the loop keeps only weak references

    # -- the app -------------------------------------------------------------------------------

    async def _run(self) -> None:
        server, config = self.server, self.server.config
        home = config.root / USERS_DIR / self.user
        if self._ending is not None or self.chan is None:  # gone before we began
            server.sessions.discard(self)
            return
        try:
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
            columns, rows, *_ = self.chan.get_terminal_size()
            env = session_env(config, self.user, self.chan.get_terminal_type(), dict(self.chan.get_environment()))
            memory = config.memory_mb * 1024 * 1024 if config.memory_mb else None
            self.app = PtyApp(config.app_argv, env, columns or 80, rows or 24, self._output,
                              cwd=str(home), memory_bytes=memory)
            await self.app.start()
            if self._ending is not None:  # the player left while the app was starting
                await self.app.hang_up(config.grace_seconds)
                return
            self.app.write(bytes(self._typeahead))
            self._typeahead.clear()
            self.last_input = time.monotonic()  # idle time counts from a running game
        except OSError as error:
            server.sessions.discard(self)
            config.log(f"could not start a game for {self.user}: {error}")
            self._close(1, "the server could not start a game; try again later")
            return
        config.log(f"{self.user}@{self.peer} playing ({len(server.sessions)} of {config.max_sessions})")
        try:
            status = await self.app.wait()
        finally:
            server.sessions.discard(self)
        if self._ending is None:  # the player quit: pass the app's exit status on
            config.log(f"{self.user}@{self.peer} quit")
            self._close(status if status >= 0 else 1)

    def _output(self, data: bytes) -> None:
        # Once the player is gone the app's last frames go nowhere.
        if self.chan is not None:
            try:
                self.chan.write(data)
            except (BrokenPipeError, OSError):
                self.chan = None

    def _close(self, status: int, line: str | None = None) -> None:
        """End the channel with ``status``, after ``line`` if given; quietly if the client has
        gone already (it may vanish at any moment)."""
        if self.chan is None:
            return
        try:
            if line:
                # The client's terminal is in raw mode: a bare \n would not return the carriage.
                self.chan.write(f"\r\ntui-games: {line}\r\n".encode())
            self.chan.exit(status)
        except (BrokenPipeError, OSError):
            pass
        self.chan = None

    def end(self, reason: str) -> asyncio.Task:
        """Hang up the app (it saves), tell a still-connected player why, close the channel."""
        if self._ending is None:
            self._ending = asyncio.create_task(self._end(reason))
        return self._ending

    async def _end(self, reason: str) -> None:
        config = self.server.config
        config.log(f"{self.user}@{self.peer} hung up: {reason}")
        if self.app is not None:
            if self.chan is None:
                # A paused reader would leave the app stuck writing its last frames.
                self.app.resume_output()
            await self.app.hang_up(config.grace_seconds)
        self.server.sessions.discard(self)
        self._close(0, f"{reason}; your game is saved. Goodbye.")

    # -- traffic -------------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype) -> None:
        self.last_input = time.monotonic()
        if self.app is not None and self.app.pgid is not None:
            self.app.write(data)
        else:
            self._typeahead += data

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.app is not None:
            self.app.resize(width, height)

    def pause_writing(self) -> None:
        if self.app is not None:
            self.app.pause_output()

    def resume_writing(self) -> None:
        if self.app is not None:
            self.app.resume_output()

    def eof_received(self) -> bool:
        if self.accepted:
            self.end("the client closed its input")
        return True  # stay half open to say goodbye

    def connection_lost(self, exc) -> None:
        self.chan = None
        if self.accepted and (self.app is None or self.app.returncode is None):
            self.end("disconnected")


def serve(config: SSHConfig) -> None:
    """Run the server until SIGINT, SIGTERM or SIGHUP; then every session is hung up (and so
    saved) before the process ends."""
    require_asyncssh()
    asyncio.run(_serve(config))


async def _serve(config: SSHConfig) -> None:
    import signal

    server = GameServer(config)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        config.log(f"stopping: hanging up {len(server.sessions)} session(s)")
        await server.close()
