"""``scores.json`` (this player's results against each opponent) and, on a shared server,
the leaderboard every player's session counts into (``TUI_GAMES_LEADERBOARD``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tui_games.userdata import file_lock
from tui_games.userdata.files import CorruptFile, DataFiles

SCORES_FILE = "scores.json"
RESULTS = ("win", "loss", "draw")


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


class ScoresFile(DataFiles):
    # Set by the Store: the shared leaderboard (None: there is none) and the name counted there.
    leaderboard_path: Path | None
    user: str

    @property
    def scores_path(self) -> Path:
        return self.root / SCORES_FILE

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
