"""An app's process, from its side of the fork: the environment it is given, its limits, and
the signals that end it; for the session host (host.py) and the zygote (zygote.py), which must
set a child up the same way whichever of them starts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import termios
from pathlib import Path
from typing import Protocol

from tui_games.userdata import player_files

try:
    import resource
except ImportError:  # pragma: no cover - not on every platform
    resource = None  # type: ignore[assignment]

try:  # Linux's prctl, looked up now: a child may call only what is loaded before the fork
    import ctypes
    import ctypes.util

    _prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None  # type: ignore[assignment]
# Where `-m tui_games` is found (resolved once: a resolve walks the path with a syscall a part).
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def child_env(home: Path, term: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a player's app: built afresh, never the server's own; ``extra`` adds
    what one server gives (a player's name, the lobby, textual-serve's driver)."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "TERM": term,
        player_files.HOME_ENV: str(home),
        # Every file the player names stays in their own folder (player_files.py).
        player_files.SERVED_ENV: "1",
        # So `-m tui_games` finds the package even when the server runs from a source tree.
        "PYTHONPATH": PACKAGE_ROOT,
        "PYTHONUTF8": "1",
        # glibc reserves 64 MB of address space per malloc arena (one per engine thread, up
        # to 8 a core): under the --memory-mb cap that reserve, not real use, would run out.
        "MALLOC_ARENA_MAX": "2",
    }
    env.update(extra or {})
    return env


def cap_memory(memory_bytes: int | None) -> None:
    """Cap this process's address space (RLIMIT_AS); for a child between fork and exec, so
    only already-imported calls. A cap the OS refuses is skipped: the game runs, only without
    the cap."""
    if memory_bytes and resource is not None:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        except (ValueError, OSError):
            pass


def apply_limits(*, tty: bool, memory_bytes: int | None, hang_up_with: int | None) -> None:
    """In the app's process, after ``setsid`` and with its descriptors 0-2 in place: the pty on
    stdin as controlling terminal (so the kernel sends SIGWINCH and the hang-up), the memory
    cap, and SIGHUP when process ``hang_up_with`` (the server) dies, even by SIGKILL, for an app
    on pipes that no pty would hang up."""
    if tty:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    cap_memory(memory_bytes)
    if hang_up_with is not None and _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGHUP)
        if os.getppid() != hang_up_with:  # it died before the line above
            os._exit(1)


def become_subreaper() -> bool:
    """Apps forked by the zygote become this process's children if the zygote dies, so their
    exit status is still ours to read (Linux only)."""
    return _prctl is not None and _prctl(PR_SET_CHILD_SUBREAPER, 1) == 0


def die_with_parent(signum: int = signal.SIGKILL) -> None:
    """This process gets ``signum`` when its parent dies, even by SIGKILL (Linux only)."""
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, signum)


def resident_of(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MB, from /proc/PID/statm: counters the kernel keeps
    as it goes (smaps_rollup walks the page tables, about 0.5 ms a process). Never less than
    the process's PSS. None if it is gone."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            pages = int(handle.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * PAGE_BYTES / (1024 * 1024)


def memory_of(pid: int) -> tuple[float, float] | None:
    """(PSS, private) of process ``pid`` in MB, from /proc/PID/smaps_rollup; None if gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            text = handle.read()
    except OSError:
        return None
    fields: dict[bytes, int] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(b":")
        if name in (b"Pss", b"Private_Clean", b"Private_Dirty"):
            fields[name] = int(rest.split()[0])
    if b"Pss" not in fields:
        return None
    return fields[b"Pss"] / 1024, (fields.get(b"Private_Clean", 0) + fields.get(b"Private_Dirty", 0)) / 1024


class Child(Protocol):
    """A started app, as asyncio's Process or a zygote's fork: its pid, its exit status once
    it has gone, and a wait for it."""

    pid: int

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


async def hang_up_group(child: Child, grace: float) -> None:
    """SIGHUP to the app's group (it saves and exits), SIGKILL after ``grace`` seconds, and
    SIGKILL to anything left in the group once the app is gone."""
    if child.returncode is None:
        signal_group(child.pid, signal.SIGHUP)
        # As the kernel does on a hang-up: a stopped process must run to see the SIGHUP.
        signal_group(child.pid, signal.SIGCONT)
        try:
            await asyncio.wait_for(asyncio.shield(child.wait()), grace)
        except asyncio.TimeoutError:
            signal_group(child.pid, signal.SIGKILL)
            await child.wait()
    signal_group(child.pid, signal.SIGKILL)


def signal_group(pgid: int | None, signum: int) -> None:
    if pgid is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)
