"""The finished games the app keeps (``Store.archive_game``): each game written as a record of
:mod:`tui_games.engine.records`, read back for the Games screen and opened in the Replay screen.

Besides the record's own tags (Game, Variant, Date, First, Second, Result, Start, Event, Clock) an entry has:
``Mode`` (``computer``, ``two players``, ``lab``, ``lobby``, ``imported``: read from a file), ``You`` (``first`` or ``second``:
the side the player played, absent where they played none or both), ``Reason`` (how it ended),
``Time`` (UTC) and, for a tic-tac-toe game the second side began, ``StartTurn "1"`` (the
position's notation does not say who moves).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from tui_games.engine.arena import ArenaConfig, ArenaResult, GameRecord
from tui_games.engine.game_text import read_game
from tui_games.engine.records import parse_variant, read_record, variant_text, write_record
from tui_games.games import arena_adapter, find_game
from tui_games.userdata import game_archive
from tui_games.userdata.game_archive import is_lab_entry
from tui_games.userdata.store import Store

__all__ = ["MODES", "ArchivedGame", "archive_arena_games", "archive_game", "archive_texts", "import_game",
           "kept_recently", "read_archived", "record_text"]

MODES = ("computer", "two players", "lab", "lobby", "imported")


@dataclass(frozen=True)
class ArchivedGame:
    """One entry of the archive as the Games screen lists it."""

    name: str
    game: str
    tags: dict[str, str]
    moves: list[str]
    result: str
    when: datetime
    variant: dict[str, Any] = field(default_factory=dict)

    @property
    def first(self) -> str:
        return self.tags.get("First", "?")

    @property
    def second(self) -> str:
        return self.tags.get("Second", "?")

    @property
    def mode(self) -> str:
        return self.tags.get("Mode", "")

    @property
    def lab(self) -> bool:
        """A game of the Lab's: computer against computer, bounded apart in the archive."""
        return is_lab_entry(self.name)

    @property
    def you(self) -> int | None:
        return {"first": 0, "second": 1}.get(self.tags.get("You", ""))

    @property
    def opponent(self) -> str:
        """Who the player played, or both sides where the player was neither."""
        you = self.you
        if you is None:
            return f"{self.first} v {self.second}"
        return self.second if you == 0 else self.first

    @property
    def outcome(self) -> str:
        """``win``, ``loss`` or ``draw`` for the player; ``1-0``, ``0-1``, ``draw`` or ``*``
        where the player had no side."""
        if self.result == "1/2-1/2":
            return "draw"
        you = self.you
        if you is None or self.result == "*":
            return self.result
        return "win" if (self.result == "1-0") == (you == 0) else "loss"

    def replay(self) -> tuple[ArenaResult, GameRecord]:
        """The game as the Replay screen shows a game of the Lab (A the side that moved first)."""
        adapter = arena_adapter(self.game)
        start = self.tags.get("Start", "")
        start_turn = int(self.tags.get("StartTurn", "") or adapter.start(self.variant, start or None).turn)
        config = ArenaConfig(self.game, self.first, self.second, 1, swap=False, variant=self.variant,
                             start=start or None)
        result = ArenaResult(config, find_game(self.game).title, adapter.side_names, self.first, self.second, seed=0,
                             finished_at=self.when.isoformat(timespec="seconds"))
        winner = {"1-0": "a", "0-1": "b"}.get(self.result)
        n = len(self.moves)
        record = GameRecord(1, start_turn, self.tags.get("Event", ""), start, start_turn, list(self.moves), winner,
                            self.tags.get("Reason", "") or ("unfinished" if self.result == "*" else ""), 0.0,
                            [0.0] * n, [0] * n, [""] * n)
        result.records.append(record)
        return result, record


def read_archived(name: str, text: str) -> ArchivedGame:
    """An entry of the archive; ValueError (one line) for a torn or edited one."""
    record = read_record(text)
    game_name = record.tags.get("Game", "")
    if not game_name:
        raise ValueError("no Game tag")
    spec = find_game(game_name)
    if spec.arena is None:
        raise ValueError(f"{spec.key} games are not kept")
    variant = arena_adapter(spec.key).check_variant(parse_variant(record.tags.get("Variant", "")))
    if not record.moves:
        raise ValueError("no moves")
    try:
        when = datetime.strptime(name[:21], "%Y%m%dT%H%M%S%f").replace(tzinfo=timezone.utc)
    except ValueError:
        raise ValueError("not an entry's name") from None
    return ArchivedGame(name, spec.key, dict(record.tags), list(record.moves), record.result, when, variant)


def record_text(game: str, start: Any, moves: Sequence[Any], *, first: str, second: str, mode: str,
                you: int | None = None, reason: str = "", result: str | None = None, event: str = "",
                clock: str = "", when: datetime | None = None) -> str:
    """``moves`` (the game's move objects, played from ``start``, which is not changed) as an
    archive entry. ``result`` (``1-0``…) defaults to what the rules say of the last position;
    a game stopped by the players (a resignation, a clock) passes its own. ``clock``: the
    lobby's time control (``5+3``), where there was one."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    adapter = arena_adapter(game)
    when = (when or datetime.now(timezone.utc)).astimezone(timezone.utc)
    position = start.copy()
    texts = []
    for move in moves:
        texts.append(adapter.move_text(position, move))
        position.push(move)
    if result is None:
        outcome = position.outcome()
        result = ("*" if outcome is None else "1/2-1/2" if outcome.winner is None
                  else "1-0" if outcome.winner == start.turn else "0-1")
    variant = adapter.variant_of(start)
    tags = {"Game": game, "Variant": variant_text(variant), "Date": when.strftime("%Y.%m.%d"),
            "Time": when.strftime("%H:%M:%S"), "First": first, "Second": second, "Mode": mode}
    fresh = adapter.start(variant)
    if adapter.format(start) != adapter.format(fresh):
        tags["Start"] = adapter.format(start)
    if adapter.start(variant, tags.get("Start")).turn != start.turn:
        tags["StartTurn"] = str(start.turn)
    if you is not None:
        # The record's first side is the one that moved first.
        tags["You"] = "first" if you == start.turn else "second"
    if reason:
        tags["Reason"] = reason
    if event:
        tags["Event"] = event
    if clock:
        tags["Clock"] = clock
    tags.update(adapter.record_tags(start, tags))
    return write_record(tags, texts, result=result)


def archive_game(store: Store, game: str, start: Any, moves: Sequence[Any], **tags: Any) -> str | None:
    """Keep a finished game (see :func:`record_text` for the tags); the entry's name, or None
    (the store has a warning) if it could not be written. Never raises for the disk. A game of
    the Lab's (``mode="lab"``) is kept apart, under the Lab's own bound."""
    if not moves:
        return None
    return store.archive_game(record_text(game, start, moves, **tags), when=tags.get("when"),
                              lab=tags.get("mode") == "lab")


def archive_texts(store: Store, game: str, variant: dict[str, Any], start_text: str | None, moves: Sequence[str],
                  *, start_turn: int | None = None, **tags: Any) -> str | None:
    """Keep a finished game given as move texts (the Lab's, the lobby's); ValueError for a move
    that does not parse."""
    adapter = arena_adapter(game)
    start = adapter.start(variant, start_text or None)
    if start_turn is not None:
        start.turn = start_turn
    position = start.copy()
    parsed = []
    for text in moves:
        move = adapter.parse_move(position, text)
        parsed.append(move)
        position.push(move)
    return archive_game(store, game, start, parsed, **tags)


def archive_arena_games(store: Store, runs: Sequence[ArenaResult], event: str = "Lab game {number}") -> int:
    """Keep the games of the Lab's runs (an arena run, a tournament's series) in the archive's
    Lab part; how many were kept. Only the newest :data:`~tui_games.userdata.game_archive.
    MAX_LAB_GAMES` are written (the older would be dropped at once). ``event`` names each
    game (``{number}``: its number in its run). A game whose
    moves no longer read back is left out (it came from another version); the first game the
    disk or the quota refuses ends it (the store has one warning, not one a game)."""
    games = [(run, record) for run in runs for record in run.records]
    kept = 0
    for run, record in games[-game_archive.MAX_LAB_GAMES:]:
        first_is_a = record.a_side == record.start_turn
        names = (run.a_name, run.b_name) if first_is_a else (run.b_name, run.a_name)
        first_won = (record.winner == "a") == first_is_a
        outcome = "1/2-1/2" if record.winner is None else "1-0" if first_won else "0-1"
        config = run.config
        try:
            name = archive_texts(store, config.game, config.variant, record.start or None, record.moves,
                                 start_turn=record.start_turn, first=names[0], second=names[1], mode="lab",
                                 reason=record.reason, result=outcome,
                                 event=event.format(number=record.number))
        except ValueError:
            continue
        if name is None:
            break
        kept += 1
    return kept


def game_named(text: str) -> str | None:
    """The game a record's tags name (its ``Game``; a PDN game's ``GameType`` 21: checkers), or
    None where they name none. ValueError for a record that does not read, or a game unknown."""
    tags = read_record(text).tags
    if tags.get("Game"):
        return find_game(tags["Game"]).key
    if tags.get("GameType", "").split(",")[0].strip() == "21":
        return "checkers"
    return None


def _played_at(tags: dict[str, str]) -> datetime | None:
    """When a record says it was played (its Date, and Time if any, UTC), or None."""
    try:
        day = datetime.strptime(tags.get("Date", ""), "%Y.%m.%d")
    except ValueError:
        return None
    try:
        hour = datetime.strptime(tags.get("Time", ""), "%H:%M:%S").time()
    except ValueError:
        return day.replace(tzinfo=timezone.utc)
    return datetime.combine(day.date(), hour, tzinfo=timezone.utc)


def import_game(store: Store, text: str) -> str | None:
    """Keep the game of a file (a record: this archive's, ``analyse --export``'s; a checkers PDN
    game) in the archive, stamped when it says it was played; the entry's name, or None (the
    store has a warning). ValueError, one line naming the line or the move, for a file that is
    not a game of ours (a record without a Game tag is read as checkers PDN). A record of this archive keeps its Mode and You; any other is
    ``imported``, with no side of the player's."""
    if not text.lstrip().startswith("["):
        raise ValueError("line 1: not a record: a game's record begins with its tags ([Game \"connect4\"])")
    # A record without a Game tag is read as checkers PDN (other programs write no such tag).
    spec = find_game(game_named(text) or "checkers")
    if spec.arena is None:
        raise ValueError(f"{spec.key} games are not kept")
    adapter = arena_adapter(spec.key)
    start, moves, _variant, tags = read_game(adapter, text, {})
    mode = tags.get("Mode", "")
    you = {"first": start.turn, "second": 1 - start.turn}.get(tags.get("You", "")) if mode in MODES else None
    result = tags.get("Result")
    return archive_game(store, spec.key, start, moves, first=tags.get("First", "?"), second=tags.get("Second", "?"),
                        mode=mode if mode in MODES else "imported", you=you, reason=tags.get("Reason", ""),
                        result=result if result in ("1-0", "0-1", "1/2-1/2") else None,
                        event=tags.get("Event", ""), clock=tags.get("Clock", ""), when=_played_at(tags))


# How far back a lobby game is looked for before it is kept (it ends once; the same player's
# two sessions, or two screens of one game, both see it end).
RECENT = 20


def kept_recently(store: Store, event: str) -> bool:
    """Whether one of the newest entries has the Event tag ``event`` (a lobby game's id)."""
    tag = f'[Event "{event}"]'
    # Among the player's own: a Lab run since would fill the newest names.
    for name in [n for n in store.archive_names() if not is_lab_entry(n)][-RECENT:]:
        try:
            if tag in store.archived_text(name).splitlines():
                return True
        except (OSError, ValueError):
            continue
    return False
