"""``serve --ssh --tournament FILE``: the operator's scheduled tournaments, a TOML file.

    # tournaments.toml
    [[tournament]]
    name = "Friday Connect-4 arena"     # 1 to 40 printable characters
    game = "connect4"                   # a lobby game: tictactoe, connect4, checkers
    arena = "30m"                       # an arena's duration ... or: swiss = 5 (rounds)
    clock = "3+2"                       # MINUTES+SECONDS
    starts = "2026-12-04T18:00:00Z"     # when, in UTC (ISO 8601, with its Z or offset)
    variant = "standard"                # optional: the game's variant (its first by default)
    house = ["house:connect4-perfect"]  # optional: house players (of --house) seated in it

Each tournament is made once (a restart does not make it again: it is known by its name and
start); one whose start has passed when the server starts is skipped with a line in the log.
The file is read at start; a mistake is one line naming the file, the tournament and the key,
and the server does not start.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from tui_games.server.lobby.hub import HOUSE_NAME, Clock, LobbyError, _game_key
from tui_games.server.lobby.storage import TournamentRow
from tui_games.server.lobby.tournament import TournamentLimits, parse_duration
from tui_games.server.log import event

if sys.version_info >= (3, 11):
    import tomllib
else:  # the server extra installs it (pyproject.toml)
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

KEYS = {"name", "game", "arena", "swiss", "clock", "starts", "variant", "house"}
MOST = 100  # tournaments in one file


@dataclass(frozen=True)
class Scheduled:
    name: str
    game: str
    kind: str
    length: str
    clock: str
    starts: float
    variant: str | None = None
    house: tuple[str, ...] = field(default_factory=tuple)

    @property
    def key(self) -> str:
        """What a restart knows it by."""
        return f"{self.name}@{self.starts:.0f}"


def read_tournament_file(path: Path, *, house: list[str] | None = None,
                         limits: TournamentLimits | None = None) -> list[Scheduled]:
    """The file's tournaments, checked; ValueError with one line for the first mistake.
    ``house``: the names of the house players the server seats (--house)."""
    limits = limits or TournamentLimits()
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"--tournament: cannot read {path}: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"--tournament: {path} is not TOML: {error}") from None
    extra = set(document) - {"tournament"}
    if extra:
        raise ValueError(f"--tournament: {path}: unknown table {sorted(extra)[0]!r}; give [[tournament]] entries")
    entries = document.get("tournament", [])
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"--tournament: {path} has no [[tournament]] entries")
    if len(entries) > MOST:
        raise ValueError(f"--tournament: {path} has {len(entries)} tournaments; at most {MOST}")
    made = []
    for number, entry in enumerate(entries, start=1):
        where = f"--tournament: {path}: tournament {number}"
        try:
            made.append(_entry(entry, house, limits))
        except (LobbyError, ValueError, TypeError) as error:
            name = entry.get("name") if isinstance(entry, dict) else None
            raise ValueError(f"{where}{f' ({name})' if isinstance(name, str) else ''}: {error}") from None
    keys = [s.key for s in made]
    if len(set(keys)) != len(keys):
        raise ValueError(f"--tournament: {path}: two tournaments have the same name and start")
    return made


def _entry(entry: object, house: list[str] | None, limits: TournamentLimits) -> Scheduled:
    if not isinstance(entry, dict):
        raise ValueError("a [[tournament]] is a table of keys")
    unknown = set(entry) - KEYS
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r}; the keys are {', '.join(sorted(KEYS))}")
    for key in ("name", "game", "clock", "starts"):
        if key not in entry:
            raise ValueError(f"'{key}' is missing")
    name = entry["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > limits.name_length or not name.isprintable():
        raise ValueError(f"'name' is 1 to {limits.name_length} printable characters")
    game = _game_key(str(entry["game"]))
    if ("arena" in entry) == ("swiss" in entry):
        raise ValueError("give one of 'arena' (a duration, e.g. \"30m\") or 'swiss' (a number of rounds)")
    if "swiss" in entry:
        rounds = entry["swiss"]
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= limits.rounds:
            raise ValueError(f"'swiss' is a number of rounds, 1 to {limits.rounds}")
        kind, length = "swiss", str(rounds)
    else:
        if not isinstance(entry["arena"], str):
            raise ValueError("'arena' is a duration in quotes, e.g. \"30m\"")
        seconds = parse_duration(entry["arena"])
        if not limits.min_arena_seconds <= seconds <= limits.max_arena_seconds:
            raise ValueError(f"'arena' lasts {limits.min_arena_seconds:g} to {limits.max_arena_seconds:g} seconds")
        kind, length = "arena", entry["arena"]
    starts = entry["starts"]
    if isinstance(starts, str):
        try:
            starts = datetime.fromisoformat(starts.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"'starts' {starts!r} is not a time: give e.g. 2026-12-04T18:00:00Z") from None
    if not isinstance(starts, datetime) or starts.tzinfo is None:
        raise ValueError("'starts' is a time with its zone, e.g. 2026-12-04T18:00:00Z")
    seats = entry.get("house", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ValueError("'house' is a list of house players' names, e.g. [\"house:connect4-perfect\"]")
    for seat in seats:
        if not HOUSE_NAME.fullmatch(seat) or (house is not None and seat not in house):
            seated = ", ".join(h for h in (house or []) if h.startswith(f"house:{game}-")) or "none"
            raise ValueError(f"{seat!r} is not a house player the server seats for {game} (--house): {seated}")
    variant = entry.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise ValueError("'variant' is a variant's name")
    clock = Clock.parse(str(entry["clock"]))
    if clock.kind != "fischer":
        raise ValueError("'clock' is MINUTES+SECONDS, e.g. \"3+2\"")
    return Scheduled(name.strip(), game, kind, length, clock.text, starts.timestamp(), variant, tuple(seats))


def schedule(tournaments, scheduled: list[Scheduled], log=lambda line: None) -> list[str]:
    """Make the file's tournaments not made yet (at the server's start); their ids. An entry
    whose start has passed is skipped, made or not, so only the live tournaments are looked
    at (reading every finished one whole, arenas of 250 KB, could take gigabytes at a start)."""
    known = {row.data.get("scheduled") for row in tournaments.live()}
    made = []
    now = tournaments.lobby.clock()
    for entry in scheduled:
        if entry.key in known:
            continue
        if entry.starts <= now:
            log(event("tournament-skipped", tournament=entry.name, reason="its start has passed"))
            continue

        def make(entry: Scheduled = entry) -> TournamentRow:
            row = tournaments.create("server", entry.game, kind=entry.kind, length=entry.length, clock=entry.clock,
                                     name=entry.name, variant=entry.variant, operator=True, starts_at=entry.starts,
                                     scheduled=entry.key)
            for seat in entry.house:
                tournaments.join("server", row.id, house=seat, operator=True)
            return row

        # Looked for again under the lock: another front end may have made it since `known`.
        row = tournaments.create_once(entry.key, make)
        if row is not None:
            made.append(row.id)
    return made
