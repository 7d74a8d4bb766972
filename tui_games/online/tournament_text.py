"""A tournament's standings as text lines, from the lobby's standings JSON (server/lobby/
tournament.py): the ``tournament standings`` command's and the app's Tournaments tab."""

from __future__ import annotations


def standing_lines(kind: str, standings: list[dict], name_width: int = 24) -> list[str]:
    """The standings as text. A Swiss's rounds as a crosstable does: each result (+ a win,
    = a draw, - a loss) against the opponent's rank, ``bye``, or ``.`` for a round not played."""
    rank = {s["player"]: s["rank"] for s in standings}
    lines = []
    for s in standings:
        mark = " (withdrawn)" if s.get("withdrawn") else ""
        name = s["player"][:name_width]
        if kind == "swiss":
            rounds = " ".join(r if r in ("bye", "*") else f"{r[0]}{rank.get(r[1:], '?')}" if r else "."
                              for r in s["results"])
            lines.append(f"{s['rank']:>2}. {name:<{name_width}} {s['score']:>4g}  Bh {s['buchholz']:g}  "
                         f"Bh-1 {s['buchholz_cut1']:g}  SB {s['sonneborn_berger']:g}  {rounds}{mark}")
        else:
            lines.append(f"{s['rank']:>2}. {name:<{name_width}} {s['points']:>4}  {s['sheet'] or '-'}"
                         f"{' (on fire)' if s['fire'] else ''}{mark}")
    return lines
