"""Which storage a lobby runs on: ``postgresql://…`` (or ``postgres://``) is PostgreSQL
(storage_pg.py, several front ends), anything else a SQLite file (storage.py, the default)."""

from __future__ import annotations

from pathlib import Path

from tui_games.server.lobby.storage import LobbyStorage, Storage, is_postgres


def open_storage(spec: str | Path) -> LobbyStorage:
    text = str(spec)
    if is_postgres(text):
        from tui_games.server.lobby.storage_pg import PostgresStorage

        return PostgresStorage(text)
    return Storage(Path(text))
