"""Who may open one more connection: sshd's answers to connection storms, in one small class.

- **Startups** are connections that have not yet started a game (not authenticated, or
  authenticated without a session). Past ``start`` of them, a new one is dropped with a
  probability rising from ``rate``% to 100% at ``full`` (sshd's ``MaxStartups 10:30:100``);
  one source address may hold at most ``per_source`` of them (``PerSourceMaxStartups``).
- **Penalties** (sshd's ``PerSourcePenalties``): a source whose connection ended without a
  login collects seconds of penalty — ``auth_fail`` for one that offered a wrong key, ``no_auth``
  for one that never tried — which run down in real time; while a source owes more than
  ``threshold`` seconds its new connections are refused at once. A source never owes more
  than ``max_penalty``.
- **Total**: at most ``max_connections`` connections of any kind.

IPv6 sources are grouped by their /64, as sshd does, so one host cannot dodge the per-source
limits by cycling addresses.
"""

from __future__ import annotations

import ipaddress
import os
import random
import time
from dataclasses import dataclass, field
from typing import Callable

try:
    import resource
except ImportError:  # pragma: no cover - not on every platform
    resource = None  # type: ignore[assignment]


def source_of(address: str) -> str:
    """The unit the per-source limits count: the address, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class Limits:
    start: int = 10
    rate: int = 30  # percent
    full: int = 100
    per_source: int = 5
    max_connections: int = 300
    auth_fail: float = 5.0
    no_auth: float = 1.0
    threshold: float = 15.0
    max_penalty: float = 600.0


@dataclass
class Admission:
    """The counts behind the limits; the server calls ``admit`` on connect, ``started`` when a
    game starts, ``closed`` when the connection goes."""

    limits: Limits = field(default_factory=Limits)
    clock: Callable[[], float] = time.monotonic
    rng: random.Random = field(default_factory=random.Random)
    connections: int = 0
    startups: int = 0
    by_source: dict[str, int] = field(default_factory=dict)
    owed_until: dict[str, float] = field(default_factory=dict)

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address`` and return None, or say why it is refused."""
        limits, source = self.limits, source_of(address)
        now = self.clock()
        owed = self.owed_until.get(source, 0.0) - now
        if owed > limits.threshold:
            return f"penalised for {owed:.0f} s after failed logins"
        if self.connections >= limits.max_connections:
            return f"too many connections ({limits.max_connections})"
        if self.by_source.get(source, 0) >= limits.per_source:
            return f"too many connections not yet playing from this address ({limits.per_source})"
        if self.startups >= limits.full:
            return f"too many connections not yet playing ({limits.full})"
        if self.startups >= limits.start:
            share = (self.startups - limits.start) / max(1, limits.full - limits.start)
            chance = limits.rate / 100 + (1 - limits.rate / 100) * share
            if self.rng.random() < chance:
                return f"random early drop at {self.startups} connections not yet playing"
        self.connections += 1
        self.startups += 1
        self.by_source[source] = self.by_source.get(source, 0) + 1
        return None

    def started(self, address: str) -> None:
        """The connection's game started: it no longer counts as a startup."""
        self._leave_startup(source_of(address))

    def closed(self, address: str, *, was_startup: bool, failed_auth: bool, tried_auth: bool) -> None:
        """A counted connection ended; one that never logged in earns its source a penalty."""
        source = source_of(address)
        self.connections = max(0, self.connections - 1)
        if was_startup:
            self._leave_startup(source)
            if failed_auth or not tried_auth:
                self.penalise(source, self.limits.auth_fail if failed_auth else self.limits.no_auth)

    def penalise(self, source: str, seconds: float) -> None:
        now = self.clock()
        owed_until = max(self.owed_until.get(source, 0.0), now) + seconds
        self.owed_until[source] = min(owed_until, now + self.limits.max_penalty)
        if len(self.owed_until) > 65536:  # forget the paid-up ones
            self.owed_until = {s: t for s, t in self.owed_until.items() if t > now}

    def owes(self, address: str) -> float:
        return max(0.0, self.owed_until.get(source_of(address), 0.0) - self.clock())

    def _leave_startup(self, source: str) -> None:
        self.startups = max(0, self.startups - 1)
        left = self.by_source.get(source, 0) - 1
        if left > 0:
            self.by_source[source] = left
        else:
            self.by_source.pop(source, None)


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
