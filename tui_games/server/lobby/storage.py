"""The lobby's storage: SQLite in WAL mode behind a small interface, so that a shared
database could replace it when one machine is not enough.

Every write is one transaction; two server processes on one file see each other's changes
(WAL, a busy timeout). The schema carries its version in ``PRAGMA user_version``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from tui_games.server.lobby.glicko2 import Rating

SCHEMA_VERSION = 4
# What each version added to the one before (run in order on an older file).
MIGRATIONS = {
    2: ["ALTER TABLE games ADD COLUMN takeback_offer TEXT"],
    3: ["ALTER TABLE offers ADD COLUMN assist INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN assist INTEGER NOT NULL DEFAULT 0"],
    4: ["ALTER TABLE games ADD COLUMN opening INTEGER NOT NULL DEFAULT 0"],
}
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
    opening INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, kind TEXT NOT NULL, first_seen REAL NOT NULL);
CREATE INDEX IF NOT EXISTS games_first ON games (first, status);
CREATE INDEX IF NOT EXISTS games_second ON games (second, status);
"""


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

    @property
    def played(self) -> int:
        """Moves the players made (not the opening's)."""
        return len(self.moves) - self.opening


class Storage:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, timeout=10, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"{path} was written by a newer tui-games (schema {version})")
        fresh = not self.db.execute("SELECT name FROM sqlite_master WHERE name='games'").fetchone()
        self.db.executescript(SCHEMA)
        if not fresh:
            for number in range(max(version, 1) + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[number]:
                    self.db.execute(statement)
        self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    # -- ratings -------------------------------------------------------------------------------

    def rating(self, player: str, game: str) -> tuple[Rating, int]:
        row = self.db.execute("SELECT rating, rd, volatility, games FROM ratings WHERE player=? AND game=?",
                              (player, game)).fetchone()
        return (Rating(*row[:3]), row[3]) if row else (Rating(), 0)

    def ratings(self, game: str | None = None) -> list[tuple[str, str, Rating, int]]:
        """(player, game, rating, games) best first."""
        query = "SELECT player, game, rating, rd, volatility, games FROM ratings"
        rows = self.db.execute(query + (" WHERE game=?" if game else "") + " ORDER BY game, rating DESC",
                               (game,) if game else ()).fetchall()
        return [(p, g, Rating(r, rd, v), n) for p, g, r, rd, v, n in rows]

    def _set_rating(self, player: str, game: str, rating: Rating, games: int) -> None:
        self.db.execute("INSERT INTO ratings VALUES (?,?,?,?,?,?) ON CONFLICT (player, game) DO UPDATE SET "
                        "rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility, "
                        "games=excluded.games", (player, game, *rating, games))

    # -- players -------------------------------------------------------------------------------

    def add_player(self, name: str, kind: str, when: float) -> None:
        """Remember a player who has been here (``kind``: human, guest or computer)."""
        self.db.execute("INSERT INTO players VALUES (?,?,?) ON CONFLICT (name) DO UPDATE SET kind=excluded.kind "
                        "WHERE players.kind != excluded.kind", (name, kind, when))

    def player_kind(self, name: str) -> str | None:
        row = self.db.execute("SELECT kind FROM players WHERE name=?", (name,)).fetchone()
        return row[0] if row else None

    # -- offers --------------------------------------------------------------------------------

    def add_offer(self, offer: Offer) -> None:
        self.db.execute("INSERT INTO offers (id, kind, owner, target, game, variant, clock, rated, colour, created, "
                        "assist) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (offer.id, offer.kind, offer.owner, offer.target, offer.game, json.dumps(offer.variant),
                         offer.clock, int(offer.rated), offer.colour, offer.created, int(offer.assist)))

    def offers(self) -> list[Offer]:
        rows = self.db.execute("SELECT id, kind, owner, target, game, variant, clock, rated, colour, created, assist "
                               "FROM offers ORDER BY created").fetchall()
        return [Offer(i, k, o, t, g, json.loads(v), c, bool(r), col, cr, bool(a))
                for i, k, o, t, g, v, c, r, col, cr, a in rows]

    def offer(self, offer_id: str) -> Offer | None:
        rows = self.db.execute("SELECT id, kind, owner, target, game, variant, clock, rated, colour, created, assist "
                               "FROM offers WHERE id=?", (offer_id,)).fetchall()
        return next((Offer(i, k, o, t, g, json.loads(v), c, bool(r), col, cr, bool(a))
                     for i, k, o, t, g, v, c, r, col, cr, a in rows), None)

    def remove_offer(self, offer_id: str) -> bool:
        return self.db.execute("DELETE FROM offers WHERE id=?", (offer_id,)).rowcount > 0

    # -- games ---------------------------------------------------------------------------------

    def add_game(self, row: GameRow) -> None:
        self.db.execute(
            "INSERT INTO games (id, game, variant, first, second, clock, rated, moves, status, left_first, "
            "left_second, last_move, created, assist, opening) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row.id, row.game, json.dumps(row.variant), *row.players, row.clock, int(row.rated),
             json.dumps(row.moves), row.status, *row.left, row.last_move, row.created, int(row.assist),
             row.opening))

    def save_game(self, row: GameRow) -> None:
        self.db.execute(
            "UPDATE games SET moves=?, status=?, winner=?, reason=?, draw_offer=?, left_first=?, left_second=?, "
            "last_move=?, ended=?, takeback_offer=? WHERE id=?",
            (json.dumps(row.moves), row.status, row.winner, row.reason, row.draw_offer, *row.left, row.last_move,
             row.ended, row.takeback_offer, row.id))

    def finish(self, row: GameRow, ratings: dict[str, tuple[Rating, int]] | None = None) -> None:
        """Save a game that has just ended and, for a rated one, both new ratings, at once."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.save_game(row)
            for player, (rating, games) in (ratings or {}).items():
                self._set_rating(player, row.game, rating, games)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def game(self, game_id: str) -> GameRow | None:
        row = self.db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id=?", (game_id,)).fetchone()
        return _game_row(row) if row else None

    def games(self, *, player: str | None = None, status: str | None = None, limit: int = 200) -> list[GameRow]:
        query, args = f"SELECT {GAME_COLUMNS} FROM games WHERE 1=1", []
        if player is not None:
            query += " AND (first=? OR second=?)"
            args += [player, player]
        if status is not None:
            query += " AND status=?"
            args.append(status)
        rows = self.db.execute(query + " ORDER BY created DESC LIMIT ?", (*args, limit)).fetchall()
        return [_game_row(row) for row in rows]


GAME_COLUMNS = ("id, game, variant, first, second, clock, rated, moves, status, winner, reason, draw_offer, "
                "left_first, left_second, last_move, created, ended, takeback_offer, assist, opening")


def _game_row(row) -> GameRow:
    (game_id, game, variant, first, second, clock, rated, moves, status, winner, reason, draw_offer,
     left_first, left_second, last_move, created, ended, takeback_offer, assist, opening) = row
    return GameRow(game_id, game, json.loads(variant), (first, second), clock, bool(rated), json.loads(moves),
                   status, winner, reason, draw_offer, [left_first, left_second], last_move, created, ended,
                   takeback_offer, bool(assist), opening)


def now() -> float:
    return time.time()
