"""Serving the games to others: ``tui-games serve --ssh`` (one app process per SSH login, on
its own pseudo-terminal) and ``tui-games serve --web`` (textual-serve, one process per tab).

Nothing here imports Textual: the server only starts app processes. asyncssh and
textual-serve are optional (``pip install "tui-games[server]"``) and imported on use.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Callable

from tui_games.server.log import event


def install_hint(extra: str) -> str:
    """How to add an optional extra: from the package index, and from a checkout of the source
    (where the index's name installs a released copy beside it instead, the README's way)."""
    return f'pip install "tui-games[{extra}]" (from a checkout of the source: pip install ".[{extra}]")'


EXTRA_HINT = install_hint("server")


# What the server and its apps create is theirs alone: a private game code once sat in a
# world-readable WAL.
PRIVATE_UMASK = 0o077


def keep_private() -> None:
    """Files created from now on, by the server and the apps it starts, are 0600 / 0700."""
    os.umask(PRIVATE_UMASK)


def private_directory(root: Path) -> None:
    """``root`` made (or made again) 0700, and the files directly in it 0600 (a database or
    key written before this rule); public keys stay readable."""
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    root.chmod(0o700)
    for path in root.iterdir():
        if path.is_file() and not path.is_symlink() and path.suffix != ".pub":
            path.chmod(0o600)


class ServerError(Exception):
    """A problem the person starting the server can fix (missing extra, bad key file, port in
    use); the CLI prints it as one line."""


async def run_until_signal(server, log: Callable[[str], None], sessions: Callable[[], int]) -> None:
    """Start ``server``, run until SIGINT, SIGTERM or SIGHUP, then close it (both servers hang
    every player up, and so save their games, in ``close``)."""
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        log(event("stopping", sessions=sessions()))
        await server.close()
