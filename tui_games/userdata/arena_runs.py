"""``arena.json``: the finished arena runs (the Lab, ``tui-games arena``), oldest first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tui_games.userdata.files import CorruptFile, DataFiles

ARENA_FILE = "arena.json"
ARENA_DETAILED = 3  # the last runs that keep their games; older ones keep their summaries

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


class ArenaRunsFile(DataFiles):
    @property
    def arena_path(self) -> Path:
        return self.root / ARENA_FILE

    def arena_runs(self) -> list[dict]:
        """Every finished arena run (``ArenaResult.to_dict()``), oldest first, as on disk now."""
        return self._load(self.arena_path, ARENA_FILE, _validate_arena_runs, list, "started a new list")

    def record_arena_run(self, run: dict) -> bool:
        """Append one run; True if written. Runs are results, not settings: every summary stays."""
        _validate_arena_runs([run])  # a bad run is the caller's bug: CorruptFile, before touching the disk
        json.dumps(run)
        with self._locked():
            runs = self.arena_runs()
            runs.append(run)
            # Every run's summary is kept; its games only for the last few (10,000 games are ~7 MB).
            for old in runs[:-ARENA_DETAILED]:
                old.pop("game_list", None)
            return self._write_json(self.arena_path, runs, ARENA_FILE)

    def reset_arena_runs(self) -> None:
        """Forget every arena run (Scores' reset, after the player said yes)."""
        with self._locked():
            self._write_json(self.arena_path, [], ARENA_FILE)
