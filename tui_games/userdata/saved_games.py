"""``saves/GAME.json``, the games to resume, and the session lock that decides which of the
player's sessions writes them (tui_games.userdata.session_lock): the others are read-only for saved
games until they take over."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tui_games.userdata.files import CorruptFile, DataFiles
from tui_games.userdata.session_lock import Holder, SessionLock

SAVES_DIR = "saves"

# Game names become file names under saves/.
_GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def _validate_save(data: Any, game: str) -> dict:
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
        raise CorruptFile("no saved state in it")
    if data.get("game", game) != game:
        raise CorruptFile(f"it holds a {data.get('game')!r} game")
    return data["state"]


class SavedGames(DataFiles):
    #: the session lock, once the app has opened a session (None: a command-line tool, which
    #: never writes saved games, or a test's store: they write as they always did)
    session: SessionLock | None = None
    #: this session handed its saved games to another one that asked (see hand_over)
    handed_over = False

    def save_path(self, game: str) -> Path:
        if not isinstance(game, str) or not _GAME_NAME.match(game):
            raise ValueError(f"bad game name {game!r}: use lower-case letters, digits, '-' and '_'")
        return self.root / SAVES_DIR / f"{game}.json"

    def open_session(self) -> bool:
        """Take the data directory's session lock for the life of this app: True if this session
        writes saved games, False if another session holds them (read-only here until
        ``take_over``). Where no lock can be had at all, a warning says so and saving goes on."""
        if self.session is None:
            self.session = SessionLock(self.root)
        held = self.session.acquire()
        if self.session.unavailable:
            self._warn(f"{self.session.unavailable}; another session of yours could overwrite your saved games")
        return held

    @property
    def read_only(self) -> bool:
        """Saved games are read-only here: another session of this data directory holds them."""
        session = self.session
        return session is not None and not session.held and not session.unavailable

    def session_holder(self) -> Holder:
        """Who holds the saved games (pid, host, since when), as that session wrote it."""
        return (self.session or SessionLock(self.root)).holder()

    def request_takeover(self) -> bool:
        """Ask the session holding the saved games to save them and hand them over (then call
        ``take_over`` until it answers). False if another session is asking already."""
        return self.session is not None and self.read_only and self.session.request_takeover()

    def take_over(self) -> bool:
        """Take the saved games if the other session has let them go (or ended); True if this
        session writes them now. The request, if any, is withdrawn on success."""
        if self.session is None or not self.session.acquire():
            return False
        self.session.end_request()
        self.handed_over = False
        return True

    def withdraw_takeover(self) -> None:
        """Stop asking (the other session did not answer)."""
        if self.session is not None:
            self.session.end_request()

    def takeover_requested(self) -> bool:
        """Whether another session waits for this one's saved games (cheap: one stat)."""
        return self.session is not None and self.session.takeover_requested()

    def hand_over(self) -> None:
        """Let the saved games go to the session that asked: save them first (the app does),
        then call this; from now on this session is read-only."""
        if self.session is not None and self.session.held:
            self.session.release()
            self.handed_over = True

    def close_session(self) -> None:
        """Let the lock go at the app's exit (the kernel would, at the process's)."""
        if self.session is not None:
            self.session.close()

    def save_game(self, game: str, state: dict) -> bool:
        """Keep ``state`` (JSON-serialisable) as the game to resume. True if written; False if
        the disk said no or the saved games are read-only here (``read_only``)."""
        path = self.save_path(game)
        if not isinstance(state, dict):
            raise TypeError(f"a saved game is a dict, not {type(state).__name__}")
        saved_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        document = {"game": game, "saved_at": saved_at, "state": state}
        json.dumps(document)  # a TypeError for unserialisable state, before touching the disk
        if self.read_only:
            return False
        return self._write_json(path, document, f"{SAVES_DIR}/{game}.json")

    def load_game(self, game: str) -> dict | None:
        """The saved state of ``game``, or None if there is none (or it was unusable). A
        read-only session leaves a damaged file where it is, for the session that holds it."""
        path = self.save_path(game)
        if self.read_only:
            return self.peek_game(game)
        return self._load(path, f"{SAVES_DIR}/{game}.json", lambda data: _validate_save(data, game),
                          lambda: None, "the game starts afresh")

    def peek_game(self, game: str) -> dict | None:
        """The saved state of ``game`` like ``load_game``, but only reading: a bad file is
        neither moved nor reported here (opening the game does that), so the menu can ask freely."""
        try:
            return _validate_save(json.loads(self.save_path(game).read_bytes().decode("utf-8")), game)
        except (OSError, ValueError, RecursionError, CorruptFile):  # ValueError: bad JSON or UTF-8
            return None

    def clear_game(self, game: str) -> None:
        """Forget the saved ``game`` (after it ends or the player starts afresh); nothing is
        forgotten where the saved games are read-only."""
        path = self.save_path(game)
        if self.read_only:
            return
        try:
            path.unlink()
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as exc:
            self._warn(f"could not remove {SAVES_DIR}/{game}.json: {exc.strerror or exc}")
