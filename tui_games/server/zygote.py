"""The pre-started app: one process with Python, Textual, the game table and the engines
imported, forked for each login (as Android's zygote and gunicorn's ``--preload`` do).

A fresh ``python -m tui_games`` spends 0.4-0.6 CPU-seconds importing before its menu is drawn,
so four logins a second needed the whole 2-core machine. The zygote pays that once: it imports
everything a session uses, runs one app to its menu, to nowhere (tui_games.ui.runtime.rehearsal: what
every app works out the same way, the parsed CSS, a theme's colours, Textual's and Rich's caches,
is then made once), collects, fills the holes that left in its allocator's pools (so a child's
objects go to fresh pages rather than into thousands of shared ones, each then copied), and
``gc.freeze()``-s what it made (so no child's garbage collector ever writes to those pages,
which stay shared copy-on-write), and then only forks.

**The protocol** (a SOCK_SEQPACKET socket pair, so every message is whole): the server sends
``{"spawn": n, "env": ..., "cwd": ..., "tty": ..., "memory": ..., "hang_up": ...}`` with the
app's three descriptors (pty slave, or pipes) passed as SCM_RIGHTS, and for an app on pipes
(``hang_up``) a fourth, the read end of the server's *lifeline*: a pipe whose write end only
the server holds, so the app reads its end of file, and hangs itself up, when the server dies
(a pty does that for an SSH player's app; a parent-death signal would fire when the zygote,
its parent, dies, which must not end anyone's game); the zygote forks and
answers ``{"spawned": n, "pid": pid}`` with a pidfd for the child (so the server can watch it
with no race on a reused pid), and ``{"exit": pid, "status": s}`` when it reaps one.

**The child** starts from the zygote's clean state, never from another player's: it makes its
own session, puts the descriptors on 0-2 (the pty as controlling terminal), sets its memory
cap, replaces the whole environment with the one the server built, changes to the player's
directory, fresh ``sys.std*`` on its descriptors, and runs the app as ``python -m tui_games``
would. Nothing of one player reaches the next: the zygote itself never runs the app, reads a
player's files, or holds a player's environment (the server's tests prove it).

**Failure**: a zygote that dies (or stops answering within :data:`SPAWN_SECONDS`) is restarted,
after a pause that doubles while it keeps dying; meanwhile logins start fresh processes, and
the log says so (``zygote-died``, ``zygote-ready``, and ``start=fresh`` on the login line). If the
zygote dies, the apps it forked keep running (SSH's and the web's alike): the server, a child
subreaper, inherits them and still reads their exit status.
The zygote dies with the server (PR_SET_PDEATHSIG), and when its socket closes.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from tui_games.server.child import apply_limits, child_env, die_with_parent, memory_of, resident_of, signal_group
from tui_games.server.log import event

if TYPE_CHECKING:
    from tui_games.ui.runtime.standby import Standby

SPAWN_SECONDS = 5.0  # a fork answers in milliseconds; past this the zygote is taken as stuck
READY_SECONDS = 120.0  # importing everything on a loaded machine
RESTART_FIRST, RESTART_MOST = 0.5, 60.0  # seconds before a restart, doubling while it keeps dying
MAX_MESSAGE = 256 * 1024
SOCKET_FD_ENV = "TUI_GAMES_ZYGOTE_FD"
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # where `-m tui_games.server.zygote` is found


# What the zygote made before its first fork, as its ready line says it.
PREPARED = {"standby": "an app at its menu, which each login takes over",
            "rehearsal": "the menu rehearsed (each login builds its own app)"}


class ZygoteUnavailable(OSError):
    pass


def _send(sock: socket.socket, message: dict, fds: Sequence[int] = ()) -> None:
    data = json.dumps(message).encode()
    ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
    sock.sendmsg([data], ancillary)


def _receive(sock: socket.socket) -> tuple[dict | None, list[int]]:
    """One message and the descriptors that came with it; (None, []) at the end."""
    data, ancillary, _, _ = sock.recvmsg(MAX_MESSAGE, socket.CMSG_SPACE(8 * 4))
    fds = array.array("i")
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    return json.loads(data), list(fds)


# -- the server's side --------------------------------------------------------------------------

class ForkedApp:
    """An app the zygote forked, as the server sees it (the Child protocol of host.py)."""

    def __init__(self, pid: int, pidfd: int, *, took_menu: bool = False) -> None:
        self.pid, self.pidfd = pid, pidfd
        self.took_menu = took_menu  # it took over the zygote's app at its menu (else built its own)
        self.returncode: int | None = None
        self._done = asyncio.get_running_loop().create_future()
        self._exited = False
        asyncio.get_running_loop().add_reader(pidfd, self._on_exit)

    def _on_exit(self) -> None:
        """The process has ended: its status is ours to read if the zygote is gone (we are
        its subreaper), else the zygote's, which will tell us."""
        if self.pidfd < 0:
            return
        asyncio.get_running_loop().remove_reader(self.pidfd)
        self._exited = True
        self.reap()

    def reap(self) -> None:
        if self._done.done() or not self._exited:
            return
        try:
            result = os.waitid(os.P_PIDFD, self.pidfd, os.WEXITED | os.WNOHANG)
        except ChildProcessError:  # the zygote's child: its message comes
            return
        except OSError:
            result = None
        if result is not None:
            self.finish(result.si_status if result.si_code == os.CLD_EXITED else -result.si_status)

    def finish(self, status: int) -> None:
        if self._done.done():
            return
        self.returncode = status
        self._done.set_result(status)
        if self.pidfd >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = -1

    def lost(self) -> None:
        """The zygote died: reap it ourselves, or, if it reaped it and died before saying,
        end with an unknown status."""
        self.reap()
        if self._exited and not self._done.done():
            self.finish(-1)

    async def wait(self) -> int:
        return await asyncio.shield(self._done)


class Zygote:
    """The server's handle on its zygote process: start, spawn, restart, stop."""

    def __init__(self, log: Callable[[str], None], preload_env: dict[str, str]) -> None:
        self.log, self.preload_env = log, preload_env
        self.process: asyncio.subprocess.Process | None = None
        self.ready = False
        self.pss_mb = 0.0
        self.started = 0  # how many zygotes have been started
        self.children: dict[int, ForkedApp] = {}
        self._sock: socket.socket | None = None
        self._waiting: dict[int, asyncio.Future] = {}
        self._next = 0
        self._task: asyncio.Task | None = None
        self._closing = False
        self._ready_event = asyncio.Event()
        # Only this process holds the write end (os.pipe's ends are not inherited by children).
        self._lifeline_read, self._lifeline_write = os.pipe()

    def start(self) -> None:
        self._task = asyncio.create_task(self._keep_running())

    def environment(self, socket_fd: int, temporary: str) -> dict[str, str]:
        """The zygote's own environment: no player's, and what must be in place when a process
        starts rather than when the app does, since a fork does not start again: UTF-8 mode,
        glibc's arena cap (read when malloc starts; see child.child_env), where the package is,
        and what the server's kind of app needs before Textual is imported (``preload_env``).
        Its temporary files go to ``temporary``, a folder the server removes when the zygote
        ends: killed while it prepares (its parent gone, a restart), it cleans up nothing."""
        base = child_env(Path("/"), "dumb")
        keep = ("PATH", "PYTHONPATH", "PYTHONUTF8", "MALLOC_ARENA_MAX")
        return {**{name: base[name] for name in keep}, **self.preload_env, SOCKET_FD_ENV: str(socket_fd),
                "TMPDIR": temporary}

    async def wait_ready(self) -> None:
        await self._ready_event.wait()

    async def _keep_running(self) -> None:
        pause = RESTART_FIRST
        while not self._closing:
            began = time.monotonic()
            status = await self._run_once()
            if self._closing:
                return
            self.log(event("zygote-died", status=status, pid=self.process.pid if self.process else None,
                           restart=f"in {pause:g} s", meanwhile="logins start fresh processes"))
            await asyncio.sleep(pause)
            # One that lived a while was not crash-looping: the next failure waits briefly again.
            pause = RESTART_FIRST if time.monotonic() - began > 60 else min(pause * 2, RESTART_MOST)

    async def _run_once(self) -> int | str:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        temporary = tempfile.mkdtemp(prefix="tui-games-zygote-")
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui_games.server.zygote", env=self.environment(theirs.fileno(), temporary),
                cwd=str(PACKAGE_ROOT), pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                start_new_session=True, preexec_fn=die_with_parent)  # no orphan zygote keeps forking
        except OSError as error:
            ours.close()
            shutil.rmtree(temporary, ignore_errors=True)
            return f"could not start: {error}"
        finally:
            theirs.close()
        self.started += 1
        self._sock = ours
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        loop.add_reader(ours.fileno(), self._read)
        try:
            return await self.process.wait()
        finally:
            self._lost()
            shutil.rmtree(temporary, ignore_errors=True)

    def _read(self) -> None:
        sock = self._sock
        if sock is None:
            return
        try:
            message, fds = _receive(sock)
        except BlockingIOError:
            return
        except (OSError, ValueError):
            message, fds = None, []
        if message is None:  # the zygote closed its end: it is going
            self._lost()
            if self.process is not None and self.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
            return
        if "ready" in message:
            self.ready = True
            self._ready_event.set()
            self.log(event("zygote-ready", pid=self.process.pid if self.process else None,
                           imported=f"{message['ready']:.2f}s",
                           prepared=PREPARED.get(message.get("prepared", ""), "nothing: logins draw from cold")))
        elif "spawned" in message and fds:
            # Tracked at once: its exit may be the very next message.
            forked = self.children[message["pid"]] = ForkedApp(message["pid"], fds[0],
                                                               took_menu=bool(message.get("menu")))
            waiting = self._waiting.pop(message["spawned"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(forked)
            else:  # its login gave up waiting: nobody will play it
                signal_group(forked.pid, signal.SIGKILL)
        elif "failed" in message:
            waiting = self._waiting.pop(message["failed"], None)
            if waiting is not None and not waiting.done():
                waiting.set_exception(ZygoteUnavailable(message.get("error", "fork failed")))
        elif "exit" in message:
            child: ForkedApp | None = self.children.pop(message["exit"], None)
            if child is not None:
                child.finish(message["status"])

    def _lost(self) -> None:
        """The zygote is gone: no more spawns through it; its children are ours to reap."""
        self.ready = False
        self._ready_event.clear()
        if self._sock is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(ZygoteUnavailable("the zygote died"))
        self._waiting.clear()
        children, self.children = self.children, {}
        for child in children.values():
            child.lost()

    def unusable(self, why: str) -> None:
        """A spawn failed: say so (the login starts a fresh process)."""
        self.log(event("zygote-failed", reason=why, meanwhile="this login starts a fresh process"))

    async def spawn(self, env: dict[str, str], cwd: str, fds: tuple[int, int, int], *, tty: bool,
                    memory_bytes: int | None, hang_up_with: int | None) -> ForkedApp:
        if not self.ready or self._sock is None:
            raise ZygoteUnavailable("the zygote is not running")
        self._next += 1
        number = self._next
        answer = asyncio.get_running_loop().create_future()
        self._waiting[number] = answer
        try:
            hang_up = hang_up_with is not None
            _send(self._sock, {"spawn": number, "env": env, "cwd": cwd, "tty": tty, "memory": memory_bytes,
                               "hang_up": hang_up}, [*fds, *([self._lifeline_read] if hang_up else [])])
            return await asyncio.wait_for(answer, SPAWN_SECONDS)
        except asyncio.TimeoutError:
            # Stuck: killed, and so restarted.
            if self.process is not None and self.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
            raise ZygoteUnavailable(f"no answer within {SPAWN_SECONDS:g} s") from None
        except (OSError, ValueError) as error:
            raise ZygoteUnavailable(str(error)) from None
        finally:
            self._waiting.pop(number, None)

    def measure(self, exact: bool = True) -> None:
        """Its PSS, or (not ``exact``) its resident size, which bounds it (see SessionHost.measure)."""
        if self.process is not None and self.ready:
            if exact:
                sizes = memory_of(self.process.pid)
                self.pss_mb = sizes[0] if sizes else 0.0
            else:
                self.pss_mb = resident_of(self.process.pid) or 0.0

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self._lost()
        for fd in (self._lifeline_read, self._lifeline_write):
            with contextlib.suppress(OSError):
                os.close(fd)


# -- the zygote process -------------------------------------------------------------------------

def preload(online: bool) -> str:
    """Import everything a session uses (the app, every game's screen and engine, the parser),
    then build one app up to its menu, drawn to nowhere, for the children to take over
    (tui_games.ui.runtime.standby; with the lobby's entry if ``online``); if that fails, run one app
    to its menu and drop it, so that what every app works out the same way is worked out here
    (tui_games.ui.runtime.rehearsal). What was prepared: "standby", "rehearsal" or "nothing"."""
    import importlib

    from tui_games import cli
    from tui_games.games import GAMES
    from tui_games.ui.runtime import standby
    from tui_games.ui.runtime.rehearsal import rehearse

    global _STANDBY
    cli.build_parser()
    for spec in GAMES:
        for name in (spec.engine, spec.screen.partition(":")[0], spec.commands):
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
    _STANDBY = standby.prepare(online=online)
    if _STANDBY is not None:
        return "standby"
    return "rehearsal" if rehearse() else "nothing"


# The app built up to its menu that children take over (None: each builds its own).
_STANDBY: Standby | None = None
# Set in the zygote's environment when its apps have a lobby (the SSH server's do).
ONLINE_ENV = "TUI_GAMES_ZYGOTE_ONLINE"


# Objects that fill the free blocks of the zygote's allocator pools (see fill_allocator_holes).
_FILLERS: list[list[object]] = []


def allocator_holes() -> dict[int, int]:
    """Free blocks in pymalloc's partly used pools, by block size (CPython's own statistics,
    which it prints on file descriptor 2); {} where there are none to read."""
    stats = getattr(sys, "_debugmallocstats", None)
    if stats is None:
        return {}
    import re
    import tempfile

    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(out.fileno(), 2)
            stats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode("ascii", errors="replace")
    # "class size num-pools blocks-in-use avail-blocks", one line per size class
    return {int(size): int(free) for size, free in re.findall(r"^\s*\d+\s+(\d+)\s+\d+\s+\d+\s+(\d+)\s*$",
                                                                text, re.MULTILINE)}


def fill_allocator_holes(passes: int = 3) -> int:
    """Fill the free blocks the imports and the rehearsal left in partly used pools, with
    objects kept for good; how many.

    A child's first allocations would go into those holes, a few objects in each of thousands
    of the zygote's pages, and the first write to a shared page copies all of it: filled,
    its objects go to fresh pages, packed. Measured: 1.9 MB less private memory a session at
    the menu, and about 10% less CPU to it (fewer page copies). Reading the statistics makes
    a few holes of its own, so it is done again, a few times."""
    for _ in range(passes):
        holes = allocator_holes()
        fillers: list[object] = [None] * sum(holes.values())  # one allocation, not from the pools
        filled = 0
        for size, free in holes.items():
            for _ in range(free):
                if size <= 16:
                    fillers[filled] = object()
                elif size <= 32:  # a float is 24 bytes
                    fillers[filled] = float(filled) + 0.5
                else:  # a bytes object of n bytes takes 33 + n
                    fillers[filled] = bytes(size - 33)
                filled += 1
        _FILLERS.append(fillers)
        if filled < 100:
            break
    return sum(len(fillers) for fillers in _FILLERS)


def _child(request: dict, fds: list[int], sock: socket.socket, wakeup: int, takes_over: bool) -> None:
    """In the forked child: become the player's app (the prepared one if ``takes_over``), and
    never return."""
    status = 1
    try:
        sock.close()
        os.close(wakeup)
        signal.set_wakeup_fd(-1)
        for signum in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(signum, signal.SIG_DFL if signum != signal.SIGPIPE else signal.SIG_IGN)
        os.setsid()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        lifeline = fds[3] if request.get("hang_up") and len(fds) > 3 else None
        for fd in set(fds[:3]):
            if fd > 2 and fd != lifeline:
                os.close(fd)
        apply_limits(tty=request.get("tty", False), memory_bytes=request.get("memory"), hang_up_with=None)
        os.environ.clear()
        os.environ.update(request["env"])
        tempfile.tempdir = None  # the zygote's folder, gone when it is: found again from the player's env
        os.chdir(request["cwd"])
        # As a fresh interpreter's: on the player's descriptors (Textual writes to __stdout__).
        sys.stdin = sys.__stdin__ = open(0, "r", encoding="utf-8", closefd=False)  # type: ignore[misc]  # noqa: SIM115
        sys.stdout = sys.__stdout__ = open(  # type: ignore[misc]  # noqa: SIM115
            1, "w", buffering=1, encoding="utf-8", closefd=False)
        sys.stderr = sys.__stderr__ = open(  # type: ignore[misc]  # noqa: SIM115
            2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
        sys.argv = [sys.argv[0]]
        if lifeline is not None:
            _hang_up_when_closed(lifeline)
        import gc

        gc.enable()
        if takes_over and _STANDBY is not None:
            status = _STANDBY.run()
        else:  # a terminal or a session the prepared app was not made for: built afresh
            from tui_games.cli import main

            status = main([])
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        import traceback

        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)


def _hang_up_when_closed(fd: int) -> None:
    """SIGHUP to this process when ``fd`` (the lifeline's read end) reaches its end: the server
    is gone. The app saves and exits, as on any hang-up."""
    import threading

    os.set_inheritable(fd, False)

    def watch() -> None:
        with contextlib.suppress(OSError):
            while os.read(fd, 512):
                pass
        os.kill(os.getpid(), signal.SIGHUP)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


def _serve(sock: socket.socket) -> None:
    """Fork for every request until the server closes the socket; report every exit."""
    import selectors

    read_end, wakeup = os.pipe()
    os.set_blocking(read_end, False)
    os.set_blocking(wakeup, False)
    signal.set_wakeup_fd(wakeup)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(read_end, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is sock:
                try:
                    request, fds = _receive(sock)
                except BlockingIOError:
                    continue
                if request is None:
                    return
                _fork(request, fds, sock, (read_end, wakeup, selector))
            else:
                with contextlib.suppress(BlockingIOError):
                    os.read(read_end, 512)
                _reap(sock)


def _fork(request: dict, fds: list[int], sock: socket.socket, own: tuple) -> None:
    number = request.get("spawn")
    takes_over = _STANDBY is not None and _STANDBY.fits(request.get("env") or {})
    try:
        pid = os.fork()
    except OSError as error:
        for fd in fds:
            os.close(fd)
        _send(sock, {"failed": number, "error": str(error)})
        return
    if pid == 0:
        read_end, wakeup, selector = own
        selector.close()
        os.close(read_end)
        _child(request, fds, sock, wakeup, takes_over)
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    try:
        _send(sock, {"spawned": number, "pid": pid, "menu": takes_over}, [pidfd])
    finally:
        os.close(pidfd)


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send(sock, {"exit": pid, "status": os.waitstatus_to_exitcode(status)})


def main() -> None:
    import gc

    began = time.process_time()
    sock = socket.socket(fileno=int(os.environ.pop(SOCKET_FD_ENV)))
    gc.disable()
    prepared = preload(os.environ.pop(ONLINE_ENV, "") == "1")
    gc.collect()
    fill_allocator_holes()
    # Everything made so far is left alone by every child's collector: its pages stay shared.
    gc.freeze()
    _send(sock, {"ready": time.process_time() - began, "prepared": prepared})
    _serve(sock)
    # Not the interpreter's teardown: the prepared app's pending tasks would be destroyed one
    # by one, each complaining on the server's stderr.
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
