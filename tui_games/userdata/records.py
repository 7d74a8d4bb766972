"""``records.json``: best times (Sudoku: per grade) and how many solves, with hints or without."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tui_games.userdata.files import CorruptFile, DataFiles

RECORDS_FILE = "records.json"


def _validate_records(data: Any) -> dict[str, dict[str, dict[str, float | int | None]]]:
    """The records table, or CorruptFile if the shape is wrong."""
    if not isinstance(data, dict):
        raise CorruptFile("not a JSON object")
    table: dict[str, dict[str, dict[str, float | int | None]]] = {}
    for game, categories in data.items():
        if not isinstance(categories, dict):
            raise CorruptFile(f"{game!r} is not an object")
        table[game] = {}
        for category, record in categories.items():
            if not isinstance(record, dict):
                raise CorruptFile(f"{game}/{category} is not an object")
            best, solved, assisted = record.get("best"), record.get("solved", 0), record.get("assisted", 0)
            # Only solves with hints (assisted): no best time yet.
            no_best = best is None and solved == 0
            good_best = no_best or (isinstance(best, (int, float)) and not isinstance(best, bool) and best >= 0)
            if not good_best or any(isinstance(n, bool) or not isinstance(n, int) or n < 0
                                    for n in (solved, assisted)):
                raise CorruptFile(f"{game}/{category} needs a best time and a count")
            table[game][category] = {"best": float(best) if isinstance(best, (int, float)) else None,
                                     "solved": solved, "assisted": assisted}
    return table


class RecordsFile(DataFiles):
    @property
    def records_path(self) -> Path:
        return self.root / RECORDS_FILE

    def records(self) -> dict[str, dict[str, dict[str, float | int | None]]]:
        """game -> category -> {"best": seconds or None, "solved": n, "assisted": n}, as on disk
        now; "assisted" counts solves with hints, never a best (None while there are only those)."""
        return self._load(self.records_path, RECORDS_FILE, _validate_records, dict, "started with no records")

    def record_time(self, game: str, category: str, seconds: float, *, assisted: bool = False) -> tuple[dict, bool]:
        """Count one solve of ``category`` in ``seconds``; returns the record and whether the
        time is a new best. An ``assisted`` solve (hints played) is only counted: its time is
        never a best."""
        if seconds < 0:
            raise ValueError(f"a time cannot be negative: {seconds}")
        with self._locked():
            table = self.records()
            old = table.setdefault(game, {}).get(category) or {"best": None, "solved": 0, "assisted": 0}
            best, solved, helped = old["best"], int(old["solved"] or 0), int(old["assisted"] or 0)
            improved = not assisted and (best is None or seconds < best)
            record = {"best": seconds if improved else best,
                      "solved": solved + (not assisted), "assisted": helped + assisted}
            table[game][category] = record
            self._write_json(self.records_path, table, RECORDS_FILE)
        return dict(record), improved

    def reset_records(self) -> None:
        with self._locked():
            self._write_json(self.records_path, {}, RECORDS_FILE)
