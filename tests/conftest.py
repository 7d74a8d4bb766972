"""Fixtures every test module may use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ssh_support import group_alive, started_server

from tui_games.server.ssh import GameServer

# -- a busy machine on demand -------------------------------------------------------------------

MAX_HOGS = 16


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-hogs", type=int, default=0, metavar="N",
                     help="run the tests beside N CPU-bound processes, so that a test waiting for "
                          "time instead of a condition fails here rather than on a busy machine "
                          "(.ci/run does this for the timing-sensitive tests)")


_hogs: list[subprocess.Popen] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    count = session.config.getoption("--cpu-hogs")
    if not 0 <= count <= MAX_HOGS:
        raise pytest.UsageError(f"--cpu-hogs must be from 0 to {MAX_HOGS}, not {count}")
    _hogs.extend(subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count))


def pytest_sessionfinish(session: pytest.Session) -> None:
    while _hogs:
        hog = _hogs.pop()
        hog.kill()
        hog.wait()


@pytest.fixture(autouse=True)
def _umask_kept():
    """``serve`` makes its process private (umask 077) for good, as a server should; a test that
    runs it in process must not leave the rest of the suite with that umask."""
    old = os.umask(0o022)
    os.umask(old)
    yield
    os.umask(old)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A data directory of the test's own (``TUI_GAMES_HOME``): never the user's real settings,
    scores or saves, and no shared server leaderboard."""
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path))
    monkeypatch.delenv("TUI_GAMES_LEADERBOARD", raising=False)
    return tmp_path


@pytest.fixture
async def start_server(tmp_path):
    """Start GameServers on free ports of 127.0.0.1 (``await start_server(**options)``: SSHConfig's
    and SessionLimits'; front ends sharing a lobby each need a ``root`` of their own);
    ``start_server.logs`` collects their log lines. At the end every server is closed and no
    session's processes may outlive it."""
    servers: list[GameServer] = []
    logs: list[str] = []

    async def start(**options) -> GameServer:
        server = await started_server(options.pop("root", tmp_path / "server"), logs.append, **options)
        servers.append(server)
        return server

    start.logs = logs
    yield start
    pgids = [s.app.pgid for server in servers for s in server.sessions if s.app and s.app.pgid]
    for server in servers:
        await server.close()
    assert not [pgid for pgid in pgids if group_alive(pgid)], "a session's processes outlived the server"


# -- the lobby on either backend -----------------------------------------------------------------

@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server for the session (pg_support.py), or the test is skipped saying why."""
    import pg_support

    reason = pg_support.why_not()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = pg_support.PostgresServer()
    try:
        server.start()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
        server.remove()
        pytest.skip(f"PostgreSQL tests skipped: the test server did not start ({error})")
    yield server
    server.stop("immediate")
    server.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def lobby_database(request, tmp_path):
    """Where a test's lobby lives, on each backend in turn: a SQLite file, or a fresh PostgreSQL
    database. Open it (as many times as front ends) with ``open_storage(lobby_database)``."""
    if request.param == "sqlite":
        return str(tmp_path / "lobby.sqlite3")
    return request.getfixturevalue("postgres").new_database()
