"""``tui-games serve --ssh``: a game server anyone can ``ssh -p 2222 host`` into.

Each login gets the full app (``python -m tui_games``) as its own process on its own pty (see
sessions.py), with the client's terminal type and size (clamped), its resizes, and its
``COLORTERM``, ``NO_COLOR`` and ``LANG`` if it sent them. Identity is the key (identity.py):
each player name has a data directory of its own (settings, scores, saved games, and the
``files/`` folder their file dialogs are confined to, see player_files.py), and all of them share
one leaderboard. Guests (``--auth none``) get a directory that is deleted when they leave.

Layout of the server's directory (``<data dir>/server``)::

    ssh_host_ed25519_key       made on first start, mode 0600
    authorized_keys            the old shared key list: its keys may claim a free name
    leaderboard.json           every player's results, per game
    users/NAME/                a player's TUI_GAMES_HOME; users/NAME/authorized_keys their keys
    guests/guest-XXXX/         a guest's, removed when the session ends

Everything a stranger can make the server hold is bounded (docs/DESIGN.md, "Serving others"):
connections before a game starts (limits.py: stale ones evicted for newcomers, per-source
caps, penalties that add up), commands per player (a rate), time to authenticate (30 s) and
to open a session (10 s more), one session per
connection, input buffered (back-pressure to the client), window size, memory per session and
in total, and the log (failures and accept errors at most once a second).

A connection that cannot be served (server full or busy, no terminal, a command given, a name
that is not a player's) gets one line saying why and is closed: never a hang.
"""

from __future__ import annotations

import asyncio
import math
import os
import secrets
import shutil
import sqlite3
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

from tui_games.online.client import LOBBY_ENV, LOBBY_TOKEN_ENV
from tui_games.server import EXTRA_HINT, ServerError, private_directory, run_until_signal
from tui_games.server.child import child_env
from tui_games.server.disk import DISK_FULL, is_disk_full
from tui_games.server.host import SessionHost, SessionLimits
from tui_games.server.identity import (
    KEYS_FILE,
    USERS_DIR,
    IdentityError,
    Registry,
    canonical,
    fingerprint,
    guest_name,
)
from tui_games.server.limits import (
    Admission,
    Limits,
    Startup,
    raise_open_file_limit,
    source_of,
)
from tui_games.server.lobby import commands as lobby_commands
from tui_games.server.lobby.frontend import FrontEnd
from tui_games.server.lobby.house import House
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.stack import LOBBY_FILE, LobbyStack, LobbyStartError, open_lobby_storage, start_lobby
from tui_games.server.lobby.storage import StorageUnavailable, is_postgres
from tui_games.server.lobby.tournament import TournamentLimits
from tui_games.server.log import RateLimit, elapsed, event, make_logger, server_event
from tui_games.server.sessions import INPUT_HIGH, PtyApp, clamp_size
from tui_games.server.zygote import ONLINE_ENV
from tui_games.userdata import player_files

try:
    import asyncssh
    from asyncssh.encryption import get_encryption_algs
    from asyncssh.kex import get_kex_algs
    from asyncssh.mac import get_mac_algs
    from asyncssh.public_key import get_public_key_algs
except ImportError:  # the CLI turns this into one line naming the extra
    asyncssh = None  # type: ignore[assignment]

HOST_KEY_FILE = "ssh_host_ed25519_key"
# Bytes of a stream the server holds for a client that does not read them: past it a `watch`
# skips events, and the client is given the game as it is once it reads again; an `events`
# stream, whose events cannot be skipped, ends with a line saying why (commands.py).
WATCH_BEHIND = 64 * 1024
# A stream ended (a watch, or events dropped for falling behind): how long its client has to
# read its last line before its connection is closed without it.
STREAM_GOODBYE_SECONDS = 10.0
REGISTRATION_WINDOW = 3600.0  # seconds over which --registrations-per-hour counts
AUTHORIZED_KEYS_FILE = KEYS_FILE
LEADERBOARD_FILE = "leaderboard.json"
GUESTS_DIR = "guests"
DEFAULT_TERM = "xterm-256color"
LOGIN_SECONDS = 30.0  # to authenticate, from the first byte
SESSION_SECONDS = 10.0  # to ask for a game, once authenticated
MAX_AUTH_TRIES = 6  # keys offered on one connection, as sshd's MaxAuthTries
# What a client may pass to the app; anything else it sends (SSH clients send LC_* and more)
# is dropped, so a player cannot set PYTHONPATH or TUI_GAMES_HOME for their session.
CLIENT_ENV = ("COLORTERM", "NO_COLOR", "LANG")
# What the client's terminal needs to be itself again if the app could not say it (it was
# killed, or the server is going), as Textual undoes it on a normal exit: the kitty keyboard
# protocol popped (on the alternate screen, whose stack it is), no mouse or focus reports, no
# bracketed paste or in-band resize, autowrap back on, main screen, cursor on, plain text.
# Left on, a player's shell after a hang-up would not wrap, would print ^[[I at each focus
# change and, in a kitty-protocol terminal, read keys as escape codes. Harmless when the app
# has already restored it.
TERMINAL_RESET = (b"\x1b[<u\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1016l\x1b[?1004l"
                  b"\x1b[?2004l\x1b[?2048l\x1b[?7h\x1b[?1049l\x1b[?25h\x1b[0m")

# Only algorithms without SHA-1 or CBC, in order of preference; each list is cut to what the
# installed asyncssh offers.
KEX_ALGS = ("mlkem768x25519-sha256", "sntrup761x25519-sha512", "sntrup761x25519-sha512@openssh.com",
            "curve25519-sha256", "curve25519-sha256@libssh.org", "ecdh-sha2-nistp521", "ecdh-sha2-nistp384",
            "ecdh-sha2-nistp256", "diffie-hellman-group-exchange-sha256", "diffie-hellman-group18-sha512",
            "diffie-hellman-group16-sha512", "diffie-hellman-group14-sha256")
ENCRYPTION_ALGS = ("chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com",
                   "aes256-ctr", "aes192-ctr", "aes128-ctr")
MAC_ALGS = ("hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "umac-128-etm@openssh.com",
            "hmac-sha2-256", "hmac-sha2-512", "umac-128@openssh.com")
SIGNATURE_ALGS = ("ssh-ed25519", "sk-ssh-ed25519@openssh.com", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
                  "ecdsa-sha2-nistp521", "sk-ecdsa-sha2-nistp256@openssh.com", "rsa-sha2-512", "rsa-sha2-256")






@dataclass
class SSHConfig:
    root: Path  # the server's directory (see the module docstring)
    host: str = "127.0.0.1"
    port: int = 2222  # 0: any free port (tests); GameServer.port tells which
    auth: str = "keys"  # "keys" or "none"
    register: str = "closed"  # "closed": keys added by the operator; "open": a free name goes to the first key
    authorized_keys: Path | None = None  # the old shared list; default: root / authorized_keys
    sessions: SessionLimits = field(default_factory=SessionLimits)  # shared with the web (host.py)
    # How long a stopping server waits for its clients to take their goodbyes (the terminal
    # reset and the line saying why): a client that stalls longer loses them.
    goodbye_seconds: float = 10.0
    # Connections one player may hold once authenticated: commands, `watch` and `events` streams
    # and app sessions together (a bot with a few games watches each and moves by command: far fewer).
    # One address may hold --address-share percent of the server's connections, never fewer.
    connections_per_player: int = 16
    # A `watch` in which nothing has happened for this long is ended (with a line saying why).
    watch_idle_seconds: float = 60 * 60
    # Names one address may register in an hour under --register open (counted in the lobby's
    # database, across restarts); 0: no limit.
    registrations_per_hour: int = 20
    zygote: bool = True  # fork logins from a pre-started app (zygote.py); False: a fresh process each
    quota_mb: int | None = 50  # a player's data directory (files/, saves, Lab runs); None or 0: none
    limits: Limits = field(default_factory=Limits)
    house: str = "none"  # house players (lobby/house.py): "connect4:perfect,checkers:strong", or "none"
    # The lobby's database: None, root/lobby.sqlite3; a path (SQLite), or postgresql://… that
    # several front ends share (docs/serving.md, "Several front ends").
    lobby: str | None = None
    # Tournaments (lobby/tournament.py): what players may create and join, and the operator's
    # scheduled ones (--tournament FILE, lobby/tournament_file.py).
    tournament_limits: TournamentLimits = field(default_factory=TournamentLimits)
    tournament_file: Path | None = None
    app_argv: list[str] = field(default_factory=lambda: [sys.executable, "-m", "tui_games"])
    log: Callable[[str], None] = field(default_factory=make_logger)

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


def read_public_key(path: Path):
    """One public key from ``path`` (the first in an authorized_keys-style file)."""
    require_asyncssh()
    try:
        return asyncssh.read_public_key(str(path))
    except FileNotFoundError:
        raise ServerError(f"no such key file: {path}") from None
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        raise ServerError(f"{path} holds no public key: {error}") from None


def _supported(wanted: tuple[str, ...], available) -> list[str]:
    have = {name.decode() if isinstance(name, bytes) else name for name in available}
    return [name for name in wanted if name in have]


def algorithms() -> dict[str, list[str]]:
    """The server's algorithm lists: modern only."""
    return {"kex_algs": _supported(KEX_ALGS, get_kex_algs()),
            "encryption_algs": _supported(ENCRYPTION_ALGS, get_encryption_algs()),
            "mac_algs": _supported(MAC_ALGS, get_mac_algs()),
            "signature_algs": _supported(SIGNATURE_ALGS, get_public_key_algs())}




@dataclass
class Player:
    """Who a session plays as: ``name`` owns the data directory ``home``."""

    name: str
    home: Path
    key: str | None = None  # the key's SHA-256 fingerprint
    guest: bool = False
    typed: str = ""  # the name the client gave (a guest's display name)


def session_env(config: SSHConfig, player: Player, term: str | None, client_env: dict[str, str],
                lobby: tuple[str, str] | None = None) -> dict[str, str]:
    """The environment of a player's app: built afresh, never the server's own. ``lobby`` is
    the lobby socket's path and this session's secret for it."""
    env = child_env(player.home, term or DEFAULT_TERM, {"TUI_GAMES_USER": player.name})
    if not player.guest:  # a guest's results count nowhere
        env["TUI_GAMES_LEADERBOARD"] = str(config.root / LEADERBOARD_FILE)
    if config.quota_mb:
        env[player_files.QUOTA_ENV] = str(config.quota_mb)
    if lobby is not None:
        env[LOBBY_ENV], env[LOBBY_TOKEN_ENV] = lobby
    env.update({name: client_env[name] for name in CLIENT_ENV if name in client_env})
    return env






class GameServer:
    """The listening server, its connections and its live sessions."""

    def __init__(self, config: SSHConfig) -> None:
        require_asyncssh()
        self.config = config
        # The seats, the watchdog and the app's start, shared with the web server (host.py);
        # the zygote forks only the real app (a test's app_argv runs as given).
        real_app = config.app_argv == SSHConfig(root=config.root).app_argv
        # Its apps have a lobby: the zygote's prepared app has the menu's entry for it.
        self.session_host = SessionHost(config.sessions, config.log, preload_env={ONLINE_ENV: "1"},
                                        zygote=config.zygote and real_app)
        self.sessions: set[GameSession] = self.session_host.sessions
        self.connections: set[_Connection] = set()
        # Authenticated connections held, per player and per source (limits.source_of).
        self.held_by_player: Counter[str] = Counter()
        self.held_by_source: Counter[str] = Counter()
        self.admission = Admission(config.limits)
        self.registry = Registry(config.root, register_open=config.register == "open",
                                 legacy_keys=config.keys_path)
        self.limited = RateLimit(config.log)
        self.stack: LobbyStack | None = None  # the lobby, while the server runs (lobby/stack.py)
        self._listener: asyncssh.SSHAcceptor | None = None
        self._pressure_task: asyncio.Task | None = None

    @property
    def port(self) -> int:
        return self._listener.get_port() if self._listener else self.config.port

    @property
    def most_sessions(self) -> int:
        return self.session_host.most_sessions

    def running(self) -> LobbyStack:
        """The lobby of a started server: connections and commands come only then."""
        if self.stack is None:
            raise RuntimeError("the server has not started")
        return self.stack

    @property
    def lobby(self) -> Lobby | None:
        return self.stack.lobby if self.stack is not None else None

    @property
    def hub(self) -> HubSocket | None:
        return self.stack.hub if self.stack is not None else None

    @property
    def house(self) -> House | None:
        return self.stack.house if self.stack is not None else None

    @property
    def frontend(self) -> FrontEnd | None:
        return self.stack.frontend if self.stack is not None else None

    async def start(self) -> None:
        config = self.config
        private_directory(config.root)
        host_key = load_host_key(config.root)
        where = config.lobby or str(config.root / LOBBY_FILE)
        try:
            storage = open_lobby_storage(where)
        except LobbyStartError as error:
            raise ServerError(str(error)) from None
        if is_postgres(where):  # front ends on several machines: the keys in the database (identity.py)
            self.registry.shared = storage
            copied = self.registry.copy_to_shared()
            if copied:
                config.log(server_event("keys-shared", copied=copied, to=storage.where))
        if config.auth == "keys" and not self.registry.anyone_can_log_in():
            storage.close()
            raise ServerError(
                f"no player can log in yet: add a key with `tui-games serve add-key NAME FILE`, put keys in "
                f"{config.keys_path} (each may claim a free name), use --register open, or --auth none "
                f"on a trusted network")
        try:
            self.stack = await start_lobby(storage, config.root, online=self.online, house=config.house,
                                           log=config.log, tournament_limits=config.tournament_limits,
                                           tournament_file=config.tournament_file)
        except LobbyStartError as error:
            raise ServerError(str(error)) from None
        self.session_host.hub = self.stack.hub
        files = raise_open_file_limit()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        try:
            self._listener = await asyncssh.create_server(
                lambda: _Connection(self), config.host, config.port,
                server_host_keys=[host_key], encoding=None, line_editor=False,
                password_auth=False, kbdint_auth=False, allow_scp=False,
                agent_forwarding=False, x11_forwarding=False,
                login_timeout=LOGIN_SECONDS,
                # A client that vanished without a word (network gone) is noticed in ~90 s.
                keepalive_interval=30, keepalive_count_max=3,
                **algorithms())
        except OSError as error:
            raise ServerError(f"cannot listen on {config.host}:{config.port}: {error.strerror or error}") from None
        await self.session_host.start()
        self._pressure_task = asyncio.create_task(self._watch_startups())
        if config.auth == "none":
            auth = "no authentication: everyone is a guest"
        else:
            auth = f"keys in {config.root / USERS_DIR}/NAME/{KEYS_FILE}"
            auth += "; any key may register a free name" if config.register == "open" else ""
        config.log(server_event("listening", address=f"{config.host}:{self.port}", auth=auth,
                         **self.session_host.listening_fields(), open_files=files[1] if files else None,
                         data=config.root, lobby=self.stack.lobby.storage.where, frontend=self.stack.frontend.id))

    def _loop_error(self, loop, context: dict) -> None:
        """asyncio's reports (a failed accept when out of file descriptors, above all): one line
        a second at most, never a traceback per attempt."""
        error = context.get("exception")
        message = context.get("message", "error")
        detail = f"{type(error).__name__}: {error}" if error else ""
        self.limited(f"loop:{message}", event("server-error", what=message, error=detail or None))

    async def close(self) -> None:
        """Stop listening, hang up every session (each saves its game) and wait for them."""
        if self._pressure_task:
            self._pressure_task.cancel()
        if self._listener:
            self._listener.close()
            await self._listener.wait_closed()
        sessions = await self.session_host.close("the server is shutting down")
        # Each goodbye (the terminal reset and the line saying why) must reach its client before
        # the connections go: OpenSSH that reads a goodbye and the disconnect together exits
        # before it writes the goodbye. So wait for the channels to close on their own, which
        # the clients do once they have it; a busy machine's client may take seconds.
        closing = [asyncio.ensure_future(session.closed_channel.wait_closed())
                   for session in sessions if session.closed_channel]
        if closing:
            await asyncio.wait(closing, timeout=self.config.goodbye_seconds)
            for waiting in closing:
                waiting.cancel()
        said = sum(1 for waiting in closing if waiting.done() and not waiting.cancelled())
        self.config.log(event("stopped", goodbyes=f"{said}/{len(sessions)}"))
        for connection in list(self.connections):
            connection.close()
        if self.stack is not None:
            self.session_host.hub = None
            stack, self.stack = self.stack, None
            await stack.close()

    def online(self) -> list[tuple[str, str]]:
        """(player, what they are doing) of everyone playing now, here and on the other front ends."""
        here = [(session.user, "guest in the app" if session.player.guest else "in the app")
                for session in self.sessions]
        if self.lobby is not None and self.frontend is not None:
            try:
                here += [(player, "in the app") for player, where in self.lobby.storage.online(time.time())
                         if where != self.frontend.id and not player.startswith("house:")]
            except StorageUnavailable:
                pass
        return sorted(here)

    async def _watch_startups(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            waiting = self.admission.startups
            if self.admission.sweep():
                self.limited("pressure", event("dropped", waiting=waiting, evicted=self.admission.evictions,
                                               reason="stale: no version string or no login attempt in time"))

    def reserve_registration(self, name: str, address: str) -> float | None:
        """Under --register open, a name with no key yet is a registration: counted for its
        address (its source) in the lobby's database, across restarts; IdentityError past
        --registrations-per-hour. Returns the instant reserved (for release_registration if
        the name is not taken after all), or None if this is no registration."""
        config, lobby = self.config, self.lobby
        if config.register != "open" or not config.registrations_per_hour or lobby is None \
                or self.registry.keys_of(name):
            return None
        now, most = time.time(), config.registrations_per_hour
        if not lobby.storage.reserve_registration(source_of(address), now, REGISTRATION_WINDOW, most):
            raise IdentityError(f"{most} names were registered from your address in the last hour (at most {most}); "
                                f"try again later")
        return now

    def release_registration(self, address: str, at: float) -> None:
        if self.lobby is not None:
            try:
                self.lobby.storage.release_registration(source_of(address), at)
            except StorageUnavailable:
                pass

    def lobby_source(self, address: str) -> str | None:
        """Where a player connects from, for the lobby's caps per address (tournaments); None
        under --address-share 100, which says the addresses tell nothing (a proxy in front)."""
        return source_of(address) if self.config.sessions.address_share < 100 else None

    @property
    def connections_per_address(self) -> int:
        config = self.config
        share = math.floor(config.limits.max_connections * config.sessions.address_share / 100)
        return max(config.connections_per_player, share)

    def hold(self, player: str, address: str) -> str | None:
        """Count one more authenticated connection of ``player`` from ``address``, or say why
        it may not have one (it is not counted then)."""
        most, mine = self.config.connections_per_player, self.held_by_player[player]
        if mine >= most:
            return (f"{player} already has {mine} connections open (at most {most} a player, commands, "
                    f"watchers and games together); close one first")
        source, most = source_of(address), self.connections_per_address
        here = self.held_by_source[source]
        if here >= most:
            return (f"your address already has {here} connections open (at most {most}, "
                    f"{self.config.sessions.address_share}% of the server's); close some first")
        self.held_by_player[player] += 1
        self.held_by_source[source] += 1
        return None

    def let_go(self, player: str, address: str) -> None:
        source = source_of(address)
        for counter, key in ((self.held_by_player, player), (self.held_by_source, source)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def refusal(self, session: "GameSession") -> str | None:
        """Why this session cannot be served, or None."""
        if session.connection.refusal:
            return session.connection.refusal
        if not session.has_pty:
            return "the games need a terminal; connect with ssh -t"
        return self.session_host.refusal(session.user, session.peer)


class _Connection(asyncssh.SSHServer if asyncssh else object):  # type: ignore[misc]
    """One SSH connection: admission, authentication (identity.py), then one GameSession."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address, self.port = "?", 0
        self.startup: Startup | None = None  # admitted: how server.admission counts it
        self.typed = ""  # the user name the client gave
        self.tried_auth = False
        self.failures = 0
        self.banner_sent = False
        self.candidate: tuple[str, object] | None = None  # (name, key) last accepted
        self.player: Player | None = None
        self.refusal: str | None = None  # authenticated, but may not play (told at session start)
        self.session: GameSession | None = None
        self.held = False  # counted in the server's connections per player and per address
        self.opened = time.monotonic()
        self._session_timer: asyncio.TimerHandle | None = None

    # -- admission -----------------------------------------------------------------------------

    def connection_made(self, conn) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        if peer:
            self.address, self.port = peer[0], peer[1]
        server = self.server
        admitted = server.admission.admit(
            self.address, lambda: conn.get_extra_info("client_version") is not None, self.close)
        if isinstance(admitted, str):
            reason = admitted
            # Penalty refusals per address (fail2ban's material); caps and drops are one line a
            # second whatever the number of addresses, so a storm cannot flood the log.
            kind = f"refused:{self.address}" if reason.startswith("penalised") else "refused"
            server.limited(kind, event("refused", **{"from": self.address}, port=self.port, reason=reason))
            # Raised here, asyncssh closes the connection before it sends a byte.
            raise ConnectionRefusedError(reason)
        self.startup = admitted
        server.connections.add(self)

    def connection_lost(self, exc) -> None:
        server = self.server
        self._cancel_session_timer()
        if self.startup is None:
            return
        server.connections.discard(self)
        if self.held and self.player is not None:
            server.let_go(self.player.name, self.address)
            self.held = False
        authenticated = self.player is not None
        failed = self.tried_auth and not authenticated
        server.admission.closed(self.startup, failed_auth=failed)
        self.startup = None
        if not authenticated:
            server.limited(f"noauth:{self.address}" if failed else "noauth", event(
                "auth-failed" if failed else "dropped", user=self.typed or None, **{"from": self.address},
                port=self.port, reason="no accepted key" if failed else "never authenticated",
                after=f"{time.monotonic() - self.opened:.1f}s"))

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

    # -- authentication ------------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        self.typed = username
        self.tried_auth = True
        if self.startup is not None:
            self.server.admission.tried(self.startup)
        if self.server.config.auth == "none":
            return False
        return True

    def public_key_auth_supported(self) -> bool:
        return self.server.config.auth == "keys"

    def validate_public_key(self, username: str, key) -> bool:
        server, registry = self.server, self.server.registry
        self.typed = username
        try:
            name = canonical(username)
        except IdentityError as error:
            return self._failed(username, key, str(error))
        try:
            if registry.allows(name, key):
                self.candidate = (name, key)
                return True
            owned = registry.keys_of(name)
        except StorageUnavailable:  # the keys are in the lobby's database, which is restarting
            return self._failed(username, key, "the server's database cannot be reached; try again in a moment")
        if owned:
            why = f"the name {name!r} belongs to another key"
        elif server.config.register == "open" or registry.legacy():
            why = f"this key may not claim {name!r}"
        else:
            why = f"no key is registered for {name!r}; ask the server's operator to add yours"
        return self._failed(username, key, why)

    def _failed(self, username: str, key, why: str) -> bool:
        self.failures += 1
        self.server.limited(f"authfail:{self.address}", event(
            "auth-failed", user=username, **{"from": self.address}, port=self.port, key=fingerprint(key),
            reason=why))
        if self.conn is None:  # asyncssh asks for keys only on a connection it has made
            return False
        if not self.banner_sent:
            # OpenSSH shows a banner before "Permission denied": the one line saying why.
            self.banner_sent = True
            try:
                self.conn.send_auth_banner(f"tui-games: {why}\r\n")
            except (OSError, asyncssh.Error):
                pass
        if self.failures >= MAX_AUTH_TRIES:
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "too many keys tried")
        return False

    def auth_completed(self) -> None:
        server, config = self.server, self.server.config
        if config.auth == "none":
            try:
                name = server.running().lobby.new_guest_name()  # never used before on this server
            except StorageUnavailable as error:
                name = guest_name(set())
                self.refusal = str(error)
            self.player = Player(name, config.root / GUESTS_DIR / name, guest=True, typed=self.typed)
        else:
            assert self.candidate is not None  # asyncssh completes only a key it validated
            name, key = self.candidate
            self.player = Player(name, server.registry.home(name), key=fingerprint(key), typed=self.typed)
            reserved = None
            try:
                reserved = server.reserve_registration(name, self.address)
                server.registry.claim(name, key)
            except (IdentityError, OSError, StorageUnavailable) as error:
                self.refusal = DISK_FULL if is_disk_full(error) else str(error)
                if isinstance(reserved, float):
                    server.release_registration(self.address, reserved)
        if self.refusal is None:
            self.refusal = server.hold(self.player.name, self.address)
            self.held = self.refusal is None
        config.log(event("auth", user=self.player.name, typed=self.typed if self.typed != self.player.name else None,
                         **{"from": self.address}, port=self.port, key=self.player.key,
                         guest="yes" if self.player.guest else None))
        self._session_timer = asyncio.get_running_loop().call_later(SESSION_SECONDS, self._no_session)

    def _no_session(self) -> None:
        self._session_timer = None
        if self.session is None or not self.session.started:
            self.server.config.log(event("dropped", user=self.player.name if self.player else None,
                                         **{"from": self.address}, port=self.port,
                                         reason=f"no session within {SESSION_SECONDS:g} s"))
            self.close()

    def _cancel_session_timer(self) -> None:
        if self._session_timer is not None:
            self._session_timer.cancel()
            self._session_timer = None

    # -- the session ---------------------------------------------------------------------------

    def session_requested(self):
        if self.session is not None or self.player is None:
            # OpenSSH prints this as "open failed: administratively prohibited: ...".
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            "one game per connection: connect again for another")
        self.session = GameSession(self.server, self, self.player)
        return self.session

    def session_began(self) -> None:
        """The client asked for its game (accepted or refused): no longer a startup."""
        self._cancel_session_timer()
        if self.startup is not None:
            self.server.admission.started(self.startup)


class GameSession(asyncssh.SSHServerSession if asyncssh else object):  # type: ignore[misc]
    """One player's session channel, bridged to their app on a pty."""

    def __init__(self, server: GameServer, connection: _Connection, player: Player) -> None:
        self.server, self.connection = server, connection
        self.player = player
        self.user, self.peer = self.player.name, connection.address
        self.id = secrets.token_hex(4)
        self.chan: asyncssh.SSHServerChannel | None = None
        self.app: PtyApp | None = None
        self.has_pty = False
        self.command: str | None = None
        self.started = False
        self.began = time.monotonic()
        self.last_input = time.monotonic()
        self.accepted = False
        self._typeahead = bytearray()  # keys that came before the app
        self.token: str | None = None  # this session's secret for the lobby socket
        self.closed_channel: asyncssh.SSHServerChannel | None = None  # the channel once _close has said goodbye on it
        self._reading_paused = False
        self._writing_paused = False  # the client is behind: asyncssh holds past WATCH_BEHIND for it
        self._on_room: Callable[[], None] | None = None  # a watch stream's: the client has caught up
        self._runner: asyncio.Task | None = None
        self._ending: asyncio.Task | None = None

    @property
    def pid(self) -> int | None:
        return self.app.pgid if self.app is not None else None

    def _log(self, name: str, **fields) -> None:
        self.server.config.log(event(name, user=self.user, **{"from": self.peer}, **fields, session=self.id))

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
        self.started = True
        self.connection.session_began()
        if self.command is not None:
            if self.connection.refusal:  # one line on stderr, which ssh -q still shows
                self._log("command-refused", reason=self.connection.refusal)
                self._refuse_command(self.connection.refusal)
            else:
                self._run_command(self.command)
            return
        reason = self.server.refusal(self)
        if reason is not None:
            self._log("session-refused", reason=reason, command=self.command[:40] if self.command else None)
            self._close(1, reason)
            return
        # Counted from now, so two logins at once cannot both take the last place.
        self.server.sessions.add(self)
        self.accepted = True
        self._runner = asyncio.create_task(self._run())  # held: the loop keeps only weak references

    def _run_command(self, command: str) -> None:
        """``ssh host COMMAND``: the lobby's command interface (lobby/commands.py)."""
        try:
            result = lobby_commands.run(self.server.running().lobby, self.user, command, guest=self.player.guest,
                                        online=self.server.online,
                                        watch_idle=self.server.config.watch_idle_seconds or None,
                                        source=self.server.lobby_source(self.peer))
        except (sqlite3.Error, OSError) as error:
            if not is_disk_full(error):
                raise
            self.server.limited("disk-full", event("disk-full", user=self.user, what="command", error=str(error)))
            self._refuse_command(DISK_FULL)
            return
        words = command.split(maxsplit=1)
        self._log("command", command=words[0][:20] if words else "", status=result.status)
        if self.chan is None:
            return
        try:
            self.chan.write(result.stdout.replace("\n", "\r\n" if self.has_pty else "\n").encode())
            if result.stderr:
                self.chan.write_stderr(result.stderr.encode())
            if result.stream is not None:  # `watch`: goes on until the game ends or the client goes
                self._runner = asyncio.create_task(self._stream(result.stream))
                return
            self.chan.exit(result.status)
        except (BrokenPipeError, OSError):
            pass
        self.chan = None

    async def _stream(self, stream: Callable[..., Awaitable[int]]) -> None:
        newline = "\r\n" if self.has_pty else "\n"

        def write(text: str) -> None:
            if self.chan is not None:
                self.chan.write(text.replace("\n", newline).encode())

        def write_err(text: str) -> None:
            if self.chan is not None:
                self.chan.write_stderr(text.replace("\n", newline).encode())

        def when_room(callback: Callable[[], None]) -> None:
            self._on_room = callback

        name = (self.command or "watch").split(maxsplit=1)[0]  # "watch" or "events": its log's name

        def behind() -> None:
            self.server.limited(f"{name}-behind:{self.id}", event(
                f"{name}-behind", user=self.user, **{"from": self.peer}, session=self.id,
                held=self.chan.get_write_buffer_size() if self.chan is not None else None))

        if self.chan is not None:
            # Past WATCH_BEHIND bytes unsent, the watch skips events (pause_writing) and is given
            # the game as it is once the client has read most of them (resume_writing).
            self.chan.set_write_buffer_limits(high=WATCH_BEHIND)
        client = lobby_commands.WatchClient(write, write_err, has_room=lambda: not self._writing_paused,
                                            when_room=when_room, on_behind=behind)
        status = await stream(client)
        chan, self.chan = self.chan, None
        if chan is None:
            return
        try:
            chan.exit(status)
        except (BrokenPipeError, OSError):
            return
        # The channel closes once the client has read what is held for it, its last line
        # included; a client that reads nothing more would keep it, and its connection, open
        # for ever: after STREAM_GOODBYE_SECONDS the connection goes.
        try:
            await asyncio.wait_for(chan.wait_closed(), STREAM_GOODBYE_SECONDS)
        except asyncio.TimeoutError:
            self.connection.close()

    def _refuse_command(self, line: str) -> None:
        if self.chan is not None:
            try:
                self.chan.write_stderr(f"tui-games: {line}\n".encode())
                self.chan.exit(1)
            except (BrokenPipeError, OSError):
                pass
        self.chan = None

    # -- the app -------------------------------------------------------------------------------

    async def _run(self) -> None:
        server, config = self.server, self.server.config
        home = self.player.home
        if self._ending is not None or self.chan is None:  # gone before we began
            server.sessions.discard(self)
            self._forget()
            return
        try:
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
            columns, rows = clamp_size(*self.chan.get_terminal_size()[:2])
            lobby = server.session_host.lobby_seat(self.user, self.player.guest, server.lobby_source(self.peer))
            self.token = lobby[1] if lobby else None
            env = session_env(config, self.player, self.chan.get_terminal_type(), dict(self.chan.get_environment()),
                              lobby)
            memory = config.sessions.memory_mb * 1024 * 1024 if config.sessions.memory_mb else None
            self.app = PtyApp(config.app_argv, env, columns, rows, self._output, cwd=str(home),
                              memory_bytes=memory, on_input_pressure=self._input_pressure, host=server.session_host)
            await self.app.start()
            if self._ending is not None:  # the player left while the app was starting
                await self.app.hang_up(config.sessions.grace_seconds)
                return
            self.app.write(bytes(self._typeahead))
            self._typeahead.clear()
            self.last_input = time.monotonic()  # idle time counts from a running game
        except OSError as error:
            server.sessions.discard(self)
            self._log("failed", reason=f"could not start the app: {error}")
            self._close(1, "the server could not start a game; try again later")
            self._forget()
            return
        self._log("login", port=self.connection.port, key=self.player.key,
                  guest=self.player.typed if self.player.guest else None,
                  sessions=f"{len(server.sessions)}/{server.most_sessions}", start=self.app.started_by)
        try:
            status = await self.app.wait()
        finally:
            server.sessions.discard(self)
        if self._ending is None:  # the player quit: pass the app's exit status on
            self._log("quit", status=status, after=elapsed(time.monotonic() - self.began))
            self._close(status if status >= 0 else 1,
                        None if status == 0 else "the game ended unexpectedly; your last save is kept")
        self._forget()

    def _forget(self) -> None:
        """A guest leaves nothing behind (and no session keeps its lobby secret)."""
        if self.token is not None:
            self.server.session_host.revoke(self.token)
            self.token = None
        if self.player.guest:
            shutil.rmtree(self.player.home, ignore_errors=True)

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
            if self.app is not None:
                self.chan.write(TERMINAL_RESET)
            if line:
                # The client's terminal is in raw mode: a bare \n would not return the carriage.
                self.chan.write(f"\r\ntui-games: {line}\r\n".encode())
            self.chan.exit(status)
            self.closed_channel = self.chan
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
        self._log("hangup", reason=reason, after=elapsed(time.monotonic() - self.began))
        if self.app is not None:
            if self.chan is None:
                # A paused reader would leave the app stuck writing its last frames.
                self.app.resume_output()
            await self.app.hang_up(config.sessions.grace_seconds)
        self.server.sessions.discard(self)
        self._close(0, f"{reason}; your game is saved. Goodbye." if not self.player.guest else f"{reason}. Goodbye.")
        if self._runner is None or self._runner.done():
            self._forget()

    # -- traffic -------------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype) -> None:
        self.last_input = time.monotonic()
        if self.app is not None and self.app.pgid is not None:
            self.app.write(data)
        else:
            self._typeahead += data
            if len(self._typeahead) > INPUT_HIGH:
                self._input_pressure(True)

    def _input_pressure(self, full: bool) -> None:
        """The app is not taking keys as fast as they come: stop reading the channel (the
        client's window fills and it waits) until it catches up. The server holds at most
        about INPUT_HIGH bytes of a player's keys."""
        if self.chan is None or full == self._reading_paused:
            return
        self._reading_paused = full
        try:
            self.chan.pause_reading() if full else self.chan.resume_reading()
        except (OSError, asyncssh.Error):
            pass

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.app is not None:
            self.app.resize(*clamp_size(width, height))

    def pause_writing(self) -> None:
        self._writing_paused = True
        if self.app is not None:
            self.app.pause_output()

    def resume_writing(self) -> None:
        self._writing_paused = False
        if self.app is not None:
            self.app.resume_output()
        if self._on_room is not None:
            self._on_room()

    def eof_received(self) -> bool:
        if self.accepted:
            self.end("the client closed its input")
        return True  # stay half open to say goodbye

    def connection_lost(self, exc) -> None:
        self.chan = None
        if self.connection.refusal:
            # Told why it may not play: closed now, not left holding one of the server's
            # connections for its client to keep (it is not counted as its player's).
            asyncio.get_running_loop().call_soon(self.connection.close)
        if self.command is not None and self._runner is not None:  # a `watch` or `events` stream
            self._runner.cancel()
        if self.accepted and (self.app is None or self.app.returncode is None):
            self.end("disconnected")


def serve(config: SSHConfig) -> None:
    """Run the server until SIGINT, SIGTERM or SIGHUP; then every session is hung up (and so
    saved) before the process ends."""
    require_asyncssh()
    asyncio.run(_serve(config))


async def _serve(config) -> None:
    server = GameServer(config)
    await run_until_signal(server, config.log, lambda: len(server.sessions))
