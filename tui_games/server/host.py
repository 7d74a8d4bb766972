"""The session host both servers share: who may have a seat, what each app process is given,
how it is started, watched and hung up.

``serve --ssh`` and ``serve --web`` differ in how a player reaches their app (an SSH channel
and a pty, a websocket and pipes) and in who the player is (a key's name, or whoever runs a
web server); everything else about a session is written here once:

- **seats**: ``--max-sessions`` places, at most ``--sessions-per-player`` of them for one
  player and ``--address-share`` percent of them for one address (so one player, or one
  house, cannot take every place), and no new one while the apps' measured memory (their
  proportional share, PSS, read from /proc) and one more session's would pass
  ``--memory-total-mb`` (measured by the resident sizes, which bound the PSS and cost
  nothing to read, while those leave room; by the PSS, which walks each app's page tables,
  once they come near). The per-session address-space cap (``--memory-mb``, RLIMIT_AS) stays
  as a guard against one runaway app; it no longer decides how many may play.
- **the child's environment and limits**: built afresh, never the server's own, and set the
  same way whether the app is forked from the zygote or started fresh (child.py);
- **the idle watchdog**: a session without a key for ``--idle-minutes`` is hung up (saved);
- **the start**: through the pre-started app (zygote.py) when it is up, else a fresh
  ``python -m tui_games`` process, and the log says which.

A server adds its sessions to :attr:`SessionHost.sessions` once admitted and removes them when
they end; a session is anything with the :class:`Hosted` attributes.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from tui_games.server.child import Child, apply_limits, become_subreaper, memory_of, resident_of
from tui_games.server.limits import default_memory_total_mb, source_of
from tui_games.server.log import duration, server_event
from tui_games.server.zygote import Zygote

try:
    import resource
except ImportError:  # pragma: no cover - not on every platform
    resource = None  # type: ignore[assignment]

# What a new session is expected to take (PSS, MB) until sessions have been measured: a fresh
# app at the menu is ~45 MB resident and 32 MB PSS, one forked from the zygote 20 MB PSS, and
# a Connect-4 search takes an app to ~80 MB resident (bench capacity, docs/serving.md).
SESSION_ESTIMATE_MB = 64
# How often the apps' memory is measured (and idle sessions looked for), at most.
WATCH_SECONDS = 5.0
# Descriptors the server holds for one session (client socket, pty or three pipes, pidfd):
# the open-file limit bounds the places too.
FILES_PER_SESSION = 6
FILES_RESERVED = 64
# However small the share, one address may have this many places (a family behind one router).
HOUSEHOLD = 4


class Hosted(Protocol):
    """What the host needs of a session: who plays, from where, their app's pid, when they
    last pressed a key, and how to hang them up (saving)."""

    user: str | None  # None: no identity (the web server)
    peer: str
    last_input: float

    @property
    def pid(self) -> int | None: ...

    def end(self, reason: str) -> asyncio.Task: ...


class LobbyHub(Protocol):
    """The lobby's socket as the host sees it (lobby/hub_socket.py): it lets in an app that
    shows a secret issued for its player."""

    path: Path

    def issue(self, token: str, player: str, guest: bool, source: str | None = None) -> None: ...

    def revoke(self, token: str) -> None: ...


@dataclass(frozen=True)
class SessionLimits:
    """The limits on a server's sessions, the same for SSH and the web (``serve``'s flags of
    the same names): one definition, so a limit added for one front end is there for both."""

    max_sessions: int = 32
    idle_seconds: float = 30 * 60
    memory_mb: int | None = 1024  # per session (RLIMIT_AS), a guard; None or 0: no cap
    memory_total_mb: int | None = field(default_factory=default_memory_total_mb)  # measured use, all sessions
    grace_seconds: float = 3.0  # between SIGHUP and SIGKILL
    # The web has no player names: there only the per-address share applies.
    sessions_per_player: int = 3
    address_share: int = 25  # percent of the places one address may hold

    @classmethod
    def split(cls, options: dict[str, Any]) -> tuple[SessionLimits, dict[str, Any]]:
        """(the limits among ``options``, the rest): for callers that take both as keywords."""
        names = {f.name for f in fields(cls)}
        limits = cls(**{k: v for k, v in options.items() if k in names})
        return limits, {k: v for k, v in options.items() if k not in names}


# -- how many may play --------------------------------------------------------------------------

def open_file_limit() -> int | None:
    if resource is None:
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


@dataclass(frozen=True)
class Places:
    """The places a server offers: ``most`` sessions at once, and if that is fewer than asked
    for, ``why`` (a line naming the flag that raises it)."""

    most: int
    why: str | None = None


def places(max_sessions: int, memory_total_mb: int | None, files: int | None) -> Places:
    """``max_sessions``, or fewer if the memory total cannot hold that many sessions of the
    expected size, or the open-file limit that many connections."""
    most, why = max_sessions, None
    if memory_total_mb:
        by_memory = max(1, memory_total_mb // SESSION_ESTIMATE_MB)
        if by_memory < most:
            most, why = by_memory, (
                f"--max-sessions {max_sessions} lowered to {by_memory}: --memory-total-mb {memory_total_mb} "
                f"holds {by_memory} sessions of about {SESSION_ESTIMATE_MB} MB; raise --memory-total-mb")
    if files:
        by_files = max(1, (files - FILES_RESERVED) // FILES_PER_SESSION)
        if by_files < most:
            most, why = by_files, (
                f"--max-sessions {max_sessions} lowered to {by_files}: the open-file limit is {files}; "
                f"raise it (ulimit -n, systemd LimitNOFILE=)")
    return Places(most, why)


def address_places(places: int, percent: int) -> int:
    """Places one address may hold: ``percent`` of them, but never fewer than a household's
    (:data:`HOUSEHOLD`) while there are that many."""
    return min(places, max(HOUSEHOLD, math.floor(places * percent / 100)))


# -- the host ----------------------------------------------------------------------------------

class SessionHost:
    """The sessions of one server, their seats, their watchdog, and how their apps start."""

    def __init__(self, limits: SessionLimits, log: Callable[[str], None], *,
                 preload_env: dict[str, str] | None = None, zygote: bool = True) -> None:
        self.limits = limits
        self.log = log
        self.sessions: set = set()
        self.measured: dict[int, float] = {}  # pid -> MB at the last look: its PSS, or a bound of it
        self.exact = False  # whether the last look read the PSS
        # The lobby, for a server that has one and knows who its players are (the SSH server;
        # the web server has no names, so its tabs have no seat in the lobby).
        self.hub: LobbyHub | None = None
        self.places = places(limits.max_sessions, limits.memory_total_mb, open_file_limit())
        self.zygote = None
        if zygote and sys.platform.startswith("linux"):
            self.zygote = Zygote(log, preload_env or {})
        self._watch_task: asyncio.Task | None = None

    @property
    def most_sessions(self) -> int:
        return self.places.most

    async def start(self) -> None:
        """Start the watchdog and the zygote (logins use fresh processes until it is up);
        if the places are fewer than asked for, say why on stderr and in the log."""
        # Counted again now: the server has raised its open-file limit since.
        self.places = places(self.limits.max_sessions, self.limits.memory_total_mb, open_file_limit())
        if self.places.why:
            print(f"tui-games: {self.places.why}", file=sys.stderr)
            self.log(server_event("limited", reason=self.places.why))
        if self.zygote is not None:
            become_subreaper()
            self.zygote.start()
        self._watch_task = asyncio.create_task(self._watch())

    async def close(self, reason: str) -> list:
        """Hang every session up at once (each saves) and wait; stop the zygote."""
        if self._watch_task is not None:
            self._watch_task.cancel()
        sessions = list(self.sessions)
        await asyncio.gather(*(session.end(reason) for session in sessions), return_exceptions=True)
        if self.zygote is not None:
            await self.zygote.close()
        return sessions

    def listening_fields(self, *, names: bool = True) -> dict[str, object]:
        """What the ``listening`` line says of the places and memory (``names``: whether the
        server knows its players, so the per-player seats apply)."""
        config = self.limits
        memory = []
        if config.memory_total_mb:
            memory.append(f"{config.memory_total_mb} MB in all (measured)")
        if config.memory_mb:
            memory.append(f"at most {config.memory_mb} MB a session")
        return {"players": f"{self.most_sessions} at a time",
                "per_player": config.sessions_per_player if names else None,
                "per_address": f"{config.address_share}%",
                "memory": ", ".join(memory) or "no memory cap",
                "start": "zygote" if self.zygote is not None else "fresh"}

    # -- the lobby -----------------------------------------------------------------------------

    def lobby_seat(self, user: str, guest: bool, source: str | None = None) -> tuple[str, str] | None:
        """(the lobby socket's path, a secret for this session alone) letting one app speak to
        the lobby as ``user`` (from ``source``: limits.source_of), or None without a lobby;
        :meth:`revoke` the secret when it ends."""
        if self.hub is None:
            return None
        token = secrets.token_urlsafe(24)
        self.hub.issue(token, user, guest, source)
        return str(self.hub.path), token

    def revoke(self, token: str) -> None:
        if self.hub is not None:
            self.hub.revoke(token)

    # -- seats ---------------------------------------------------------------------------------

    def refusal(self, user: str | None, address: str) -> str | None:
        """Why one more session for ``user`` from ``address`` cannot have a place now, or None.
        The caller adds the session to :attr:`sessions` at once if None (two logins at once
        cannot both take the last place)."""
        config, most = self.limits, self.most_sessions
        if len(self.sessions) >= most:
            busy = "busy" if most < config.max_sessions else "full"
            return f"the server is {busy} ({most} player{'s' if most != 1 else ''} at a time); try again later"
        if user is not None:
            mine = sum(1 for session in self.sessions if session.user == user)
            if mine >= config.sessions_per_player:
                return (f"{user} already has {mine} session{'s' if mine != 1 else ''} open "
                        f"(at most {config.sessions_per_player} a player); close one first")
        share = address_places(most, config.address_share)
        # IPv6 addresses count by their /64, as the connection limits do: one host has many.
        source = source_of(address)
        here = sum(1 for session in self.sessions if source_of(session.peer) == source)
        if here >= share:
            return (f"your address already has {here} of the {most} places (at most {share}, "
                    f"{config.address_share}%); try again later")
        if config.memory_total_mb:
            used, expected = self.memory_in_use()
            if used + expected > config.memory_total_mb and not self.exact:
                self.measure(exact=True)  # the bounds say full: the PSS decides
                used, expected = self.memory_in_use()
            if used + expected > config.memory_total_mb:
                return (f"the server is busy (its memory is in use: {len(self.sessions)} players, "
                        f"{used:.0f} of {config.memory_total_mb} MB); try again later")
        return None

    def memory_in_use(self) -> tuple[float, float]:
        """(MB the sessions and the zygote use now, MB one more session is expected to take):
        measured PSS where the watchdog has measured, the expectation for the others."""
        sizes = [self.measured[pid] for pid in self._pids() if pid in self.measured]
        expected = max(sum(sizes) / len(sizes), 8.0) if sizes else float(SESSION_ESTIMATE_MB)
        unmeasured = len(self.sessions) - len(sizes)
        zygote = self.zygote.pss_mb if self.zygote is not None else 0.0
        return sum(sizes) + unmeasured * expected + zygote, expected

    def _pids(self) -> list[int]:
        return [pid for session in self.sessions if (pid := session.pid) is not None]

    # -- the watchdog --------------------------------------------------------------------------

    async def _watch(self) -> None:
        limit = self.limits.idle_seconds
        period = min(limit / 4, WATCH_SECONDS) if limit and limit > 0 else WATCH_SECONDS
        while True:
            await asyncio.sleep(period)
            self.measure()
            if limit and limit > 0:
                now = time.monotonic()
                for session in list(self.sessions):
                    if session.pid is not None and now - session.last_input > limit:
                        session.end(f"no keys for {duration(limit)}")

    def measure(self, exact: bool = False) -> None:
        """Measure the apps' memory now (and the zygote's): their resident sizes, upper bounds
        of their PSS, while those leave room under ``--memory-total-mb``; else (or if
        ``exact``) their PSS, a walk of each one's page tables: about 50 ms of the server's CPU
        at 100 players, every WATCH_SECONDS, when done always."""
        total = self.limits.memory_total_mb
        if not total:  # nothing is decided on it
            return
        if not exact:
            self.measured = {pid: size for pid in self._pids() if (size := resident_of(pid)) is not None}
            if self.zygote is not None:
                self.zygote.measure(exact=False)
            self.exact = False
            used, expected = self.memory_in_use()
            if used + expected <= total:
                return
        measured = {}
        for pid in self._pids():
            sizes = memory_of(pid)
            if sizes is not None:
                measured[pid] = sizes[0]
        self.measured = measured
        if self.zygote is not None:
            self.zygote.measure(exact=True)
        self.exact = True


# -- starting an app ----------------------------------------------------------------------------

async def start_app(host: SessionHost | None, argv: Sequence[str], env: dict[str, str], cwd: str,
                    fds: tuple[int, int, int], *, tty: bool, memory_bytes: int | None,
                    hang_up_with: int | None = None) -> tuple[Child, str]:
    """Start an app on ``fds`` (stdin, stdout, stderr) in a session of its own: forked from the
    host's zygote when it is up, else a fresh ``argv`` process. Returns the child and how it
    started ("zygote-menu", "zygote" or "fresh"). Raises OSError if neither could."""
    zygote = host.zygote if host is not None else None
    if zygote is not None and zygote.ready:
        try:
            child = await zygote.spawn(env, cwd, fds, tty=tty, memory_bytes=memory_bytes,
                                       hang_up_with=hang_up_with)
            # "zygote-menu": it took over the zygote's app at its menu; "zygote": it built its own.
            return child, "zygote-menu" if child.took_menu else "zygote"
        except OSError as error:
            zygote.unusable(str(error))
    process = await asyncio.create_subprocess_exec(
        *argv, stdin=fds[0], stdout=fds[1], stderr=fds[2], env=env, cwd=cwd,
        start_new_session=True, close_fds=True,
        preexec_fn=lambda: apply_limits(tty=tty, memory_bytes=memory_bytes, hang_up_with=hang_up_with))
    return process, "fresh"


