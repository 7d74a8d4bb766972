"""Serving the games to others: ``tui-games serve --ssh`` (one app process per SSH login, on
its own pseudo-terminal) and ``tui-games serve --web`` (textual-serve, one process per tab).

Nothing here imports Textual: the server only starts app processes. asyncssh and
textual-serve are optional (``pip install "tui-games[server]"``) and imported on use.
"""

from __future__ import annotations

EXTRA_HINT = 'pip install "tui-games[server]"'


class ServerError(Exception):
    """A problem the person starting the server can fix (missing extra, bad key file, port in
    use); the CLI prints it as one line."""
