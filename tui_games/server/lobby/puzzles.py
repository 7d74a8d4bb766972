"""The lobby's side of the puzzle of the day: which day it is (the server's time zone, which
every answer states), each player's views and attempts (storage's ``puzzle_days``), streaks
and the day's leaderboard.

The puzzle itself is :mod:`tui_games.daily`'s, a function of the date: every front end of a
shared lobby gives the same one. Making it may take a second (checkers' tables, the first
time in a process), so ``ssh host puzzle`` makes and judges it in a thread
(:func:`puzzle_stream`) and touches storage only from the loop.
"""

from __future__ import annotations

import asyncio
import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tui_games.daily import GAMES, AnswerError, Puzzle, Verdict, judge, puzzle
from tui_games.daily.seed import local_day
from tui_games.daily.text import puzzle_lines, verdict_lines
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.storage import PuzzleDay, StorageUnavailable

__all__ = ["MAX_ANSWER", "MOST_ATTEMPTS", "Attempt", "Standing", "attempt", "check_game", "leaderboard",
           "leaderboard_lines", "puzzle_stream", "server_day", "streak", "view"]

MOST_ATTEMPTS = 3  # answers a player may give to one game's puzzle a day
MAX_ANSWER = 200  # characters: Sudoku's 81 digits with room for spaces; anything longer is refused
STREAK_DAYS = 400  # how far back a streak is counted


def server_day(lobby: Lobby) -> tuple[datetime.date, str]:
    """Today in the server's time zone, and that zone as text."""
    return local_day(datetime.datetime.fromtimestamp(lobby.clock()).astimezone())


def check_game(game: str) -> str:
    if game not in GAMES:
        raise LobbyError(f"no puzzle of the day for {game[:40]!r}; choose one of {', '.join(GAMES)}")
    return game


def streak(lobby: Lobby, player: str, game: str, day: datetime.date) -> int:
    """Consecutive days solved up to ``day`` (or up to the day before, while ``day``'s is
    still open: a streak lives until a day passes without a solve)."""
    solved = set(lobby.storage.puzzle_solved_days(player, game, STREAK_DAYS))
    at = day if day.isoformat() in solved else day - datetime.timedelta(days=1)
    count = 0
    while at.isoformat() in solved:
        count += 1
        at -= datetime.timedelta(days=1)
    return count


@dataclass(frozen=True)
class Standing:
    player: str
    seconds: float
    attempts: int
    streak: int

    def data(self) -> dict[str, Any]:
        return {"player": self.player, "seconds": round(self.seconds, 1), "attempts": self.attempts,
                "streak": self.streak}


def leaderboard(lobby: Lobby, game: str, day: datetime.date) -> list[Standing]:
    """Who solved the day's puzzle, fastest first (then fewer attempts, then name)."""
    rows = [r for r in lobby.storage.puzzle_days(check_game(game), day.isoformat()) if r.seconds is not None]
    standings = [Standing(r.player, r.seconds or 0.0, r.attempts, streak(lobby, r.player, game, day)) for r in rows]
    return sorted(standings, key=lambda s: (s.seconds, s.attempts, s.player))


def _seconds(value: float) -> str:
    return f"{value:.0f} s" if value < 120 else f"{value / 60:.1f} min"


def _attempt_note(row: PuzzleDay) -> str:
    left = MOST_ATTEMPTS - row.attempts
    return f"{left} attempt{'' if left == 1 else 's'} left today" if left else "no attempts left today"


@dataclass(frozen=True)
class Attempt:
    """An answer judged and counted: the puzzle, the verdict, the player's row after it."""

    puzzle: Puzzle
    zone: str
    verdict: Verdict
    row: PuzzleDay
    streak: int

    def data(self) -> dict[str, Any]:
        """What ``puzzle GAME --answer A --json`` prints and the app's ``puzzle_answer`` gets."""
        seconds = self.row.seconds
        return {**self.puzzle.data(), "zone": self.zone, "verdict": self.verdict.data(), "attempts": self.row.attempts,
                "attempts_left": MOST_ATTEMPTS - self.row.attempts,
                "seconds": None if seconds is None else round(seconds, 1), "streak": self.streak,
                # The answer once no attempt is left, and the winning line once solved.
                "solution": self.puzzle.solution if self.verdict.correct or not MOST_ATTEMPTS - self.row.attempts
                else None}

    def lines(self) -> list[str]:
        lines = verdict_lines(self.verdict, self.puzzle)
        if self.verdict.correct:
            lines.append(f"solved in {_seconds(self.row.seconds or 0)} (from your first look), "
                         f"streak {self.streak} day{'' if self.streak == 1 else 's'}")
        else:
            last = self.row.attempts >= MOST_ATTEMPTS
            lines.append(_attempt_note(self.row) + (f"; the answer was {self.puzzle.solution}" if last else ""))
        return lines


async def view(lobby: Lobby, player: str, game: str, *, guest: bool) -> tuple[Puzzle, str]:
    """Today's puzzle of ``game`` and the server's zone; a player's first view starts the
    solve time (a guest's counts nothing)."""
    day, zone = server_day(lobby)
    made: Puzzle = await asyncio.to_thread(puzzle, check_game(game), day)
    if not guest:
        lobby.storage.puzzle_viewed(player, game, day.isoformat(), lobby.clock())
    return made, zone


async def attempt(lobby: Lobby, player: str, game: str, answer: str, *, guest: bool) -> Attempt:
    """``answer`` judged and counted; LobbyError (one line, nothing counted) for a guest, an
    answer too long or unreadable, a puzzle solved already or no attempt left."""
    check_game(game)
    day, zone = server_day(lobby)
    key = day.isoformat()
    if len(answer) > MAX_ANSWER:
        raise LobbyError(f"an answer has at most {MAX_ANSWER} characters")
    if guest:
        raise LobbyError("a guest's answer would count for nobody: log in with a key to keep a streak")
    held = lobby.storage.puzzle_viewed(player, game, key, lobby.clock())
    if held.solved is not None:
        raise LobbyError(f"you solved today's {game} puzzle already, in {_seconds(held.seconds or 0)}")
    if held.attempts >= MOST_ATTEMPTS:
        raise LobbyError(f"no attempts left at today's {game} puzzle ({MOST_ATTEMPTS} a day); "
                         f"the next puzzle comes at midnight ({zone})")
    made: Puzzle = await asyncio.to_thread(puzzle, game, day)
    try:
        verdict: Verdict = await asyncio.to_thread(judge, made, answer)
    except AnswerError as error:
        raise LobbyError(str(error)) from None  # not counted: it was no answer
    row = lobby.storage.puzzle_attempt(player, game, key, lobby.clock(), verdict.correct, MOST_ATTEMPTS)
    if row is None:  # another front end took the last attempt (or the solve) meanwhile
        raise LobbyError(f"no attempts left at today's {game} puzzle")
    return Attempt(made, zone, verdict, row, streak(lobby, player, game, day))


async def puzzle_stream(lobby: Lobby, player: str, game: str, answer: str | None, *, as_json: bool,
                        guest: bool, write: Callable[[str], None], write_err: Callable[[str], None]) -> int:
    """``puzzle GAME [--answer A]`` over ssh: the day's puzzle, or the answer judged and
    recorded (exit 0 right, 1 wrong, 2 refused)."""
    try:
        if answer is None:
            made, zone = await view(lobby, player, game, guest=guest)
            write(json.dumps({**made.data(), "zone": zone}) + "\n" if as_json
                  else "\n".join(puzzle_lines(made, zone)) + "\n")
            return 0
        done = await attempt(lobby, player, game, answer, guest=guest)
    except (LobbyError, StorageUnavailable) as error:
        write_err("tui-games: " + "".join(ch if ch.isprintable() else "?" for ch in str(error)) + "\n")
        return 2
    write(json.dumps(done.data()) + "\n" if as_json else "\n".join(done.lines()) + "\n")
    return 0 if done.verdict.correct else 1


def leaderboard_lines(lobby: Lobby, game: str) -> tuple[dict[str, Any], list[str]]:
    day, zone = server_day(lobby)
    standings = leaderboard(lobby, game, day)
    data = {"game": game, "date": day.isoformat(), "zone": zone, "entries": [s.data() for s in standings]}
    lines = [f"{game} puzzle of {day.isoformat()} ({zone}): {len(standings)} solved"]
    lines += [f"{rank:>3}. {s.player:<20} {_seconds(s.seconds):>9}  {s.attempts} attempt{'' if s.attempts == 1 else 's'}"
              f"  streak {s.streak}" for rank, s in enumerate(standings, 1)]
    return data, lines
