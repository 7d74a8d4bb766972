"""The tests' own PostgreSQL server does not outlive a test run that is killed."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pg_support
import pytest

CEILING = 120  # bounds a broken run only; the test waits for a condition

OWNER = """
import sys
sys.path.insert(0, sys.argv[1])
import pg_support
server = pg_support.PostgresServer()
server.start()
print(server.port, server.folder, server._watcher.pid, flush=True)
sys.stdin.read()
"""


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_a_killed_test_run_leaves_no_postgres_behind():
    reason = pg_support.why_not()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    tests = str(Path(__file__).resolve().parent.parent)
    owner = subprocess.Popen([sys.executable, "-c", OWNER, tests], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        port_text, folder_text, watcher_text = owner.stdout.readline().split()
        port, folder = int(port_text), Path(folder_text)
        assert _accepts(port) and folder.exists()
        watcher = os.pidfd_open(int(watcher_text))  # the watcher is no child of ours: wait on its pidfd
        try:
            os.kill(owner.pid, signal.SIGKILL)  # no fixture teardown, no atexit
            owner.wait()
            ready, _, _ = select.select([watcher], [], [], CEILING)
        finally:
            os.close(watcher)
        assert ready, "the watcher did not finish after its owner was killed"
        assert not _accepts(port), "the killed run's PostgreSQL still accepts connections"
        assert not folder.exists(), "the killed run's PostgreSQL folder is still there"
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
