"""The lobby as one front end runs it, built and closed in the one right order.

A front end (``serve --ssh``) needs four parts over its database: the :class:`Lobby` itself, the
socket its apps speak to it through (:class:`HubSocket`), the house players (:class:`House`) and
the front end's leases (:class:`FrontEnd`: the clocks and the house run where their lease is
held). They depend on each other in one order and must stop in the reverse one (the house and
the clocks before the socket they answer through, the database last), so they are made here
and nowhere else; the server only says where the database is and which house players it wants.

Opening is two steps because the server looks at the database between them: the login keys of
several front ends live in a shared PostgreSQL database (identity.py), and a server nobody
could log in to must refuse to start before anything listens.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tui_games.server.lobby import tournament_commands
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.frontend import FrontEnd, frontend_id
from tui_games.server.lobby.house import House, parse_house
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import LobbyStorage, StorageUnavailable
from tui_games.server.lobby.tournament import Director, TournamentLimits
from tui_games.server.lobby.tournament_file import read_tournament_file, schedule
from tui_games.server.log import event

__all__ = ["LOBBY_FILE", "LobbyStack", "LobbyStartError", "open_lobby_storage", "start_lobby"]

LOBBY_FILE = "lobby.sqlite3"
LOBBY_SOCKET = "lobby-{pid}.sock"  # each front end's own, beside the others' when they share a directory
# A Unix socket's path has room for about 107 bytes.
MAX_SOCKET_PATH = 100


# Who is playing now, as the front end knows it: (player, what they are doing).
Online = Callable[[], list[tuple[str, str]]]


class LobbyStartError(Exception):
    """The lobby cannot start: one line for the operator, never a DSN's password."""


@dataclass
class LobbyStack:
    """One front end's running lobby."""

    lobby: Lobby
    hub: HubSocket
    house: House
    frontend: FrontEnd
    # The short temporary folder of the socket when the root was too deep for its path.
    socket_folder: Path | None = None

    async def close(self) -> None:
        """The clocks and the house first (their leases go back), then the socket (and its
        temporary folder), then the database."""
        await self.frontend.close()
        await self.hub.close()
        _remove(self.socket_folder)
        self.lobby.storage.close()


def _remove(folder: Path | None) -> None:
    """The socket's temporary folder, empty once the socket is gone (one a start otherwise)."""
    if folder is not None:
        try:
            folder.rmdir()
        except OSError:
            pass


def open_lobby_storage(where: str) -> LobbyStorage:
    """The lobby's database at ``where`` (a SQLite path or a postgresql://… address)."""
    try:
        return open_storage(where)
    except StorageUnavailable as error:
        raise LobbyStartError(str(error)) from None
    except Exception as error:  # sqlite3.Error, a newer schema, no driver: the operator must look
        # (a PostgreSQL DSN is never in the message: the storage names it redacted)
        raise LobbyStartError(f"cannot open the lobby's database: {error}") from None


async def start_lobby(storage: LobbyStorage, root: Path, *, online: Online, house: str,
                      log: Callable[[str], None], tournament_limits: TournamentLimits | None = None,
                      tournament_file: Path | None = None) -> LobbyStack:
    """The lobby over ``storage``, its socket in ``root`` (or a short temporary folder when
    ``root`` is too deep for a socket's path), the ``house`` players (``serve --house``) and
    this front end's leases; on a failure, what was started is stopped again. Tournaments
    (tournament.py): their limits, and the operator's schedule (``serve --tournament FILE``),
    made once the leases run."""
    try:
        players = parse_house(house)
    except ValueError as error:
        storage.close()
        raise LobbyStartError(str(error)) from None
    lobby = Lobby(storage, origin=frontend_id())
    socket_path = root / LOBBY_SOCKET.format(pid=os.getpid())
    folder = None
    if len(str(socket_path)) > MAX_SOCKET_PATH:
        folder = Path(tempfile.mkdtemp(prefix="tui-games-lobby-"))
        socket_path = folder / LOBBY_SOCKET.format(pid=os.getpid())
    hub = HubSocket(lobby, socket_path, online=online, log=log, run_clocks=False)
    try:
        await hub.start()
    except OSError as error:
        _remove(folder)
        storage.close()
        raise LobbyStartError(f"cannot open the lobby's socket {socket_path}: {error.strerror or error}") from None
    house_players = House(lobby, players, log)
    tournaments = tournament_commands.attach(lobby, tournament_limits, publish=lobby.events.publish)
    try:
        scheduled = [] if tournament_file is None else read_tournament_file(
            tournament_file, house=[seat.name for seat in players], limits=tournaments.limits)
    except ValueError as error:
        await hub.close()
        _remove(folder)
        storage.close()
        raise LobbyStartError(str(error)) from None
    # The tournaments' director runs with the clocks, where their lease is held.
    frontend = FrontEnd(lobby, hub.clocks, house_players, log, director=Director(tournaments, log))
    try:
        await frontend.start()
        for made in schedule(tournaments, scheduled, log):
            log(event("tournament-scheduled", id=made))
    except (StorageUnavailable, LobbyError) as error:
        await frontend.close()
        await hub.close()
        _remove(folder)
        storage.close()
        raise LobbyStartError(str(error)) from None
    return LobbyStack(lobby, hub, house_players, frontend, folder)
