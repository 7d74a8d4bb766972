"""The puzzle and a verdict as lines of text: what ``tui-games puzzle`` and the lobby's
``puzzle`` command print."""

from __future__ import annotations

from tui_games.daily import daily_game
from tui_games.daily.puzzle import Puzzle, Verdict

__all__ = ["puzzle_lines", "verdict_lines"]


def puzzle_lines(puzzle: Puzzle, zone: str) -> list[str]:
    """The day (with the time zone that decides it), the goal, the position and its diagram."""
    return [f"{puzzle.game} puzzle of {puzzle.date.isoformat()} ({zone})",
            f"goal: {puzzle.goal}",
            f"position: {puzzle.position}",
            *daily_game(puzzle.game).diagram(puzzle).splitlines(),
            f"answer with: {puzzle.answer_format}"]


def verdict_lines(verdict: Verdict, puzzle: Puzzle) -> list[str]:
    """``right: …`` and the winning line (the one the solver plays), or ``wrong: …``."""
    if verdict.correct:
        lines = [f"right: {verdict.why}"]
        if not verdict.finished and len(puzzle.line) > 1:
            lines.append("the winning line: " + " ".join(puzzle.line))
        return lines
    return [f"wrong: {verdict.why}"]
