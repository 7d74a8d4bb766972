"""Settings, scores and saved games, kept as JSON files in the user's data directory.

Layout of the data directory (``TUI_GAMES_HOME`` or ``platformdirs.user_data_dir("tui-games")``)::

    settings.json        {"tictactoe": {...}, "engine": {...}, "ui": {...}}
    scores.json          {game: {opponent: {"win": n, "loss": n, "draw": n}}}
    records.json         {game: {category: {"best": seconds, "solved": n}}}  (Sudoku: per grade)
    arena.json           [{"game", "a", "b", "games", "a_wins", "draws", "b_wins", "seconds", ...}]
                         finished arena runs (the Lab, ``tui-games arena``), oldest first
    saves/GAME.json      {"game": GAME, "saved_at": ISO time, "state": {...}}
    .lock                taken (flock) around every read-modify-write
    session.lock         held (flock) by the one app session that writes saved games
    session.takeover     another session asking it to hand over (see tui_games.session_lock)

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
  is read-only for them until it takes over (tui_games.session_lock).
- The files belong to the user, who may edit or damage them. Bad content never raises: a file
  that is not valid JSON or has the wrong shape is renamed to ``NAME.corrupt-YYYYmmdd-HHMMSS``
  (kept for the curious), defaults are used, and a one-line message goes to ``warnings`` for
  the UI to show once. Every setting has a rule (a range or a set of choices: the game table's
  ``setting_rules``, ``APP_SETTING_RULES``); a single value outside it falls back to its
  default on its own, with one line naming the file, the key and the value — never a crash,
  and the file stays where it is. Saving a value outside its rule is refused (SettingError).
  A directory we cannot write gives a warning too, and the game goes on without saving.

This module knows nothing of Textual; the UI polls ``take_warnings()`` to show messages.
"""

from __future__ import annotations

import contextlib
import copy
import getpass
import json
import os
import re
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

import platformdirs

from tui_games import file_lock
from tui_games.games import GAMES
from tui_games.session_lock import Holder, SessionLock
from tui_games.setting_rules import Between, Flag, Named, OneOf, SettingError, SettingRule, shown

APP_NAME = "tui-games"
HOME_ENV = "TUI_GAMES_HOME"
LEADERBOARD_ENV = "TUI_GAMES_LEADERBOARD"
USER_ENV = "TUI_GAMES_USER"
SETTINGS_FILE = "settings.json"
SCORES_FILE = "scores.json"
RECORDS_FILE = "records.json"
ARENA_FILE = "arena.json"
SAVES_DIR = "saves"
LOCK_FILE = ".lock"
RESULTS = ("win", "loss", "draw")

# The app's own sections; each game's comes from the game table (see default_settings()).
APP_SETTINGS: dict[str, dict[str, Any]] = {
    "engine": {
        "algorithm": "alphabeta+ordering+tt",
        "tree_plies": 4,
        "tree_nodes": 20000,
    },
    "ui": {
        "theme": "textual-dark",
        "show_stats": True,
        "show_tree": False,
        "coordinates": True,
        # Connect-4 discs: "shapes" (● ○) or "letters" (X O); both read without colour.
        "discs": "shapes",
        # Only ASCII characters on the screen, for terminals with poor Unicode fonts.
        "ascii": False,
    },
}

# What each of the app's own settings may hold (each game's rules are in the game table).
APP_SETTING_RULES: dict[str, dict[str, SettingRule]] = {
    "engine": {
        # tui_games.engine.search.ALGORITHMS (tests/ui/test_setting_rules.py checks they agree).
        "algorithm": OneOf("minimax", "alphabeta", "alphabeta+ordering", "alphabeta+ordering+tt"),
        # The tree inspector keeps this much of each search: bounded, for memory under a server.
        "tree_plies": Between(1, 12, whole=True),
        "tree_nodes": Between(1_000, 200_000, whole=True),
    },
    "ui": {
        # The themes are Textual's, which the store does not import: a well-formed name here,
        # and the app falls back to its default for one it does not have (and says so).
        "theme": Named("a theme name"),
        "show_stats": Flag(),
        "show_tree": Flag(),
        "coordinates": Flag(),
        "discs": OneOf("shapes", "letters"),
        "ascii": Flag(),
    },
}

# Game names become file names under saves/.
_GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class CorruptFile(Exception):
    """Raised internally when a file's content cannot be used; never escapes the Store."""


# What _read_json returns for a file that is not there (JSON's null is a corrupt file).
_MISSING = object()


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


def default_settings() -> dict[str, dict[str, Any]]:
    """A fresh, independent copy of the default settings: a section per game of the table,
    then "engine" and "ui"."""
    return {**{spec.key: copy.deepcopy(dict(spec.settings)) for spec in GAMES}, **copy.deepcopy(APP_SETTINGS)}


def setting_rules() -> dict[str, dict[str, SettingRule]]:
    """section -> key -> the rule of that setting: a section per game of the table, then the
    app's own; the same keys as default_settings()."""
    return {**{spec.key: dict(spec.setting_rules) for spec in GAMES}, **APP_SETTING_RULES}


def setting_rule(section: str, key: str) -> SettingRule:
    """The rule of ``section.key``; ValueError names the known sections or keys (a caller's bug)."""
    rules = setting_rules()
    if section not in rules:
        raise ValueError(f"unknown settings section {section!r}; known: {', '.join(rules)}")
    if key not in rules[section]:
        raise ValueError(f"unknown setting {section}.{key}; known: {', '.join(rules[section])}")
    return rules[section][key]


def check_setting(section: str, key: str, value: Any, rule: SettingRule | None = None) -> Any:
    """``value`` as ``section.key`` keeps it (a whole number of seconds becomes a float), or
    SettingError naming the setting, the value and what it must be. ``rule``: the setting's,
    if the caller has it at hand."""
    try:
        return (rule or setting_rule(section, key)).check(value)
    except SettingError as error:
        raise SettingError(f"{section}.{key} is {shown(value)}, but it {error}") from None


def _merge(defaults: dict, loaded: dict, problems: list[str]) -> dict:
    """``loaded`` over ``defaults``, section by section: only known keys whose values their
    rules allow; each refused value is one line in ``problems`` and keeps its default."""
    merged: dict[str, dict[str, Any]] = {}
    rules = setting_rules()
    for section, section_defaults in defaults.items():
        values = loaded.get(section, {})
        if not isinstance(values, dict):
            problems.append(f"{section} is {shown(values)}, but it must be an object of settings; "
                            f"kept the defaults")
            values = {}
        merged[section] = {}
        for key, default in section_defaults.items():
            if key not in values:
                merged[section][key] = copy.deepcopy(default)
                continue
            try:
                merged[section][key] = check_setting(section, key, values[key], rules[section][key])
            except SettingError as error:
                problems.append(f"{error}; kept the default {shown(default)}")
                merged[section][key] = copy.deepcopy(default)
    # Unknown sections and keys are dropped without a word: they may come from a newer version.
    return merged


def _validate_scores(data: Any) -> dict[str, dict[str, dict[str, int]]]:
    """The scores table with every count present, or CorruptFile if the shape is wrong."""
    if not isinstance(data, dict):
        raise CorruptFile("not a JSON object")
    table: dict[str, dict[str, dict[str, int]]] = {}
    for game, opponents in data.items():
        if not isinstance(opponents, dict):
            raise CorruptFile(f"{game!r} is not an object")
        table[game] = {}
        for opponent, counts in opponents.items():
            if not isinstance(counts, dict) or not set(counts) <= set(RESULTS):
                raise CorruptFile(f"{game}/{opponent} is not a win/loss/draw object")
            row = {}
            for result in RESULTS:
                n = counts.get(result, 0)
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise CorruptFile(f"{game}/{opponent}/{result} is not a count")
                row[result] = n
            table[game][opponent] = row
    return table


def _validate_records(data: Any) -> dict[str, dict[str, dict[str, float | int]]]:
    """The records table, or CorruptFile if the shape is wrong."""
    if not isinstance(data, dict):
        raise CorruptFile("not a JSON object")
    table: dict[str, dict[str, dict[str, float | int]]] = {}
    for game, categories in data.items():
        if not isinstance(categories, dict):
            raise CorruptFile(f"{game!r} is not an object")
        table[game] = {}
        for category, record in categories.items():
            if not isinstance(record, dict):
                raise CorruptFile(f"{game}/{category} is not an object")
            best, solved = record.get("best"), record.get("solved", 0)
            if (isinstance(best, bool) or not isinstance(best, (int, float)) or best < 0
                    or isinstance(solved, bool) or not isinstance(solved, int) or solved < 0):
                raise CorruptFile(f"{game}/{category} needs a best time and a count")
            table[game][category] = {"best": float(best), "solved": solved}
    return table


# The fields every arena run must have, and their types; the rest (the per-game list, the
# variant) is kept as written.
_ARENA_FIELDS: dict[str, type | tuple[type, ...]] = {"game": str, "a": str, "b": str, "a_name": str, "b_name": str, "games": int, "a_wins": int,
                 "draws": int, "b_wins": int, "seconds": (int, float)}


def _validate_arena_runs(data: Any) -> list[dict]:
    """The list of arena runs, or CorruptFile if the shape is wrong."""
    if not isinstance(data, list):
        raise CorruptFile("not a JSON list")
    for i, run in enumerate(data):
        if not isinstance(run, dict):
            raise CorruptFile(f"run {i + 1} is not an object")
        for key, kind in _ARENA_FIELDS.items():
            value = run.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise CorruptFile(f"run {i + 1}: {key} is missing or of the wrong type")
        if min(run["games"], run["a_wins"], run["draws"], run["b_wins"]) < 0 or \
                run["a_wins"] + run["draws"] + run["b_wins"] != run["games"]:
            raise CorruptFile(f"run {i + 1}: the wins and draws do not add up to the games")
        if not isinstance(run.get("game_list", []), list):
            raise CorruptFile(f"run {i + 1}: game_list is not a list")
    return data


def _validate_save(data: Any, game: str) -> dict:
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
        raise CorruptFile("no saved state in it")
    if data.get("game", game) != game:
        raise CorruptFile(f"it holds a {data.get('game')!r} game")
    return data["state"]


def _parse_int(text: str) -> int | float:
    # Python refuses to read an integer of more than 4,300 digits (ValueError: the whole file
    # would look corrupt); any count or setting that long is out of range anyway, so read it as
    # the float it rounds to (infinity), which every check refuses on its own.
    return int(text) if len(text) <= 100 else float(text)


def _fsync_dir(path: Path) -> None:
    """Make a rename durable (POSIX); a no-op where directories cannot be opened."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once: temp file, fsync, ``os.replace``.

    Raises OSError (after removing the temp file) if anything fails.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


class Store:
    """Settings, scores and saved games in one directory (see the module docstring)."""

    def __init__(self, root: Path | str | None = None, leaderboard: Path | str | None = None,
                 user: str | None = None) -> None:
        self.root = Path(root) if root is not None else data_dir(create=False)
        if leaderboard is None:
            leaderboard = os.environ.get(LEADERBOARD_ENV, "").strip() or None
        self.leaderboard_path = Path(leaderboard).expanduser() if leaderboard else None
        self.user = user or os.environ.get(USER_ENV, "").strip() or _login_name()
        self.warnings: list[str] = []
        self._reported: set[str] = set()
        # The UI takes warnings on its thread while an engine worker may be recording a result.
        self._warnings_lock = threading.Lock()
        # Lock depth per thread, so a locked operation may call another one.
        self._local = threading.local()
        #: the session lock, once the app has opened a session (None: a command-line tool, which
        #: never writes saved games, or a test's store: they write as they always did)
        self.session: SessionLock | None = None
        #: this session handed its saved games to another one that asked (see hand_over)
        self.handed_over = False

    # -- paths ---------------------------------------------------------------------------------

    @property
    def settings_path(self) -> Path:
        return self.root / SETTINGS_FILE

    @property
    def scores_path(self) -> Path:
        return self.root / SCORES_FILE

    def save_path(self, game: str) -> Path:
        if not isinstance(game, str) or not _GAME_NAME.match(game):
            raise ValueError(f"bad game name {game!r}: use lower-case letters, digits, '-' and '_'")
        return self.root / SAVES_DIR / f"{game}.json"

    # -- warnings ------------------------------------------------------------------------------

    def _warn(self, message: str) -> None:
        # Each distinct message once per Store, however often the same bad file is read.
        with self._warnings_lock:
            if message not in self._reported:
                self._reported.add(message)
                self.warnings.append(message)

    def take_warnings(self) -> list[str]:
        """The messages not yet shown, oldest first; the list is emptied."""
        with self._warnings_lock:
            taken, self.warnings = self.warnings, []
        return taken

    # -- locking -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the data directory's lock (re-entrant within a thread).

        flock locks belong to an open file, so two threads of one process exclude each other
        as two processes do. Without a usable lock file (read-only directory) we go on unlocked:
        the write that follows will fail and say so.
        """
        depth = getattr(self._local, "depth", 0)
        if depth:
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        handle = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            handle = open(self.root / LOCK_FILE, "a+b")
        except OSError:
            handle = None
        try:
            if handle is not None:
                file_lock.lock(handle.fileno())
            self._local.depth = 1
            yield
        finally:
            self._local.depth = 0
            if handle is not None:
                with contextlib.suppress(OSError):
                    file_lock.unlock(handle.fileno())
                handle.close()

    # -- the session: who writes saved games ---------------------------------------------------

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

    # -- reading and writing -------------------------------------------------------------------

    def _read_json(self, path: Path, label: str) -> Any:
        """The parsed content of ``path``; _MISSING if there is none or it cannot be read (with
        a warning).

        Raises CorruptFile for content that is not JSON.
        """
        try:
            raw = path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return _MISSING
        except OSError as exc:
            self._warn(f"could not read {label}: {exc.strerror or exc}")
            return _MISSING
        try:
            return json.loads(raw.decode("utf-8"), parse_int=_parse_int)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise CorruptFile(str(exc)) from None

    def _load(self, path: Path, label: str, validate, fallback, instead: str):
        """Read and validate ``path``; a corrupt file is set aside (under the lock) and
        ``fallback()`` is returned instead. ``instead`` ends the warning: what we did."""
        try:
            data = self._read_json(path, label)
            return fallback() if data is _MISSING else validate(data)
        except CorruptFile:
            pass
        with self._locked():
            # Another session may have replaced the file since: look again before moving it.
            try:
                data = self._read_json(path, label)
                return fallback() if data is _MISSING else validate(data)
            except CorruptFile:
                self._set_aside(path, label, instead)
                return fallback()

    def _set_aside(self, path: Path, label: str, instead: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        counter = 1
        while target.exists():
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
            counter += 1
        try:
            os.replace(path, target)
        except FileNotFoundError:
            self._warn(f"{label} was corrupt; {instead}")
        except OSError as exc:
            self._warn(f"{label} is corrupt and could not be moved aside ({exc.strerror or exc}); {instead}")
        else:
            self._warn(f"{label} was corrupt; kept it as {target.name} and {instead}")

    def _write_json(self, path: Path, data: Any, label: str) -> bool:
        """Write ``data`` atomically; False (with a warning) if the disk says no."""
        text = json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            self._warn(f"could not save {label} in {path.parent}: {exc.strerror or exc}")
            return False
        return True

    # -- settings ------------------------------------------------------------------------------

    def load_settings(self) -> dict[str, dict[str, Any]]:
        """The settings file merged over the defaults; always a complete, well-typed dict."""

        def validate(data: Any) -> dict:
            if not isinstance(data, dict):
                raise CorruptFile("not a JSON object")
            problems: list[str] = []
            merged = _merge(default_settings(), data, problems)
            for problem in problems:
                self._warn(f"{SETTINGS_FILE}: {problem}")
            return merged

        return self._load(self.settings_path, SETTINGS_FILE, validate, default_settings, "started from defaults")

    def save_settings(self, settings: dict) -> bool:
        """Save ``settings`` (merged over the defaults, as loading would). True if written;
        SettingError (nothing written) if a value breaks its rule."""
        problems: list[str] = []
        merged = _merge(default_settings(), settings, problems)
        if problems:
            raise SettingError("bad settings: " + "; ".join(problems))
        with self._locked():
            return self._write_json(self.settings_path, merged, SETTINGS_FILE)

    def update_settings(self, section: str, **values: Any) -> dict[str, dict[str, Any]]:
        """Change some keys of one section and save at once; returns the new settings.

        The read-modify-write is locked, so two sessions changing different keys both win.
        Unknown sections or keys raise ValueError (a bug in the caller); a value its rule does
        not allow raises SettingError, a ValueError saying what it must be (the Settings screen
        shows it), and nothing is written.
        """
        if section not in setting_rules():
            raise ValueError(f"unknown settings section {section!r}; known: {', '.join(setting_rules())}")
        checked = {key: check_setting(section, key, value) for key, value in values.items()}
        with self._locked():
            settings = self.load_settings()
            settings[section].update(checked)
            self._write_json(self.settings_path, settings, SETTINGS_FILE)
        return settings

    # -- scores --------------------------------------------------------------------------------

    def scores(self) -> dict[str, dict[str, dict[str, int]]]:
        """game -> opponent -> {"win": n, "loss": n, "draw": n}, as on disk now."""
        return self._load(self.scores_path, SCORES_FILE, _validate_scores, dict, "started with no scores")

    def record_result(self, game: str, opponent: str, result: str) -> dict[str, int]:
        """Count one finished game (``result`` from the human's side); returns the new tally."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        with self._locked():
            table = self.scores()
            row = table.setdefault(game, {}).setdefault(opponent, dict.fromkeys(RESULTS, 0))
            row[result] += 1
            self._write_json(self.scores_path, table, SCORES_FILE)
            if self.leaderboard_path is not None:
                self._add_to_leaderboard(game, result)
        return dict(row)

    def leaderboard(self) -> dict[str, dict[str, dict[str, int]]]:
        """game -> user -> {"win": n, "loss": n, "draw": n} over every player of a shared
        server (all opponents together); {} when there is no shared leaderboard."""
        if self.leaderboard_path is None:
            return {}
        return self._load(self.leaderboard_path, "the shared leaderboard", _validate_scores, dict,
                          "started a new one")

    def _add_to_leaderboard(self, game: str, result: str) -> None:
        # Other players' sessions write this file too, so it has its own lock beside it; we may
        # hold our own directory's lock already, always taken first, so the order is fixed.
        path = self.leaderboard_path
        assert path is not None  # only called where there is a shared leaderboard
        with file_lock.hold(path.with_name(f".{path.name}.lock")):
            table = self.leaderboard()
            row = table.setdefault(game, {}).setdefault(self.user, dict.fromkeys(RESULTS, 0))
            row[result] += 1
            self._write_json(path, table, "the shared leaderboard")

    def reset_scores(self, game: str | None = None) -> None:
        """Forget every score, or only those of ``game``."""
        with self._locked():
            table = {} if game is None else self.scores()
            if game is not None:
                table.pop(game, None)
            self._write_json(self.scores_path, table, SCORES_FILE)

    # -- records (best times) ------------------------------------------------------------------

    @property
    def records_path(self) -> Path:
        return self.root / RECORDS_FILE

    def records(self) -> dict[str, dict[str, dict[str, float | int]]]:
        """game -> category -> {"best": seconds, "solved": n}, as on disk now."""
        return self._load(self.records_path, RECORDS_FILE, _validate_records, dict, "started with no records")

    def record_time(self, game: str, category: str, seconds: float) -> tuple[dict, bool]:
        """Count one solve of ``category`` in ``seconds``; returns the record and whether the
        time is a new best."""
        if seconds < 0:
            raise ValueError(f"a time cannot be negative: {seconds}")
        with self._locked():
            table = self.records()
            record = table.setdefault(game, {}).get(category)
            improved = record is None or seconds < record["best"]
            record = {"best": seconds if record is None or improved else record["best"],
                      "solved": (record["solved"] if record else 0) + 1}
            table[game][category] = record
            self._write_json(self.records_path, table, RECORDS_FILE)
        return dict(record), improved

    def reset_records(self) -> None:
        with self._locked():
            self._write_json(self.records_path, {}, RECORDS_FILE)

    # -- arena runs ----------------------------------------------------------------------------

    @property
    def arena_path(self) -> Path:
        return self.root / ARENA_FILE

    def arena_runs(self) -> list[dict]:
        """Every finished arena run (``ArenaResult.to_dict()``), oldest first, as on disk now."""
        return self._load(self.arena_path, ARENA_FILE, _validate_arena_runs, list, "started a new list")

    def record_arena_run(self, run: dict) -> bool:
        """Append one run; True if written. The list only grows: runs are results, not settings."""
        _validate_arena_runs([run])  # a bad run is the caller's bug: CorruptFile, before touching the disk
        json.dumps(run)
        with self._locked():
            runs = self.arena_runs()
            runs.append(run)
            return self._write_json(self.arena_path, runs, ARENA_FILE)

    # -- saved games ---------------------------------------------------------------------------

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


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a bare container)
        return str(os.getuid()) if hasattr(os, "getuid") else "player"

