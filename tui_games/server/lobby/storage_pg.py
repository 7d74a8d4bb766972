"""The lobby on PostgreSQL (``serve --ssh --lobby postgresql://…``), for several front ends
sharing one lobby: the same schema and queries as SQLite (storage.py), psycopg 3 as the driver
(``pip install "tui-games[postgres]"``).

- A game's check-and-write holds its row (``SELECT … FOR UPDATE``) for the transaction; players
  are held by transaction-scoped advisory locks (their ratings, their caps). A transaction
  that loses a deadlock is rolled back and reported as StorageConflict: the lobby runs the whole
  operation again.
- What changed goes out by ``pg_notify`` inside the same transaction (delivered at commit, or
  never); each front end LISTENs on a connection of its own.
- The schema's version is the one row of ``schema_version``; a database of a newer tui-games
  is refused, an older one migrated in one transaction (an advisory lock keeps two front ends
  starting at once from migrating twice).

The DSN may hold a password: only :func:`storage.redact`'s form of it is ever logged or shown.
"""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator

from tui_games.server import install_hint
from tui_games.server.lobby.storage import (
    CHANNEL,
    SCHEMA_VERSION,
    Notice,
    SqlStorage,
    StorageConflict,
    StorageUnavailable,
    notice_text,
    read_notice,
    redact,
)

try:
    import psycopg
    from psycopg import errors as pg_errors
except ImportError:  # open_storage says which extra to install
    psycopg = None  # type: ignore[assignment]

EXTRA = f"the PostgreSQL lobby needs psycopg 3: {install_hint('postgres')}"
MIGRATION_LOCK = 0x7475_6967  # an advisory lock's number: 'tuig'
CONNECT_SECONDS = 10
# A statement that waits on a lock longer than this is a front end stuck mid-transaction (its
# network gone): give up and let the operation be tried again rather than hang a move.
LOCK_TIMEOUT = "3s"
IDLE_IN_TRANSACTION = "10s"


class PostgresStorage(SqlStorage):
    def __init__(self, dsn: str) -> None:
        if psycopg is None:
            raise RuntimeError(EXTRA)
        self.dsn = dsn
        self.where = redact(dsn)
        self.db: Any = None
        self._connect()
        with self.transaction():
            self._execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            self._execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._execute("SELECT version FROM schema_version").fetchone()
            fresh = self._execute("SELECT to_regclass('games')").fetchone()[0] is None
            version = row[0] if row else (1 if not fresh else 0)
            if version > SCHEMA_VERSION:
                raise RuntimeError(f"{self.where} was written by a newer tui-games (schema {version})")
            self._migrate(version, fresh)
            self._execute("DELETE FROM schema_version")
            self._execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))

    def _connect(self) -> Any:
        """The connection, made again if it broke (the database restarted): StorageUnavailable
        while it cannot be."""
        if self.db is not None and not (self.db.closed or self.db.broken):
            return self.db
        try:
            self.db = psycopg.connect(self.dsn, autocommit=True, connect_timeout=CONNECT_SECONDS)
            self.db.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
            # A front end frozen mid-transaction (stopped, its network cut) must not hold a game's
            # row for long: the server ends such a session, and its transaction with it.
            self.db.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION}'")
        except psycopg.Error as error:
            # psycopg's message may quote the DSN: say what went wrong without it.
            raise StorageUnavailable(f"the lobby's database {self.where} cannot be reached "
                                     f"({_reason(error, self.dsn)}); try again in a moment") from None
        return self.db

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    def _execute(self, sql: str, args: tuple | list = ()) -> Any:
        for attempt in (1, 2):
            db = self._connect()
            try:
                return db.execute(sql.replace("?", "%s"), args)
            except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure, pg_errors.LockNotAvailable) as error:
                raise StorageConflict(str(error).splitlines()[0]) from None
            except (pg_errors.DiskFull, pg_errors.OutOfMemory, pg_errors.TooManyConnections) as error:
                raise StorageUnavailable(f"the lobby's database cannot take it now ({type(error).__name__}); "
                                         f"try again later") from None
            except psycopg.OperationalError as error:
                if not (db.closed or db.broken):
                    raise
                if self._depth:  # the transaction went with the connection: run it all again
                    raise StorageConflict(f"the connection broke: {_reason(error, self.dsn)}") from None
                if attempt == 2:
                    raise StorageUnavailable(f"the lobby's database {self.where} cannot be reached; "
                                             f"try again in a moment") from None
        raise AssertionError("unreachable")

    def _schema_statements(self) -> list[str]:
        return [statement.replace(" REAL", " DOUBLE PRECISION") for statement in super()._schema_statements()]

    def _for_update(self) -> str:
        return " FOR UPDATE"

    def alone(self, alone: bool) -> None:
        """Nothing to tune: NOTIFY brings changes whether or not other front ends run."""

    def lock_names(self, *names: str) -> None:
        # In one order everywhere, so that two transactions never wait on each other in a ring.
        for name in sorted(set(names)):
            self._execute("SELECT pg_advisory_xact_lock(hashtext(?))", (name,))

    def _begin(self) -> None:
        self._execute("BEGIN")

    def _rollback(self) -> None:
        if not (self.db.closed or self.db.broken):
            self.db.execute("ROLLBACK")

    def _commit(self) -> None:
        try:
            self.db.execute("COMMIT")
        except (pg_errors.SerializationFailure, pg_errors.DeadlockDetected) as error:
            raise StorageConflict(str(error).splitlines()[0]) from None
        except psycopg.OperationalError as error:
            # Whether it committed cannot be known: the player is told to look and try again.
            raise StorageUnavailable(f"the lobby's database went away ({_reason(error, self.dsn)}); "
                                     f"look at the game and try again") from None

    # -- between front ends: NOTIFY and LISTEN ----------------------------------------------------

    def publish(self, notice: Notice) -> None:
        self._execute("SELECT pg_notify(?, ?)", (CHANNEL, notice_text(notice)))

    async def notices(self) -> AsyncIterator[Notice]:
        """Every notice on the channel, from a connection of its own; when the database goes
        away it reconnects (the lobby re-reads its state then: a notice may have been missed)."""
        while True:
            try:
                listener = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True,
                                                                 connect_timeout=CONNECT_SECONDS)
            except psycopg.Error:
                await asyncio.sleep(1.0)
                continue
            try:
                await listener.execute(f"LISTEN {CHANNEL}")
                yield Notice("resync", {}, "")
                async for message in listener.notifies():
                    notice = read_notice(message.payload)
                    if notice is not None:
                        yield notice
            except psycopg.Error:
                await asyncio.sleep(0.5)
            finally:
                await listener.close()


def _reason(error: Exception, dsn: str) -> str:
    text = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
    return redact(text.replace(dsn, redact(dsn)))
