"""Who may open one more connection, so that a real person wins against a storm of strangers.

A connection not yet playing (not authenticated, or authenticated without a session) is a
**startup**. Startups are judged by their progress, not only counted:

- **Stale**: one that has sent no SSH version string within ``version_seconds``, or has not
  tried to log in within ``auth_seconds``. A real client sends its version at once and tries
  a key some four round trips later: a fraction of a second nearby, seconds over a satellite
  or a poor mobile link or to a server starved of CPU, so the limits leave room for both.
- **Eviction, not refusal**: a newcomer that finds its source at its cap closes that source's
  stalest stale startup instead of being refused; one that finds the server ``full`` closes
  a stale startup or one that has not tried to log in from a source that owes at least as
  much as its own (the most indebted source's first): a storm's connections make room for a
  person from a clean address, never the other way round. Under pressure (``start``
  startups or more) ``sweep`` closes every stale one. Only when nothing can go is a newcomer
  refused.
- **Penalties that add up** (after sshd's ``PerSourcePenalties``): a source owes seconds for
  every connection it wasted — ``stale`` for one dropped as stale (sshd's grace-exceeded),
  ``auth_fail`` for a wrong key, ``unused`` for one dropped or
  closed without trying to log in, ``refused`` for one turned away (at its cap, or while
  penalised: a storm that keeps knocking stays out) — which run down in real time; while it
  owes more than ``threshold`` its new connections are refused at once. A source never owes
  more than ``max_penalty``.
- **Sources**: an IPv4 address; for IPv6 a /64, as sshd counts, and its /48 as a **network**
  whose startups are capped at ``per_network`` and whose penalties (the sum of its /64s')
  refuse the whole /48 past ``network_factor`` × ``threshold``.
- **Shares**: once half of ``full`` is taken, a source may hold ``per_source`` startups, or
  ``per_trusted_source`` if someone logged in from it within ``trust_seconds`` (bots and
  players behind one address are not a crowd of strangers); below that there is room for all.
- **Total**: at most ``max_connections`` connections of any kind.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import time
from dataclasses import dataclass, field
from typing import Callable

try:
    import resource
except ImportError:  # pragma: no cover - not on every platform
    resource = None  # type: ignore[assignment]

FORGET_AFTER = 65536  # remembered sources past this many: the paid-up ones are forgotten


@functools.lru_cache(maxsize=4096)
def source_of(address: str) -> str:
    """The unit the per-source limits count: the address, or its /64 for IPv6. Kept for the
    last few thousand addresses: a login counts its address's places among every open
    session's (parsing each was 0.8 ms of the server's CPU a login at 100 players)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def network_of(address: str) -> str | None:
    """The /48 of an IPv6 address (one site), None for IPv4."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/48", strict=False))
    return None


@dataclass
class Limits:
    start: int = 10  # startups from which stale ones are swept
    full: int = 100  # startups at most
    per_source: int = 8
    per_trusted_source: int = 64
    per_network: int = 32  # IPv6 /48
    max_connections: int = 300
    version_seconds: float = 3.0
    auth_seconds: float = 10.0
    auth_fail: float = 5.0
    unused: float = 2.0
    stale: float = 10.0
    refused: float = 1.0
    threshold: float = 15.0
    network_factor: float = 4.0
    max_penalty: float = 600.0
    trust_seconds: float = 600.0


@dataclass(eq=False)
class Startup:
    """One admitted connection, as admission sees it. ``has_version`` tells whether the client
    has sent its SSH version string; ``close`` drops the connection (when it is evicted)."""

    address: str
    source: str
    network: str | None
    opened: float
    has_version: Callable[[], bool] = lambda: False
    close: Callable[[], None] = lambda: None
    tried: bool = False  # tried to log in
    waiting: bool = True  # still a startup (not playing, not gone)
    evicted: bool = False

    def stale(self, now: float, limits: Limits) -> bool:
        if not self.waiting or self.tried:
            return False
        age = now - self.opened
        return age > limits.auth_seconds or (age > limits.version_seconds and not self.has_version())

    def rank(self) -> tuple[bool, float]:
        """Evicted first: no version string yet, then the oldest."""
        return self.has_version(), self.opened


@dataclass
class Admission:
    """The server calls ``admit`` on connect, ``tried`` at the first login attempt, ``started``
    when a game (or command) starts, ``closed`` when the connection goes, ``sweep`` now and then."""

    limits: Limits = field(default_factory=Limits)
    clock: Callable[[], float] = time.monotonic
    connections: int = 0
    waiting: set[Startup] = field(default_factory=set)
    by_source: dict[str, int] = field(default_factory=dict)
    by_network: dict[str, int] = field(default_factory=dict)
    owed_until: dict[str, float] = field(default_factory=dict)
    trusted_until: dict[str, float] = field(default_factory=dict)
    evictions: int = 0

    @property
    def startups(self) -> int:
        return len(self.waiting)

    def admit(self, address: str, has_version: Callable[[], bool] = lambda: False,
              close: Callable[[], None] = lambda: None) -> Startup | str:
        """Count a new connection from ``address``: its Startup, or why it is refused."""
        limits, source, network = self.limits, source_of(address), network_of(address)
        now = self.clock()
        owed = max(0.0, self.owed_until.get(source, 0.0) - now)
        if owed > limits.threshold:
            self.penalise(source, limits.refused)  # knocking again while refused: still wasting
            return f"penalised for {owed:.0f} s after connections that never logged in"
        if network is not None:
            network_owed = self.owed_until.get(network, 0.0) - now
            if network_owed > limits.threshold * limits.network_factor:
                return f"network {network} penalised for {network_owed:.0f} s after connections that never logged in"
        if self.connections >= limits.max_connections and not self._evict(now):
            return f"too many connections ({limits.max_connections})"
        cap = limits.per_trusted_source if self.trusted_until.get(source, 0.0) > now else limits.per_source
        crowded = self.startups >= limits.full // 2  # room for everyone below: no shares to keep
        if crowded and self.by_source.get(source, 0) >= cap and not self._evict(now, lambda s: s.source == source):
            self.penalise(source, limits.refused)
            return f"too many connections not yet playing from this address ({cap})"
        if crowded and network is not None and self.by_network.get(network, 0) >= limits.per_network \
                and not self._evict(now, lambda s: s.network == network):
            self.penalise(network, limits.refused)
            return f"too many connections not yet playing from {network} ({limits.per_network})"
        if self.startups >= limits.full and not self._evict(now, owing=owed):
            self.penalise(source, limits.refused)
            return f"too many connections not yet playing ({limits.full})"
        startup = Startup(address, source, network, now, has_version, close)
        self.connections += 1
        self.waiting.add(startup)
        self._count(startup, +1)
        return startup

    def tried(self, startup: Startup) -> None:
        """The client tried to log in: it is making progress, never stale from now."""
        startup.tried = True

    def started(self, startup: Startup) -> None:
        """Logged in and playing (or running a command): no longer a startup; its source is trusted."""
        if self._leave(startup):
            now = self.clock()
            self.trusted_until[startup.source] = now + self.limits.trust_seconds
            if len(self.trusted_until) > FORGET_AFTER:
                self.trusted_until = {s: t for s, t in self.trusted_until.items() if t > now}

    def closed(self, startup: Startup, *, failed_auth: bool) -> None:
        """A counted connection ended; one that never logged in costs its source."""
        self.connections = max(0, self.connections - 1)
        if self._leave(startup) and not startup.evicted:
            self._charge(startup, self.limits.auth_fail if failed_auth else self.limits.unused)

    def sweep(self) -> int:
        """Under pressure, drop every stale startup; how many."""
        if self.startups < self.limits.start:
            return 0
        now = self.clock()
        stale = [startup for startup in self.waiting if startup.stale(now, self.limits)]
        for startup in stale:
            self._drop(startup, self.limits.stale)
        return len(stale)

    def penalise(self, source: str, seconds: float) -> None:
        now = self.clock()
        owed_until = max(self.owed_until.get(source, 0.0), now) + seconds
        self.owed_until[source] = min(owed_until, now + self.limits.max_penalty)
        if len(self.owed_until) > FORGET_AFTER:
            self.owed_until = {s: t for s, t in self.owed_until.items() if t > now}

    def owes(self, address: str) -> float:
        return max(0.0, self.owed_until.get(source_of(address), 0.0) - self.clock())

    def _evict(self, now: float, which: Callable[[Startup], bool] = lambda startup: True, *,
               owing: float | None = None) -> bool:
        """Drop one startup that ``which`` accepts and is stale — or, given ``owing`` (what the
        newcomer's source owes), one that has not tried to log in from a source owing at least
        as much: the one whose source owes most, then the stalest. Whether there was one."""
        def owed(startup: Startup) -> float:
            return max(0.0, self.owed_until.get(startup.source, 0.0) - now)

        found = [startup for startup in self.waiting if which(startup) and (
            startup.stale(now, self.limits) or (owing is not None and not startup.tried and owed(startup) >= owing))]
        if not found:
            return False
        victim = min(found, key=lambda startup: (-owed(startup), not startup.stale(now, self.limits),
                                                 *startup.rank()))
        self._drop(victim, self.limits.stale if victim.stale(now, self.limits) else self.limits.unused)
        return True

    def _drop(self, startup: Startup, cost: float) -> None:
        self.evictions += 1
        startup.evicted = True
        self._leave(startup)  # its connection is counted until ``closed``
        self._charge(startup, cost)
        startup.close()

    def _charge(self, startup: Startup, seconds: float) -> None:
        self.penalise(startup.source, seconds)
        if startup.network is not None:
            self.penalise(startup.network, seconds)

    def _leave(self, startup: Startup) -> bool:
        if not startup.waiting:
            return False
        startup.waiting = False
        self.waiting.discard(startup)
        self._count(startup, -1)
        return True

    def _count(self, startup: Startup, change: int) -> None:
        for counts, key in ((self.by_source, startup.source), (self.by_network, startup.network)):
            if key is None:
                continue
            left = counts.get(key, 0) + change
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


# -- the machine's resources, for both servers -----------------------------------------------------

def machine_memory_mb() -> int | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    except (ValueError, OSError, AttributeError):
        return None


def default_memory_total_mb() -> int | None:
    """75% of the machine's memory: what all sessions together may reserve."""
    total = machine_memory_mb()
    return total * 3 // 4 if total else None


def session_cap(max_sessions: int, memory_mb: int | None, memory_total_mb: int | None) -> int:
    """Sessions at once: ``max_sessions``, or fewer if their memory caps would pass the total."""
    if memory_mb and memory_total_mb:
        return max(1, min(max_sessions, memory_total_mb // memory_mb))
    return max_sessions


def raise_open_file_limit() -> tuple[int, int] | None:
    """Raise this process's open-file limit to its hard limit; the (old, new) soft limits."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > 1 << 20:
        hard = max(soft, 1 << 20) if soft != resource.RLIM_INFINITY else soft
    if soft == resource.RLIM_INFINITY or soft >= hard:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    except (ValueError, OSError):
        return soft, soft
    return soft, hard
