"""``tui-games serve --ssh`` as a process of its own on a shared lobby, for the tests that need
a front end they can kill as a crash would (SIGKILL) or several front ends on one lobby."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path


class ServeProcess:
    """One ``tui-games serve --ssh`` process on the lobby ``lobby`` (a SQLite file or a
    PostgreSQL address), its data in ``home``; ``env`` is added to the process's environment.

    It runs from ``home``, not from the checkout: ``python -m`` puts its working directory first
    on the path, and a clean clone's sources have no compiled cores (the checkers tables then
    take minutes in pure Python), so the package the tests import is the one it runs."""

    def __init__(self, home: Path, lobby: str, env: dict[str, str] | None = None) -> None:
        self.home, self.lobby, self.env = home, lobby, env or {}
        self.process: asyncio.subprocess.Process | None = None
        self.port = 0

    async def start(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui_games", "serve", "--ssh", "--port", "0", "--register", "open",
            "--house", "none", "--no-preload", "--lobby", self.lobby, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, **absolute_pythonpath(), "TUI_GAMES_HOME": str(self.home), **self.env}, cwd=self.home)
        while True:
            line = (await asyncio.wait_for(self.process.stderr.readline(), 60)).decode()
            assert line, "the server ended before it listened"
            if found := re.search(r"listening address=127\.0\.0\.1:(\d+)", line):
                self.port = int(found[1])
                return

    async def kill(self) -> None:
        """SIGKILL, as a crash would; nothing if it is not running."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def absolute_pythonpath() -> dict[str, str]:
    """PYTHONPATH with each entry made absolute (``PYTHONPATH=. pytest`` means the checkout),
    since the process runs in another directory."""
    entries = os.environ.get("PYTHONPATH")
    if not entries:
        return {}
    return {"PYTHONPATH": os.pathsep.join(str(Path(entry).resolve()) for entry in entries.split(os.pathsep))}
