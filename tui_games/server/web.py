"""``tui-games serve --web``: the same app in a browser, through textual-serve.

textual-serve starts one app process per browser tab and speaks to it over a websocket. The
tab's app is the host's own (``TUI_GAMES_HOME`` of whoever runs the server): the web has no
user names to keep players apart, so this is for one person or a trusting household.
"""

from __future__ import annotations

import shlex
import sys

from tui_games.server import EXTRA_HINT, ServerError


def make_server(host: str, port: int):
    """The textual-serve server for the app (not yet serving)."""
    try:
        from textual_serve.server import Server
    except ImportError:
        raise ServerError(f"serving on the web needs textual-serve: {EXTRA_HINT}") from None
    # textual-serve runs the command through a shell: quote the interpreter's path.
    command = f"{shlex.quote(sys.executable)} -m tui_games"
    return Server(command, host=host, port=port, title="tui-games")


def serve(host: str, port: int) -> None:
    server = make_server(host, port)
    try:
        server.serve()
    except OSError as error:  # the port is taken, the address is not ours
        raise ServerError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
