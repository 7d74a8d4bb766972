"""``tui-games serve``: host the games for others.

    tui-games serve --ssh [--host 127.0.0.1] [--port 2222] [--auth keys|none]
                          [--authorized-keys FILE] [--max-sessions 32] [--idle-minutes 30]
                          [--memory-mb 1024]
    tui-games serve --web [--host 127.0.0.1] [--port 8000]

The server itself never imports Textual (each player's app is a process of its own), and
asyncssh / textual-serve only when asked for: without them the command is one line naming
``pip install "tui-games[server]"``, exit status 2.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from tui_games.commands.common import UsageError, positive_int
from tui_games.server import ServerError, ssh, web
from tui_games.store import data_dir

SSH_PORT, WEB_PORT = 2222, 8000
# Options that only mean something for the SSH server, with their defaults.
SSH_ONLY = {"auth": "keys", "authorized_keys": None, "max_sessions": 32, "idle_minutes": 30.0, "memory_mb": 1024}


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0-65535; 0 picks a free one)")
    return value


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 (never) or a positive number of minutes")
    return value


def _megabytes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of megabytes") from None
    if value < 0 or 0 < value < 64:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 (no cap) or at least 64 MB")
    return value


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        if args.web:
            stray = [name for name, default in SSH_ONLY.items() if getattr(args, name) != default]
            if stray:
                raise UsageError(f"serve: --{stray[0].replace('_', '-')} is for --ssh, not --web")
            web.serve(args.host, WEB_PORT if args.port is None else args.port)
            return 0
        return _serve_ssh(args)
    except ServerError as error:
        raise UsageError(f"serve: {error}") from None


def _serve_ssh(args: argparse.Namespace) -> int:
    if os.name != "posix":
        raise UsageError("serve: the SSH server needs a POSIX system (pseudo-terminals, process groups)")
    ssh.require_asyncssh()
    config = ssh.SSHConfig(
        root=data_dir() / "server", host=args.host, port=SSH_PORT if args.port is None else args.port,
        auth=args.auth, authorized_keys=args.authorized_keys, max_sessions=args.max_sessions,
        idle_seconds=args.idle_minutes * 60, memory_mb=args.memory_mb or None)
    ssh.serve(config)
    return 0


def add_arguments(serve: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games serve``."""
    serve.set_defaults(handler=cmd_serve)
    kind = serve.add_mutually_exclusive_group(required=True)
    kind.add_argument("--ssh", action="store_true", help="an SSH server: one game process per login")
    kind.add_argument("--web", action="store_true", help="a web server (textual-serve): one process per tab")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=_port, default=None, help=f"default {SSH_PORT} (--ssh) or {WEB_PORT} (--web)")
    serve.add_argument("--auth", choices=("keys", "none"), default=SSH_ONLY["auth"],
                       help="keys: public keys from --authorized-keys (default); none: anyone (a trusted LAN)")
    serve.add_argument("--authorized-keys", type=Path, default=None, metavar="FILE",
                       help="the players' public keys (default: authorized_keys in the server's data directory)")
    serve.add_argument("--max-sessions", type=positive_int, default=SSH_ONLY["max_sessions"], metavar="N",
                       help="players at once; the next is told the server is full (default 32)")
    serve.add_argument("--idle-minutes", type=_minutes, default=SSH_ONLY["idle_minutes"], metavar="M",
                       help="hang up (saving the game) after M minutes without a key; 0: never (default 30)")
    serve.add_argument("--memory-mb", type=_megabytes, default=SSH_ONLY["memory_mb"], metavar="MB",
                       help="address-space cap per session where the OS allows; 0: none (default 1024)")
