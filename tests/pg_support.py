"""A real PostgreSQL server for the tests of the shared lobby: initdb into a temporary directory,
started on a free loopback port, stopped at the end of the session. As root (CI), the server
runs as the ``postgres`` user if there is one, else ``nobody`` (PostgreSQL refuses to run as
root). Tests that need it skip, saying why, where the binaries or psycopg are missing.

Where the binaries are looked for: $TUI_GAMES_PG_BIN, the PATH, /usr/local/bin, and Debian's
/usr/lib/postgresql/VERSION/bin (the ``postgresql`` package, which .ci/run installs).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

START_SECONDS = 60

# Run beside the tests: it blocks reading a pipe whose only writer is the test process, so the
# read returns when that process ends however it ends (a killed run included), and then it
# stops the server and removes its folder. Without it a killed run left a postmaster running.
_WATCHER = """
import os, shutil, subprocess, sys
fd, folder, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
while os.read(fd, 1):
    pass
subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, cwd=folder)
shutil.rmtree(folder, ignore_errors=True)
"""


def pg_bin() -> Path | None:
    """The directory holding initdb, pg_ctl and postgres, or None."""
    places = [os.environ.get("TUI_GAMES_PG_BIN", "")]
    found = shutil.which("initdb")
    if found:
        places.append(str(Path(found).parent))
    places.append("/usr/local/bin")
    places.extend(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True))
    for place in places:
        if place and all((Path(place) / tool).exists() for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(place)
    return None


def why_not() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return 'psycopg is not installed (pip install ".[test]" brings it)'
    if pg_bin() is None:
        return ("PostgreSQL's initdb/pg_ctl/postgres are not installed (apt-get install postgresql, "
                "or set TUI_GAMES_PG_BIN)")
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    def __init__(self) -> None:
        self.bin = pg_bin()
        assert self.bin is not None
        # As root the server runs as another user, who must reach its directory: /tmp, not a
        # private $TMPDIR.
        root = os.geteuid() == 0 and os.path.isdir("/tmp")
        self.folder = Path(tempfile.mkdtemp(prefix="tui-games-pg-", dir="/tmp" if root else None))
        self.port = _free_port()
        self.user = "tui"
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # postgres will not run as root: as postgres, or nobody
            account = next((name for name in ("postgres", "nobody") if _exists(name)), None)
            if account is None:
                raise RuntimeError("running as root with neither a 'postgres' nor a 'nobody' account")
            entry = pwd.getpwnam(account)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.prefix = [shutil.which("setpriv") or "/usr/bin/setpriv", f"--reuid={entry.pw_uid}",
                           f"--regid={entry.pw_gid}", "--clear-groups"]
        self.folder.chmod(0o700)
        self._watcher: subprocess.Popen | None = None
        self._lifeline: int | None = None

    def _run(self, *argv: str) -> None:
        done = subprocess.run([*self.prefix, *argv], capture_output=True, text=True, timeout=START_SECONDS,
                              cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {done.stderr.strip()[-800:]}")

    def start(self) -> None:
        data = self.folder / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", self.user, "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        # fsync off: a test database need not survive the machine's crash, and it is much faster.
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c full_page_writes=off"
        self._watch()
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "log"), "-w",
                  "-t", str(START_SECONDS), "-o", options, "start")

    def _watch(self) -> None:
        """Start the watcher that cleans up after this process, however it ends."""
        read_end, self._lifeline = os.pipe()
        stop = [*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                "-w", "stop"]
        self._watcher = subprocess.Popen([sys.executable, "-c", _WATCHER, str(read_end), str(self.folder), *stop],
                                         pass_fds=(read_end,), start_new_session=True,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
        os.close(read_end)

    def stop(self, mode: str = "fast") -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")
        except RuntimeError:
            pass

    def restart(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c full_page_writes=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-l", str(self.folder / "log"),
                  "-w", "-t", str(START_SECONDS), "-o", options, "start")

    def remove(self) -> None:
        if self._lifeline is not None:  # the watcher finds the server stopped and the folder gone
            os.close(self._lifeline)
            self._lifeline = None
        shutil.rmtree(self.folder, ignore_errors=True)
        if self._watcher is not None:
            self._watcher.wait(timeout=START_SECONDS)
            self._watcher = None

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's DSN (one per test: no test sees another's games)."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.dsn(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)


def _exists(account: str) -> bool:
    try:
        pwd.getpwnam(account)
        return True
    except KeyError:
        return False
