"""The lobby's storage: one contract (:class:`LobbyStorage`), two backends.

- SQLite in WAL mode (:class:`Storage`, the default, nothing to install): one file; several
  server processes on one machine may share it (each write is a transaction, a busy timeout
  waits for the others).
- PostgreSQL (storage_pg.py, ``--lobby postgresql://…``, the ``postgres`` extra): several front
  ends on several machines share one lobby.

Both run the same schema and migrations (the SQL below, written once; PostgreSQL's dialect
differs only in its placeholders and one column type). What makes sharing safe is the same in
both: every check-and-write of a game runs in one transaction that holds the game's row
(:meth:`LobbyStorage.transaction` and ``game(…, lock=True)``: ``SELECT … FOR UPDATE`` on
PostgreSQL, the database's write lock on SQLite), so two front ends cannot both take a move,
end a game twice or count a rating twice. What changed is published in the same transaction
(:meth:`LobbyStorage.publish`: ``pg_notify`` on PostgreSQL, a row of the ``feed`` table on
SQLite) and reaches the other front ends by :meth:`LobbyStorage.notices`.

Leases (a row with a holder and an expiry) give one front end at a time the lobby's clocks
and the house players; a front end's heartbeat and its players' presence are rows too, so
that a claim against an absent player is judged across every front end.
"""

from __future__ import annotations

import base64
import json
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Iterator, Protocol

from tui_games.server.lobby.glicko2 import Rating

SCHEMA_VERSION = 8
# What each version added to the one before (run in order on an older database).
MIGRATIONS = {
    2: ["ALTER TABLE games ADD COLUMN takeback_offer TEXT"],
    3: ["ALTER TABLE offers ADD COLUMN assist INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN assist INTEGER NOT NULL DEFAULT 0"],
    4: ["ALTER TABLE games ADD COLUMN opening INTEGER NOT NULL DEFAULT 0"],
    # Sharing one lobby between front ends: leases, heartbeats, presence, the players' keys (the
    # CREATE TABLE IF NOT EXISTS of SCHEMA adds them; nothing of the old tables changes).
    5: [],
    # The lobby's heartbeat (lobby_beat): when a front end last beat, so that a restart after
    # downtime gives the clocks back the time the server was down; the names registered from
    # each address under --register open (registrations), counted across restarts.
    6: [],
    # Tournaments (tournament.py): each one's state, and which games belong to which
    # (CREATE TABLE IF NOT EXISTS adds both); the sides of a game that went berserk.
    7: ["ALTER TABLE games ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0"],
    # The puzzle of the day: each player's view, attempts and solve of each game's puzzle of
    # each day (puzzle_days; made by SCHEMA's CREATE TABLE IF NOT EXISTS).
    8: [],
}
# REAL is a double in SQLite; PostgreSQL's REAL is single precision (7 digits: not enough for
# a timestamp), so the PostgreSQL backend reads it as DOUBLE PRECISION.
SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL, game TEXT NOT NULL,
    rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player, game));
CREATE TABLE IF NOT EXISTS offers (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, owner TEXT NOT NULL, target TEXT,
    game TEXT NOT NULL, variant TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL,
    colour TEXT NOT NULL, created REAL NOT NULL, assist INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,
    first TEXT NOT NULL, second TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]', status TEXT NOT NULL DEFAULT 'live',
    winner INTEGER, reason TEXT, draw_offer TEXT,
    left_first REAL, left_second REAL, last_move REAL NOT NULL,
    created REAL NOT NULL, ended REAL, takeback_offer TEXT, assist INTEGER NOT NULL DEFAULT 0,
    opening INTEGER NOT NULL DEFAULT 0, berserk INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, kind TEXT NOT NULL, first_seen REAL NOT NULL);
CREATE INDEX IF NOT EXISTS games_first ON games (first, status);
CREATE INDEX IF NOT EXISTS games_second ON games (second, status);
CREATE INDEX IF NOT EXISTS games_status ON games (status);
CREATE TABLE IF NOT EXISTS leases (
    name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires REAL NOT NULL, data TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS frontends (
    id TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS presence (
    frontend TEXT NOT NULL, player TEXT NOT NULL, sessions INTEGER NOT NULL, acted REAL NOT NULL,
    PRIMARY KEY (frontend, player));
CREATE INDEX IF NOT EXISTS presence_player ON presence (player);
CREATE TABLE IF NOT EXISTS user_keys (
    name TEXT NOT NULL, key TEXT NOT NULL, line TEXT NOT NULL, added REAL NOT NULL, PRIMARY KEY (name, key));
CREATE INDEX IF NOT EXISTS user_keys_key ON user_keys (key);
CREATE TABLE IF NOT EXISTS lobby_beat (
    id INTEGER PRIMARY KEY, beat REAL NOT NULL, resumed REAL NOT NULL);
CREATE TABLE IF NOT EXISTS registrations (
    source TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS registrations_source ON registrations (source, at);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, game TEXT NOT NULL, creator TEXT NOT NULL,
    status TEXT NOT NULL, created REAL NOT NULL, starts REAL NOT NULL, data TEXT NOT NULL, crosstable TEXT);
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments (status);
CREATE INDEX IF NOT EXISTS tournaments_creator ON tournaments (creator, status);
CREATE TABLE IF NOT EXISTS tournament_games (
    game_id TEXT PRIMARY KEY, tournament TEXT NOT NULL, round INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tournament_games_tournament ON tournament_games (tournament);
CREATE TABLE IF NOT EXISTS puzzle_days (
    player TEXT NOT NULL, game TEXT NOT NULL, day TEXT NOT NULL,
    viewed REAL NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, solved REAL,
    PRIMARY KEY (player, game, day));
CREATE INDEX IF NOT EXISTS puzzle_days_day ON puzzle_days (game, day);
"""
CHANNEL = "tui_games_lobby"  # PostgreSQL's NOTIFY channel; the SQLite feed table's purpose
MAX_NOTICE = 7000  # bytes: under PostgreSQL's 8000-byte limit on a NOTIFY payload
FEED_KEEP_SECONDS = 120.0  # SQLite's feed rows older than this are deleted


class StorageUnavailable(RuntimeError):
    """The database cannot be reached (it is restarting, the network is down): one line for
    the player, who tries again; nothing was changed."""


class StorageConflict(Exception):
    """A transaction lost to another front end's (a deadlock, a serialisation failure): the
    whole operation may be run again."""


@dataclass
class Offer:
    """A seek (anyone may accept) or a challenge (only ``target`` may)."""

    id: str
    kind: str  # "seek" or "challenge"
    owner: str
    target: str | None
    game: str
    variant: dict
    clock: str
    rated: bool
    colour: str  # "first", "second" or "random": the owner's side
    created: float
    assist: bool = False  # a casual game where both players may use the engine's help


@dataclass
class GameRow:
    id: str
    game: str
    variant: dict
    players: tuple[str, str]  # who moves first, who second
    clock: str
    rated: bool
    moves: list[str] = field(default_factory=list)
    status: str = "live"  # "live" or "over"
    winner: int | None = None  # 0, 1, or None (a draw, or not over)
    reason: str | None = None
    draw_offer: str | None = None  # the player offering a draw
    left: list[float | None] = field(default_factory=lambda: [None, None])  # seconds on each clock
    last_move: float = 0.0
    created: float = 0.0
    ended: float | None = None
    takeback_offer: str | None = None  # the player asking to take their last move back
    assist: bool = False  # casual, and both agreed the players may use the engine's help
    opening: int = 0  # plies of a drawn opening (a checkers ballot) at the start of ``moves``: nobody's
    berserk: int = 0  # the sides that went berserk in an arena (bit 1 first, 2 second): no increment

    @property
    def played(self) -> int:
        """Moves the players made (not the opening's)."""
        return len(self.moves) - self.opening


@dataclass
class TournamentRow:
    """A tournament as stored: what is listed in columns, the rest (players, rounds, games,
    scores) in ``data``, which tournament.py reads and writes; ``crosstable`` once it is over."""

    id: str
    name: str
    kind: str  # "swiss" or "arena"
    game: str
    creator: str
    status: str  # "open", "running" or "over"
    created: float
    starts: float
    data: dict = field(default_factory=dict)
    crosstable: list | None = None


@dataclass(frozen=True)
class Notice:
    """A change another front end made: ``kind`` as Lobby.changed names them, ``data`` what
    identifies it (a game's or offer's id; a gone offer or a chat line whole)."""

    kind: str
    data: dict
    origin: str  # the front end that made it


@dataclass(frozen=True)
class PuzzleDay:
    """A player's go at one game's puzzle of one day: first seen (``viewed``), answers given,
    and when the right one came (None: not solved)."""

    player: str
    game: str
    day: str
    viewed: float
    attempts: int
    solved: float | None

    @property
    def seconds(self) -> float | None:
        """From first view to the right answer."""
        return None if self.solved is None else max(0.0, self.solved - self.viewed)


class LobbyStorage(Protocol):
    """What the lobby needs of its database, whichever it is."""

    where: str  # for the log and errors: a path, or the DSN without its password

    def close(self) -> None: ...

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction (nested calls join the outer one): committed at the end, rolled back
        on an exception. StorageConflict if it lost to another's and may be run again."""
        ...

    def lock_names(self, *names: str) -> None:
        """Inside a transaction: hold these names until it ends (players: their ratings, their
        offers and games counted against a cap; a lease's name)."""

    # ratings
    def rating(self, player: str, game: str) -> tuple[Rating, int]: ...
    def ratings(self, game: str | None = None) -> list[tuple[str, str, Rating, int]]: ...
    # players
    def add_player(self, name: str, kind: str, when: float) -> None: ...
    def player_kind(self, name: str) -> str | None: ...
    # offers
    def add_offer(self, offer: Offer) -> None: ...
    def offers(self) -> list[Offer]: ...
    def offer(self, offer_id: str) -> Offer | None: ...
    def remove_offer(self, offer_id: str) -> bool: ...
    # games
    def add_game(self, row: GameRow) -> None: ...
    def save_game(self, row: GameRow) -> None: ...
    def finish(self, row: GameRow, ratings: dict[str, tuple[Rating, int]] | None = None) -> None: ...
    def game(self, game_id: str, *, lock: bool = False) -> GameRow | None: ...
    def games(self, *, player: str | None = None, status: str | None = None, limit: int = 200) -> list[GameRow]: ...
    # tournaments (tournament.py): the state is one JSON document a tournament
    def add_tournament(self, row: "TournamentRow") -> None: ...
    def save_tournament(self, row: "TournamentRow") -> None: ...
    def tournament(self, tournament_id: str, *, lock: bool = False) -> "TournamentRow | None": ...
    def tournaments(self, *, status: str | None = None, limit: int = 200) -> list["TournamentRow"]: ...
    def add_tournament_game(self, game_id: str, tournament_id: str, round_number: int) -> None: ...
    def tournament_of_game(self, game_id: str) -> tuple[str, int] | None: ...
    def tournament_ids(self, *, status: str, limit: int) -> list[str]:
        """The ids of the latest tournaments of ``status`` (by their start), without reading them."""
        ...

    def unplayed_tournaments(self, creator: str) -> list["TournamentRow"]:
        """The creator's tournaments that are over without a game played (cancelled)."""
        ...

    def delete_tournament(self, tournament_id: str) -> None: ...
    # between front ends
    def publish(self, notice: Notice) -> None:
        """Tell the other front ends (with the transaction it is part of, if any)."""

    def notices(self) -> AsyncIterator[Notice]:
        """The other front ends' notices as they come (and this one's own: skip them by origin)."""
        ...

    def take_lease(self, name: str, holder: str, seconds: float, now: float, data: dict | None = None) -> bool:
        """Take or renew the lease ``name`` for ``seconds`` if it is free, expired or ours."""
        ...

    def release_lease(self, name: str, holder: str) -> None: ...
    def lease(self, name: str, now: float) -> tuple[str, dict] | None:
        """(holder, data) of a lease that has not expired, or None."""
        ...

    def heartbeat(self, frontend: str, expires: float) -> None: ...
    def beat(self, now: float) -> None:
        """The lobby is up at ``now`` (the heartbeat row a restart measures its downtime by)."""
        ...

    def resume(self, now: float, tolerance: float) -> tuple[float, float]:
        """After downtime longer than ``tolerance``: the live games' clocks moved on by it.
        (downtime given back, when presence started again)."""
        ...

    def forget_frontends(self, before: float) -> None: ...
    def others_alive(self, frontend: str, now: float) -> int:
        """How many other front ends beat now."""
        ...

    def alone(self, alone: bool) -> None:
        """Whether this front end is the only one (a backend that polls for notices may look
        less often then)."""
    def set_presence(self, frontend: str, player: str, sessions: int, acted: float) -> None: ...
    def presence(self, player: str, now: float) -> tuple[int, float | None]:
        """(sessions open on live front ends, the last time the player acted anywhere)."""
        ...

    def online(self, now: float) -> list[tuple[str, str]]:
        """(player, front end) of every session open on a live front end."""
        ...

    # the players' keys, when the front ends share them here (identity.py's SharedKeys)
    def keys_of(self, name: str) -> set[bytes]: ...
    def names_of(self, key: bytes) -> list[str]: ...
    def key_names(self) -> list[str]:
        """Every name that has a key."""
        ...

    def reserve_registration(self, source: str, now: float, window: float, most: int) -> bool:
        """Count one more name registered from ``source`` at ``now`` if fewer than ``most`` were
        in the last ``window`` seconds (False, and nothing counted, if not)."""
        ...

    def release_registration(self, source: str, at: float) -> None:
        """Forget a reserved registration that did not happen."""
        ...

    def any_keys(self) -> bool: ...

    # The puzzle of the day (see SqlStorage's block).
    def puzzle_viewed(self, player: str, game: str, day: str, now: float) -> PuzzleDay: ...
    def puzzle_attempt(self, player: str, game: str, day: str, now: float, correct: bool,
                       most: int) -> PuzzleDay | None: ...
    def puzzle_days(self, game: str, day: str) -> list[PuzzleDay]: ...
    def puzzle_solved_days(self, player: str, game: str, limit: int) -> list[str]: ...
    def add_key(self, name: str, key: bytes, line: str, *, claim: bool = False, most_names: int = 0,
                now: float = 0.0) -> str | None: ...


def redact(dsn: str) -> str:
    """A DSN as it may be logged or shown: the password (in the URL or as password=) replaced."""
    text = re.sub(r"(://[^:/?#@]*):[^@/?#]*@", r"\1:***@", dsn)
    return re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]+)", r"\1***", text, flags=re.IGNORECASE)


def is_postgres(spec: str) -> bool:
    return spec.startswith(("postgresql://", "postgres://"))


# -- the SQL both backends run -----------------------------------------------------------------------

GAME_COLUMNS = ("id, game, variant, first, second, clock, rated, moves, status, winner, reason, draw_offer, "
                "left_first, left_second, last_move, created, ended, takeback_offer, assist, opening, berserk")
OFFER_COLUMNS = "id, kind, owner, target, game, variant, clock, rated, colour, created, assist"


TOURNAMENT_COLUMNS = "id, name, kind, game, creator, status, created, starts, data, crosstable"


def _tournament_row(row) -> TournamentRow:
    i, name, kind, game, creator, status, created, starts, data, crosstable = row
    return TournamentRow(i, name, kind, game, creator, status, created, starts, json.loads(data),
                         None if crosstable is None else json.loads(crosstable))


def _game_row(row) -> GameRow:
    (game_id, game, variant, first, second, clock, rated, moves, status, winner, reason, draw_offer,
     left_first, left_second, last_move, created, ended, takeback_offer, assist, opening, berserk) = row
    return GameRow(game_id, game, json.loads(variant), (first, second), clock, bool(rated), json.loads(moves),
                   status, winner, reason, draw_offer, [left_first, left_second], last_move, created, ended,
                   takeback_offer, bool(assist), opening, berserk)


def _offer(row) -> Offer:
    i, k, o, t, g, v, c, r, col, cr, a = row
    return Offer(i, k, o, t, g, json.loads(v), c, bool(r), col, cr, bool(a))


def notice_text(notice: Notice) -> str:
    text = json.dumps({"k": notice.kind, "d": notice.data, "o": notice.origin}, separators=(",", ":"))
    if len(text.encode()) > MAX_NOTICE:  # (a chat line is bounded far below this; never a game's moves)
        raise ValueError(f"a {notice.kind} notice of {len(text)} bytes is too long")
    return text


def read_notice(text: str) -> Notice | None:
    try:
        data = json.loads(text)
        return Notice(str(data["k"]), dict(data["d"]), str(data["o"]))
    except (ValueError, KeyError, TypeError):
        return None


class SqlStorage(ABC):
    """The queries, written once with ``?`` placeholders; a backend gives the connection, the
    transactions and what differs."""

    where = ""
    _depth = 0  # nesting of transaction()

    @abstractmethod
    def _execute(self, sql: str, args: tuple | list = ()) -> Any:
        """Run one statement on the backend's connection."""

    def _rowcount(self, cursor: Any) -> int:
        return cursor.rowcount

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction that nests (an inner one joins the outer) and retries nothing itself."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._begin()
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._rollback()
            raise
        self._depth = 0
        self._commit()

    @abstractmethod
    def _begin(self) -> None:
        """Start the outermost transaction; StorageConflict if the database is held."""

    @abstractmethod
    def _commit(self) -> None:
        """End the outermost transaction; StorageConflict or StorageUnavailable if it may not have."""

    @abstractmethod
    def _rollback(self) -> None:
        """Undo the outermost transaction after an error, if the connection still lives."""

    def _for_update(self) -> str:
        return ""

    @contextmanager
    def _presence_write(self) -> Iterator[None]:
        """Around a write of presence alone (who is here, the front ends' heartbeats, the notice
        telling the others): what a crash of the machine may lose, unlike games and ratings.
        A backend may skip waiting for the disk for it; within a transaction, its commit decides."""
        yield

    @abstractmethod
    def lock_names(self, *names: str) -> None:
        """Inside a transaction: hold these names until it ends."""

    # -- ratings -------------------------------------------------------------------------------

    def rating(self, player: str, game: str) -> tuple[Rating, int]:
        row = self._execute("SELECT rating, rd, volatility, games FROM ratings WHERE player=? AND game=?",
                            (player, game)).fetchone()
        return (Rating(*row[:3]), row[3]) if row else (Rating(), 0)

    def ratings(self, game: str | None = None) -> list[tuple[str, str, Rating, int]]:
        """(player, game, rating, games) best first."""
        query = "SELECT player, game, rating, rd, volatility, games FROM ratings"
        rows = self._execute(query + (" WHERE game=?" if game else "") + " ORDER BY game, rating DESC",
                             (game,) if game else ()).fetchall()
        return [(p, g, Rating(r, rd, v), n) for p, g, r, rd, v, n in rows]

    def _set_rating(self, player: str, game: str, rating: Rating, games: int) -> None:
        self._execute("INSERT INTO ratings VALUES (?,?,?,?,?,?) ON CONFLICT (player, game) DO UPDATE SET "
                      "rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility, "
                      "games=excluded.games", (player, game, *rating, games))

    # -- players -------------------------------------------------------------------------------

    def add_player(self, name: str, kind: str, when: float) -> None:
        """Remember a player who has been here (``kind``: human, guest or computer)."""
        self._execute("INSERT INTO players VALUES (?,?,?) ON CONFLICT (name) DO UPDATE SET kind=excluded.kind "
                      "WHERE players.kind != excluded.kind", (name, kind, when))

    def player_kind(self, name: str) -> str | None:
        row = self._execute("SELECT kind FROM players WHERE name=?", (name,)).fetchone()
        return row[0] if row else None

    # -- offers --------------------------------------------------------------------------------

    def add_offer(self, offer: Offer) -> None:
        self._execute(f"INSERT INTO offers ({OFFER_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                      (offer.id, offer.kind, offer.owner, offer.target, offer.game, json.dumps(offer.variant),
                       offer.clock, int(offer.rated), offer.colour, offer.created, int(offer.assist)))

    def offers(self) -> list[Offer]:
        return [_offer(row) for row in self._execute(f"SELECT {OFFER_COLUMNS} FROM offers ORDER BY created")
                .fetchall()]

    def offer(self, offer_id: str) -> Offer | None:
        row = self._execute(f"SELECT {OFFER_COLUMNS} FROM offers WHERE id=?", (offer_id,)).fetchone()
        return _offer(row) if row else None

    def remove_offer(self, offer_id: str) -> bool:
        return self._rowcount(self._execute("DELETE FROM offers WHERE id=?", (offer_id,))) > 0

    # -- games ---------------------------------------------------------------------------------

    def add_game(self, row: GameRow) -> None:
        self._execute(
            "INSERT INTO games (id, game, variant, first, second, clock, rated, moves, status, left_first, "
            "left_second, last_move, created, assist, opening) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row.id, row.game, json.dumps(row.variant), *row.players, row.clock, int(row.rated),
             json.dumps(row.moves), row.status, *row.left, row.last_move, row.created, int(row.assist),
             row.opening))

    def save_game(self, row: GameRow) -> None:
        self._execute(
            "UPDATE games SET moves=?, status=?, winner=?, reason=?, draw_offer=?, left_first=?, left_second=?, "
            "last_move=?, ended=?, takeback_offer=?, berserk=? WHERE id=?",
            (json.dumps(row.moves), row.status, row.winner, row.reason, row.draw_offer, *row.left, row.last_move,
             row.ended, row.takeback_offer, row.berserk, row.id))

    def finish(self, row: GameRow, ratings: dict[str, tuple[Rating, int]] | None = None) -> None:
        """Save a game that has just ended and, for a rated one, both new ratings, at once."""
        with self.transaction():
            self.save_game(row)
            for player, (rating, games) in (ratings or {}).items():
                self._set_rating(player, row.game, rating, games)

    def game(self, game_id: str, *, lock: bool = False) -> GameRow | None:
        """The game; ``lock`` (inside a transaction): held until the transaction ends."""
        row = self._execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id=?" + (self._for_update() if lock else ""),
                            (game_id,)).fetchone()
        return _game_row(row) if row else None

    def games(self, *, player: str | None = None, status: str | None = None, limit: int = 200) -> list[GameRow]:
        query, args = f"SELECT {GAME_COLUMNS} FROM games WHERE 1=1", []
        if player is not None:
            query += " AND (first=? OR second=?)"
            args += [player, player]
        if status is not None:
            query += " AND status=?"
            args.append(status)
        rows = self._execute(query + " ORDER BY created DESC LIMIT ?", (*args, limit)).fetchall()
        return [_game_row(row) for row in rows]

    # -- tournaments ---------------------------------------------------------------------------

    def add_tournament(self, row: TournamentRow) -> None:
        self._execute("INSERT INTO tournaments VALUES (?,?,?,?,?,?,?,?,?,?)",
                      (row.id, row.name, row.kind, row.game, row.creator, row.status, row.created, row.starts,
                       json.dumps(row.data), None if row.crosstable is None else json.dumps(row.crosstable)))

    def save_tournament(self, row: TournamentRow) -> None:
        self._execute("UPDATE tournaments SET status=?, starts=?, data=?, crosstable=? WHERE id=?",
                      (row.status, row.starts, json.dumps(row.data),
                       None if row.crosstable is None else json.dumps(row.crosstable), row.id))

    def tournament(self, tournament_id: str, *, lock: bool = False) -> TournamentRow | None:
        row = self._execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id=?"
                            + (self._for_update() if lock else ""), (tournament_id,)).fetchone()
        return _tournament_row(row) if row else None

    def tournaments(self, *, status: str | None = None, limit: int = 200) -> list[TournamentRow]:
        query, args = f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments", []
        if status is not None:
            query += " WHERE status=?"
            args.append(status)
        rows = self._execute(query + " ORDER BY starts DESC LIMIT ?", (*args, limit)).fetchall()
        return [_tournament_row(row) for row in rows]

    def add_tournament_game(self, game_id: str, tournament_id: str, round_number: int) -> None:
        self._execute("INSERT INTO tournament_games VALUES (?,?,?)", (game_id, tournament_id, round_number))

    def tournament_of_game(self, game_id: str) -> tuple[str, int] | None:
        row = self._execute("SELECT tournament, round FROM tournament_games WHERE game_id=?", (game_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def tournament_ids(self, *, status: str, limit: int) -> list[str]:
        rows = self._execute("SELECT id FROM tournaments WHERE status=? ORDER BY starts DESC LIMIT ?",
                             (status, limit)).fetchall()
        return [row[0] for row in rows]

    def unplayed_tournaments(self, creator: str) -> list[TournamentRow]:
        rows = self._execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE creator=? AND status='over' "
                             "AND NOT EXISTS (SELECT 1 FROM tournament_games WHERE tournament=tournaments.id)",
                             (creator,)).fetchall()
        return [_tournament_row(row) for row in rows]

    def delete_tournament(self, tournament_id: str) -> None:
        self._execute("DELETE FROM tournaments WHERE id=?", (tournament_id,))

    # -- leases, heartbeats, presence ------------------------------------------------------------

    def take_lease(self, name: str, holder: str, seconds: float, now: float, data: dict | None = None) -> bool:
        with self.transaction():
            self.lock_names("lease:" + name)  # (a row not there yet cannot be locked FOR UPDATE)
            row = self._execute("SELECT holder, expires FROM leases WHERE name=?",
                                (name,)).fetchone()
            if row is not None and row[0] != holder and row[1] > now:
                return False
            self._execute("INSERT INTO leases VALUES (?,?,?,?) ON CONFLICT (name) DO UPDATE SET "
                          "holder=excluded.holder, expires=excluded.expires, data=excluded.data",
                          (name, holder, now + seconds, json.dumps(data or {})))
            return True

    def release_lease(self, name: str, holder: str) -> None:
        self._execute("DELETE FROM leases WHERE name=? AND holder=?", (name, holder))

    def lease(self, name: str, now: float) -> tuple[str, dict] | None:
        row = self._execute("SELECT holder, data FROM leases WHERE name=? AND expires>?", (name, now)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def forget_frontends(self, before: float) -> None:
        """The rows of front ends dead since before ``before`` (each start of one adds a row)."""
        with self.transaction():
            self._execute("DELETE FROM presence WHERE frontend IN (SELECT id FROM frontends WHERE expires<?)",
                          (before,))
            self._execute("DELETE FROM frontends WHERE expires<?", (before,))

    def others_alive(self, frontend: str, now: float) -> int:
        return int(self._execute("SELECT COUNT(*) FROM frontends WHERE id!=? AND expires>?",
                                 (frontend, now)).fetchone()[0])

    @abstractmethod
    def alone(self, alone: bool) -> None:
        """Whether this front end is the only one."""

    def heartbeat(self, frontend: str, expires: float) -> None:
        with self._presence_write():
            self._execute("INSERT INTO frontends VALUES (?,?) ON CONFLICT (id) DO UPDATE SET "
                          "expires=excluded.expires", (frontend, expires))

    def beat(self, now: float) -> None:
        """The lobby is up at ``now`` (every front end says so every tick)."""
        with self._presence_write():
            self._execute("UPDATE lobby_beat SET beat=? WHERE id=1 AND beat<?", (now, now))

    def resume(self, now: float, tolerance: float) -> tuple[float, float]:
        """At a front end's start: if no front end has beaten for more than ``tolerance``
        seconds (the lobby was down), every live game's clock resumes as it stood at the last
        beat (its ``last_move`` moved on by the downtime) and presence starts again from
        ``now``. Once, whichever front ends start together. Returns (the downtime given back,
        when presence started again)."""
        with self.transaction():
            row = self._execute(f"SELECT beat, resumed FROM lobby_beat WHERE id=1{self._for_update()}").fetchone()
            if row is None:
                self._execute("INSERT INTO lobby_beat VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING", (now, now))
                return 0.0, now
            beat, resumed = row
            down = now - beat
            if down <= tolerance:
                return 0.0, resumed
            self._execute("UPDATE games SET last_move=last_move+? WHERE status='live'", (down,))
            self._execute("UPDATE lobby_beat SET beat=?, resumed=? WHERE id=1", (now, now))
            return down, now

    def set_presence(self, frontend: str, player: str, sessions: int, acted: float) -> None:
        with self._presence_write():
            self._execute("INSERT INTO presence VALUES (?,?,?,?) ON CONFLICT (frontend, player) DO UPDATE SET "
                          "sessions=excluded.sessions, acted=excluded.acted", (frontend, player, sessions, acted))

    def presence(self, player: str, now: float) -> tuple[int, float | None]:
        row = self._execute(
            # A session open on a front end that died was there until it died: its last
            # heartbeat's expiry counts as an act (a front end's death is not its players').
            "SELECT SUM(CASE WHEN f.expires>? THEN p.sessions ELSE 0 END), "
            "MAX(CASE WHEN p.sessions>0 AND f.expires>p.acted THEN f.expires ELSE p.acted END) FROM presence p "
            "LEFT JOIN frontends f ON f.id=p.frontend WHERE p.player=?", (now, player)).fetchone()
        return (int(row[0] or 0), row[1]) if row else (0, None)

    def online(self, now: float) -> list[tuple[str, str]]:
        rows = self._execute("SELECT p.player, p.frontend FROM presence p JOIN frontends f ON f.id=p.frontend "
                             "WHERE p.sessions>0 AND f.expires>? ORDER BY p.player", (now,)).fetchall()
        return [(player, frontend) for player, frontend in rows]

    # -- the players' keys (identity.py, when front ends share them here) --------------------------

    def keys_of(self, name: str) -> set[bytes]:
        return {base64.b64decode(key) for (key,) in self._execute("SELECT key FROM user_keys WHERE name=?",
                                                                   (name,)).fetchall()}

    def names_of(self, key: bytes) -> list[str]:
        return [name for (name,) in self._execute("SELECT name FROM user_keys WHERE key=? ORDER BY name",
                                                  (base64.b64encode(key).decode(),)).fetchall()]

    def any_keys(self) -> bool:
        return self._execute("SELECT 1 FROM user_keys LIMIT 1").fetchone() is not None

    def key_names(self) -> list[str]:
        return [row[0] for row in self._execute("SELECT DISTINCT name FROM user_keys").fetchall()]

    def reserve_registration(self, source: str, now: float, window: float, most: int) -> bool:
        with self.transaction():
            self._execute("DELETE FROM registrations WHERE at<?", (now - window,))
            self.lock_names(f"registrations:{source}")  # two at once from one source: one after the other
            count = self._execute("SELECT COUNT(*) FROM registrations WHERE source=? AND at>=?",
                                  (source, now - window)).fetchone()[0]
            if count >= most:
                return False
            self._execute("INSERT INTO registrations VALUES (?,?)", (source, now))
            return True

    def release_registration(self, source: str, at: float) -> None:
        self._execute("DELETE FROM registrations WHERE source=? AND at=?", (source, at))

    def add_key(self, name: str, key: bytes, line: str, *, claim: bool = False, most_names: int = 0,
                now: float = 0.0) -> str | None:
        """Register ``key`` for ``name``; with ``claim``, only if the name has no other key and the
        key owns fewer than ``most_names`` names. The refusal as one line, or None (added, or there)."""
        blob = base64.b64encode(key).decode()
        with self.transaction():
            self.lock_names("keys-of:" + name, "names-of:" + blob)
            owners = self.keys_of(name)
            if key in owners:
                return None
            if claim:
                if owners:
                    return f"the name {name!r} belongs to another key; log in with another name"
                owned = self.names_of(key)
                if len(owned) >= most_names:
                    return (f"this key already owns {len(owned)} names: {', '.join(owned)}; "
                            f"log in as one of them")
            self._execute("INSERT INTO user_keys VALUES (?,?,?,?)", (name, blob, line, now or time.time()))
            return None

    # -- the puzzle of the day ----------------------------------------------------------------

    _PUZZLE_COLUMNS = "player, game, day, viewed, attempts, solved"

    def _puzzle_day(self, player: str, game: str, day: str, lock: str = "") -> PuzzleDay | None:
        row = self._execute(f"SELECT {self._PUZZLE_COLUMNS} FROM puzzle_days WHERE player=? AND game=? AND day=?"
                            + lock, (player, game, day)).fetchone()
        return None if row is None else PuzzleDay(*row)

    def puzzle_viewed(self, player: str, game: str, day: str, now: float) -> PuzzleDay:
        """The player's row of the day, made at the first view (which starts the solve time)."""
        with self.transaction():
            self._execute("INSERT INTO puzzle_days (player, game, day, viewed) VALUES (?,?,?,?) "
                          "ON CONFLICT (player, game, day) DO NOTHING", (player, game, day, now))
            found = self._puzzle_day(player, game, day)
        assert found is not None
        return found

    def puzzle_attempt(self, player: str, game: str, day: str, now: float, correct: bool,
                       most: int) -> PuzzleDay | None:
        """One answer counted (and the solve, if ``correct``), or None when the day's puzzle is
        solved already or ``most`` answers were given: checked and written in one transaction,
        so two front ends cannot both take the last attempt."""
        with self.transaction():
            self._execute("INSERT INTO puzzle_days (player, game, day, viewed) VALUES (?,?,?,?) "
                          "ON CONFLICT (player, game, day) DO NOTHING", (player, game, day, now))
            held = self._puzzle_day(player, game, day, self._for_update())
            if held is None or held.solved is not None or held.attempts >= most:
                return None
            self._execute("UPDATE puzzle_days SET attempts=attempts+1, solved=? WHERE player=? AND game=? AND day=?",
                          (now if correct else None, player, game, day))
            return self._puzzle_day(player, game, day)

    def puzzle_days(self, game: str, day: str) -> list[PuzzleDay]:
        rows = self._execute(f"SELECT {self._PUZZLE_COLUMNS} FROM puzzle_days WHERE game=? AND day=?",
                             (game, day)).fetchall()
        return [PuzzleDay(*row) for row in rows]

    def puzzle_solved_days(self, player: str, game: str, limit: int) -> list[str]:
        """The days (ISO dates) the player solved the game's puzzle, latest first."""
        rows = self._execute("SELECT day FROM puzzle_days WHERE player=? AND game=? AND solved IS NOT NULL "
                             "ORDER BY day DESC LIMIT ?", (player, game, limit)).fetchall()
        return [row[0] for row in rows]

    def _migrate(self, version: int, fresh: bool) -> None:
        """The schema (tables missing are made) and, on an older database, each migration after
        ``version`` in order."""
        for statement in self._schema_statements():
            self._execute(statement)
        if not fresh:
            for number in range(max(version, 1) + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number]:
                    self._execute(statement)

    def _schema_statements(self) -> list[str]:
        return [part.strip() for part in SCHEMA.split(";") if part.strip()]


class Storage(SqlStorage):
    """The lobby in one SQLite file (WAL; the schema version in ``PRAGMA user_version``).

    Every commit waits for the disk (``synchronous=FULL``) except presence's
    (:meth:`_presence_write`): four of those a login (the player's session and the app's lobby
    connection, each with its notice to the other front ends) blocked the server's loop for
    5-15 ms each on fsync. Written with ``synchronous=NORMAL``, a crash of the machine may lose
    the last of them, never a game or a rating: the next FULL commit syncs the log with every
    transaction before it, in order."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.where = str(path)
        self.db = sqlite3.connect(path, timeout=10, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # (see _presence_write)
        self.db.execute("PRAGMA foreign_keys=ON")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"{path} was written by a newer tui-games (schema {version})")
        fresh = not self.db.execute("SELECT name FROM sqlite_master WHERE name='games'").fetchone()
        with self.transaction():
            self._migrate(version, fresh)
            self.db.execute("CREATE TABLE IF NOT EXISTS feed (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                            "notice TEXT NOT NULL, created REAL NOT NULL)")
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._feed_seen = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM feed").fetchone()[0]
        self._published = 0
        self._poll = SQLITE_POLL

    def close(self) -> None:
        self.db.close()

    def _execute(self, sql: str, args: tuple | list = ()) -> Any:
        return self.db.execute(sql, args)

    def _begin(self) -> None:
        # BEGIN IMMEDIATE takes the database's write lock at once: the transaction's reads and
        # its writes see no other process's writes between them (a game read "for update").
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise StorageConflict(str(error)) from None
            raise

    def _commit(self) -> None:
        self.db.execute("COMMIT")

    def _rollback(self) -> None:
        self.db.execute("ROLLBACK")

    @contextmanager
    def _presence_write(self) -> Iterator[None]:
        if self._depth:
            yield
            return
        self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            yield
        finally:
            self.db.execute("PRAGMA synchronous=FULL")

    # -- between front ends: the feed table, read by polling -------------------------------------

    def alone(self, alone: bool) -> None:
        self._poll = SQLITE_POLL_ALONE if alone else SQLITE_POLL

    def lock_names(self, *names: str) -> None:
        """Nothing to take: BEGIN IMMEDIATE holds the whole database already."""

    def publish(self, notice: Notice) -> None:
        now = time.time()
        with self._presence_write() if notice.kind == "presence" else nullcontext():
            self.db.execute("INSERT INTO feed (notice, created) VALUES (?,?)", (notice_text(notice), now))
        self._published += 1
        if self._published % 500 == 0:
            self.db.execute("DELETE FROM feed WHERE created<?", (now - FEED_KEEP_SECONDS,))

    def new_notices(self) -> list[Notice]:
        """The feed's rows since the last call (other processes' and this one's)."""
        rows = self.db.execute("SELECT id, notice FROM feed WHERE id>? ORDER BY id", (self._feed_seen,)).fetchall()
        if rows:
            self._feed_seen = rows[-1][0]
        return [notice for _, text in rows if (notice := read_notice(text)) is not None]

    async def notices(self) -> AsyncIterator[Notice]:
        import asyncio

        # ``PRAGMA data_version`` changes when another connection commits: a cheap look every
        # POLL seconds, and the feed is read only then.
        yield Notice("resync", {}, "")  # (listening from now on, as PostgreSQL's says when connected)
        version = None
        while True:
            now_version = self.db.execute("PRAGMA data_version").fetchone()[0]
            if now_version != version:
                version = now_version
                for notice in self.new_notices():
                    yield notice
            await asyncio.sleep(self._poll)


SQLITE_POLL = 0.02  # seconds between looks at a shared SQLite file for other front ends' changes
SQLITE_POLL_ALONE = 0.5  # ... while no other front end beats (one starting is seen within a second)
