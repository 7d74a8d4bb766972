"""``tui-games serve``: host the games for others.

    tui-games serve --ssh [--host 127.0.0.1] [--port 2222] [--auth keys|none] [--register closed|open]
                          [--house GAME:ENGINE,...|none] [--lobby FILE|postgresql://...] [--tournament FILE]
                          [--authorized-keys FILE] [--max-sessions 32] [--idle-minutes 30]
                          [--memory-mb 1024] [--memory-total-mb MB] [--sessions-per-player 3]
                          [--address-share 25] [--connections-per-player 16] [--watch-idle-minutes 60]
                          [--registrations-per-hour 20] [--no-preload] [--log FILE]
    tui-games serve --web [--host 127.0.0.1] [--port 8000] [--public-url URL] [--allow-origin ORIGIN]...
                          [--max-sessions 32] [--idle-minutes 30] [--memory-mb 1024]
                          [--memory-total-mb MB] [--address-share 25] [--no-preload] [--log FILE]
    tui-games serve add-key NAME FILE     let the public key in FILE log in as NAME

The server itself never imports Textual (each player's app is a process of its own), and
asyncssh / textual-serve only when asked for: without them the command is one line naming
``pip install "tui-games[server]"``, exit status 2.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Any

from tui_games.commands.common import UsageError, positive_int
from tui_games.server import ServerError, keep_private, ssh, web
from tui_games.server.host import SessionLimits
from tui_games.server.identity import IdentityError, Registry, canonical, fingerprint
from tui_games.server.lobby.house import DEFAULT_HOUSE
from tui_games.server.lobby.storage import is_postgres
from tui_games.server.log import make_logger
from tui_games.server.origins import parse_origin, parse_public_url
from tui_games.userdata.store import data_dir

SSH_PORT, WEB_PORT = 2222, 8000
# Options that only mean something for the SSH server, with their defaults.
SSH_ONLY = {"auth": "keys", "register": "closed", "authorized_keys": None, "house": DEFAULT_HOUSE, "quota_mb": 50,
            "lobby": None, "connections_per_player": 16, "watch_idle_minutes": 60.0,
            "registrations_per_hour": 20, "tournament": None}
# Where the lobby's database is when --lobby is not given (a DSN here stays out of `ps`).
LOBBY_ENV = "TUI_GAMES_LOBBY_DB"
# Limits both servers take, with their defaults.
LIMITS = {"max_sessions": 32, "idle_minutes": 30.0, "memory_mb": 1024, "memory_total_mb": None, "log": None,
          "sessions_per_player": 3, "address_share": 25, "no_preload": False}
# Options that only mean something for the web server, with their defaults.
WEB_ONLY = {"public_url": None, "allow_origin": None}


def _quota(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of megabytes") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 (no quota) or a number of megabytes")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 (no limit) or a positive number")
    return value


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


def _percent(text: str) -> int:
    try:
        value = int(text.strip().rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole percentage") from None
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give a percentage from 1 to 100")
    return value


def _lobby(text: str) -> str:
    """A SQLite file's path or a PostgreSQL DSN; never echoed back (a DSN may hold a password)."""
    text = text.strip()
    if not text:
        raise argparse.ArgumentTypeError("give a SQLite file or a postgresql://… address")
    if "://" in text and not is_postgres(text):
        raise argparse.ArgumentTypeError("the lobby is a SQLite file or a postgresql://… (postgres://…) address")
    return text


def _session_limits(args: argparse.Namespace) -> SessionLimits:
    """The session limits both servers take, from the flags of the same names."""
    options: dict[str, Any] = {} if args.memory_total_mb is None else {"memory_total_mb": args.memory_total_mb or None}
    return SessionLimits(max_sessions=args.max_sessions, idle_seconds=args.idle_minutes * 60,
                         memory_mb=args.memory_mb or None, sessions_per_player=args.sessions_per_player,
                         address_share=args.address_share, **options)


def _public_url(text: str) -> str:
    try:
        parse_public_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def _origin(text: str) -> str:
    try:
        parse_origin(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def cmd_serve(args: argparse.Namespace) -> int:
    keep_private()  # before the log, the keys or the database is made
    try:
        if args.serve_action == "add-key":
            return _add_key(args)
        if not (args.ssh or args.web):
            raise UsageError("serve: give --ssh or --web (or add-key NAME FILE)")
        if args.web:
            stray = [name for name, default in SSH_ONLY.items() if getattr(args, name) != default]
            if args.sessions_per_player != LIMITS["sessions_per_player"]:
                stray.append("sessions_per_player")  # the web has no player names
            if stray:
                raise UsageError(f"serve: --{stray[0].replace('_', '-')} is for --ssh, not --web")
            return _serve_web(args)
        stray = [name for name, default in WEB_ONLY.items() if getattr(args, name) != default]
        if stray:
            raise UsageError(f"serve: --{stray[0].replace('_', '-')} is for --web, not --ssh")
        return _serve_ssh(args)
    except ServerError as error:
        raise UsageError(f"serve: {error}") from None


def _serve_ssh(args: argparse.Namespace) -> int:
    if os.name != "posix":
        raise UsageError("serve: the SSH server needs a POSIX system (pseudo-terminals, process groups)")
    ssh.require_asyncssh()
    if args.register == "open" and args.auth == "none":
        raise UsageError("serve: --register open is for --auth keys; with --auth none everyone is a guest")
    config = ssh.SSHConfig(
        root=data_dir() / "server", host=args.host, port=SSH_PORT if args.port is None else args.port,
        auth=args.auth, register=args.register, authorized_keys=args.authorized_keys, quota_mb=args.quota_mb or None,
        sessions=_session_limits(args), zygote=not args.no_preload,
        house=args.house, lobby=args.lobby or _lobby_from_env(), log=make_logger(args.log),
        connections_per_player=args.connections_per_player, watch_idle_seconds=args.watch_idle_minutes * 60,
        registrations_per_hour=args.registrations_per_hour, tournament_file=args.tournament)
    ssh.serve(config)
    return 0


def _lobby_from_env() -> str | None:
    text = os.environ.get(LOBBY_ENV, "").strip()
    if not text:
        return None
    try:
        return _lobby(text)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"serve: {LOBBY_ENV}: {error}") from None


def _serve_web(args: argparse.Namespace) -> int:
    if os.name != "posix":
        raise UsageError("serve: the web server needs a POSIX system (process groups, hang-up signals)")
    web.require_textual_serve()
    config = web.WebConfig(
        home=data_dir(), host=args.host, port=WEB_PORT if args.port is None else args.port,
        public_url=args.public_url, allow_origins=tuple(args.allow_origin or ()),
        sessions=_session_limits(args), zygote=not args.no_preload, log=make_logger(args.log))
    web.serve(config)
    return 0


def _add_key(args: argparse.Namespace) -> int:
    try:
        name = canonical(args.name)
    except IdentityError as error:
        raise UsageError(f"serve add-key: {error}") from None
    key = ssh.read_public_key(args.key_file)
    lobby = args.lobby or _lobby_from_env()
    shared = None
    if lobby and is_postgres(lobby):  # front ends sharing a lobby share its keys (identity.py)
        from tui_games.server.lobby.backends import open_storage

        try:
            shared = open_storage(lobby)
        except Exception as error:  # (the message names the database without its password)
            raise UsageError(f"serve add-key: {error}") from None
    registry = Registry(data_dir() / "server", shared=shared)
    try:
        added = registry.add_key(name, key)
    finally:
        if shared is not None:
            shared.close()
    print(f"{'added' if added else 'already there:'} {fingerprint(key)} for {name} ({registry.where(name)})")
    return 0


def add_arguments(serve: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games serve``."""
    serve.set_defaults(handler=cmd_serve, serve_action=None)
    actions = serve.add_subparsers(dest="serve_action", metavar="add-key")
    add_key = actions.add_parser("add-key", help="let a public key log in as a player name",
                                 description="Register the public key in FILE (one line as in ~/.ssh/id_ed25519.pub) "
                                             "for the player NAME; a player may have several keys.")
    add_key.add_argument("name", metavar="NAME", help="the player name (case-insensitive)")
    add_key.add_argument("key_file", type=Path, metavar="FILE", help="the public key file")
    add_key.add_argument("--lobby", type=_lobby, default=None, metavar="postgresql://...",
                         help=f"front ends sharing a PostgreSQL lobby keep the keys there (also from ${LOBBY_ENV})")
    kind = serve.add_mutually_exclusive_group()
    kind.add_argument("--ssh", action="store_true", help="an SSH server: one game process per login")
    kind.add_argument("--web", action="store_true", help="a web server (textual-serve): one process per tab")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=_port, default=None, help=f"default {SSH_PORT} (--ssh) or {WEB_PORT} (--web)")
    serve.add_argument("--auth", choices=("keys", "none"), default=SSH_ONLY["auth"],
                       help="keys: public keys from --authorized-keys (default); none: anyone (a trusted LAN)")
    serve.add_argument("--register", choices=("closed", "open"), default=SSH_ONLY["register"],
                       help="closed: keys added with add-key (default); open: any key may claim a free name")
    serve.add_argument("--authorized-keys", type=Path, default=None, metavar="FILE",
                       help="an old shared key list whose keys may each claim a free name "
                            "(default: authorized_keys in the server's data directory)")
    serve.add_argument("--quota-mb", type=_quota, default=SSH_ONLY["quota_mb"], metavar="MB",
                       help=f"what each player's files, saved games and Lab runs may take (default "
                            f"{SSH_ONLY['quota_mb']}; 0: no quota)")
    serve.add_argument("--max-sessions", type=positive_int, default=LIMITS["max_sessions"], metavar="N",
                       help="players at once; the next is told the server is full (default 32)")
    serve.add_argument("--idle-minutes", type=_minutes, default=LIMITS["idle_minutes"], metavar="M",
                       help="hang up (saving the game) after M minutes without a key; 0: never (default 30)")
    serve.add_argument("--memory-mb", type=_megabytes, default=LIMITS["memory_mb"], metavar="MB",
                       help="address-space cap per session, a guard against a runaway app; 0: none (default 1024)")
    serve.add_argument("--memory-total-mb", type=_megabytes, default=LIMITS["memory_total_mb"], metavar="MB",
                       help="memory all sessions may use, as measured (PSS); past it a login is told the server "
                            "is busy (default: 75%% of the machine's memory; 0: no total)")
    serve.add_argument("--sessions-per-player", type=positive_int, default=LIMITS["sessions_per_player"],
                       metavar="N", help="--ssh: sessions one player may have at once (default 3)")
    serve.add_argument("--address-share", type=_percent, default=LIMITS["address_share"], metavar="PERCENT",
                       help="share of the places one address may hold, never fewer than 4 (default 25)")
    serve.add_argument("--connections-per-player", type=positive_int, default=SSH_ONLY["connections_per_player"],
                       metavar="N", help="--ssh: connections one player may hold once logged in: commands, watch "
                                         "streams and games together (default 16); one address may hold "
                                         "--address-share percent of the server's 300, never fewer")
    serve.add_argument("--watch-idle-minutes", type=_minutes, default=SSH_ONLY["watch_idle_minutes"], metavar="M",
                       help="--ssh: end a watch after M minutes in which nothing happened in its game; "
                            "0: never (default 60)")
    serve.add_argument("--registrations-per-hour", type=_count, default=SSH_ONLY["registrations_per_hour"],
                       metavar="N", help="--ssh --register open: new names one address may register in an hour, "
                                         "counted across restarts (default 20; 0: no limit)")
    serve.add_argument("--no-preload", action="store_true", default=LIMITS["no_preload"],
                       help="start every app as a fresh process instead of forking the pre-started one")
    serve.add_argument("--house", default=SSH_ONLY["house"], metavar="GAME:ENGINE,...",
                       help="--ssh: the engines seated in the lobby as rated computer players "
                            f"(default {DEFAULT_HOUSE}; none: no house players)")
    serve.add_argument("--lobby", type=_lobby, default=SSH_ONLY["lobby"], metavar="FILE|postgresql://...",
                       help="--ssh: the lobby's database: a SQLite file (default: lobby.sqlite3 in the server's "
                            "directory) or a PostgreSQL database that several front ends share "
                            f"(pip install \"tui-games[postgres]\"; also from ${LOBBY_ENV}; keep the password "
                            "in ~/.pgpass, not here)")
    serve.add_argument("--tournament", type=Path, default=SSH_ONLY["tournament"], metavar="FILE",
                       help="--ssh: the operator's scheduled tournaments, a TOML file (docs/serving.md, "
                            "Tournaments); checked at start")
    serve.add_argument("--log", type=Path, default=LIMITS["log"], metavar="FILE",
                       help="log to FILE, rotated at 10 MB with 5 kept (default: stderr)")
    serve.add_argument("--public-url", type=_public_url, default=WEB_ONLY["public_url"], metavar="URL",
                       help="--web: the address browsers use (a proxy's https://games.example.org); "
                            "default: the address each browser asked for")
    serve.add_argument("--allow-origin", type=_origin, action="append", default=WEB_ONLY["allow_origin"],
                       metavar="ORIGIN", help="--web: another site whose pages may open a game "
                                              "(scheme://host[:port]); repeat for more")
