"""Settings, scores and saved games, kept as JSON files in the user's data directory.

Layout of the data directory (``TUI_GAMES_HOME`` or ``platformdirs.user_data_dir("tui-games")``)::

    settings.json        {"tictactoe": {...}, "engine": {...}, "ui": {...}}
    scores.json          {game: {opponent: {"win": n, "loss": n, "draw": n}}}
    records.json         {game: {category: {"best": seconds, "solved": n, "assisted": n}}}  (Sudoku: per
                         grade; "assisted": solves with hints, never a best; best null if only those)
    arena.json           [{"game", "a", "b", "games", "a_wins", "draws", "b_wins", "seconds", ...}]
                         finished arena runs (the Lab, ``tui-games arena``), oldest first
    saves/GAME.json      {"game": GAME, "saved_at": ISO time, "state": {...}}
    games/STAMP-NN.txt   one finished game a file, as a record (tui_games.engine.records), oldest
                         dropped first past 500 or the quota (tui_games.userdata.game_archive);
                         STAMP-NN-lab.txt: the Lab's games, 500 more apart, the first to go
    .lock                taken (flock) around every read-modify-write
    session.lock         held (flock) by the one app session that writes saved games
    session.takeover     another session asking it to hand over (see tui_games.userdata.session_lock)

A shared game server (``tui-games serve``) gives each player their own directory and names one
leaderboard for all of them in ``TUI_GAMES_LEADERBOARD`` (``{game: {user: {"win": n, ...}}}``,
the user from ``TUI_GAMES_USER``); ``record_result`` counts there too, under that file's own lock.

Why it is built this way:

- Every write goes to a temporary file in the same directory, is fsynced and then renamed over
  the target (``os.replace`` is atomic), so a crash or a full disk never leaves half a file.
- Two sessions may run at once (two terminals, two SSH logins, two browser tabs). A
  read-modify-write of scores, records, arena runs or settings holds an exclusive lock on
  ``.lock``, so neither loses the other's results (two changes of the same setting: the later
  one counts, as the player meant). A saved game is one whole document, so only the session
  holding ``session.lock`` writes saved games; an app that cannot take it (``open_session``)
  is read-only for them until it takes over (tui_games.userdata.session_lock).
- The files belong to the user, who may edit or damage them. Bad content never raises: a file
  that is not valid JSON or has the wrong shape is renamed to ``NAME.corrupt-YYYYmmdd-HHMMSS``
  (kept for the curious), defaults are used, and a one-line message goes to ``warnings`` for
  the UI to show once. Every setting has a rule (a range or a set of choices: the game table's
  ``setting_rules``, ``APP_SETTING_RULES``); a single value outside it falls back to its
  default on its own, with one line naming the file, the key and the value — never a crash,
  and the file stays where it is. Saving a value outside its rule is refused (SettingError).
  A directory we cannot write gives a warning too, and the game goes on without saving.

Each document is a module of :mod:`tui_games.userdata` (``settings``, ``scores``, ``records``,
``arena_runs``, ``saved_games``, ``game_archive``, over ``files``: reading, writing, the lock, the warnings);
:class:`Store` is all of them over one directory. None of it knows Textual; the UI polls
``take_warnings()`` to show messages.
"""

from __future__ import annotations

import contextlib
import getpass
import os
from pathlib import Path

import platformdirs

from tui_games.userdata.arena_runs import ARENA_FILE, ArenaRunsFile
from tui_games.userdata.files import LOCK_FILE, CorruptFile, atomic_write_text
from tui_games.userdata.game_archive import ARCHIVE_DIR, GameArchive
from tui_games.userdata.records import RECORDS_FILE, RecordsFile
from tui_games.userdata.saved_games import SAVES_DIR, SavedGames
from tui_games.userdata.scores import RESULTS, SCORES_FILE, ScoresFile
from tui_games.userdata.settings import (
    APP_SETTING_RULES,
    APP_SETTINGS,
    SETTINGS_FILE,
    SettingsFile,
    check_setting,
    default_settings,
    setting_rule,
    setting_rules,
)

__all__ = [
    "APP_SETTINGS", "APP_SETTING_RULES", "ARCHIVE_DIR", "ARENA_FILE", "LOCK_FILE", "RECORDS_FILE", "RESULTS", "SAVES_DIR",
    "SCORES_FILE", "SETTINGS_FILE", "CorruptFile", "Store", "atomic_write_text", "check_setting", "data_dir",
    "default_settings", "setting_rule", "setting_rules",
]

APP_NAME = "tui-games"
HOME_ENV = "TUI_GAMES_HOME"
LEADERBOARD_ENV = "TUI_GAMES_LEADERBOARD"
USER_ENV = "TUI_GAMES_USER"


def data_dir(create: bool = True) -> Path:
    """Where settings, scores and saves live: ``$TUI_GAMES_HOME`` or the platform's data dir.

    With ``create`` the directory is made if missing; if that fails the path is returned all
    the same, and the Store reports the failure when it first tries to write there.
    """
    home = os.environ.get(HOME_ENV, "").strip()
    path = Path(home).expanduser() if home else Path(platformdirs.user_data_dir(APP_NAME))
    if create:
        with contextlib.suppress(OSError):
            path.mkdir(parents=True, exist_ok=True)
    return path


class Store(SettingsFile, ScoresFile, RecordsFile, ArenaRunsFile, SavedGames, GameArchive):
    """Settings, scores, records, arena runs, saved games and the finished games in one directory (see the module
    docstring)."""

    def __init__(self, root: Path | str | None = None, leaderboard: Path | str | None = None,
                 user: str | None = None) -> None:
        super().__init__(Path(root) if root is not None else data_dir(create=False))
        if leaderboard is None:
            leaderboard = os.environ.get(LEADERBOARD_ENV, "").strip() or None
        self.leaderboard_path = Path(leaderboard).expanduser() if leaderboard else None
        self.user = user or os.environ.get(USER_ENV, "").strip() or _login_name()


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a bare container)
        return str(os.getuid()) if hasattr(os, "getuid") else "player"
