"""How scores, bounds, windows and counts read on screen: the one place that words them, for
the stats panel, the tree, the hints under the boards and the Lab."""

from __future__ import annotations

from tui_games.engine.search import INF, SearchStats, score_words
from tui_games.engine.tree_export import window_words


def score_text(score: int | None, *, proven: bool = False) -> str:
    """``win in 5`` / ``loss in 4`` (plies from the searched position), ``draw`` for a
    proven 0, else the heuristic value with its sign."""
    if score is None:
        return "?"
    if score >= INF:
        return "+∞"
    if score <= -INF:
        return "-∞"
    return score_words(score, proven)


def bound_text(score: int, bound: str, *, proven: bool = False) -> str:
    """A value or a bound on it: ``+3``, ``≥ +3``, ``≤ win in 5`` (``bound``: exact, lower
    or upper). A bound on 0 is no proven draw."""
    prefix = {"lower": "≥ ", "upper": "≤ "}.get(bound, "")
    return prefix + score_text(score, proven=proven and not prefix)


def window_text(alpha: int, beta: int, *, proven: bool = False) -> str:
    """The alpha-beta window a position was searched with, in the values' own words:
    ``[any]`` (a full search), ``[≥ +0]`` (only a value of at least +0 mattered), ``[≤ win
    in 3]``, ``[-1 to +3]``; in a proven search ``[≥ draw]``, ``[< draw]``. The search's
    exclusive ends (α, β) are said as the values they let in (α+1, β-1), never as the
    number one past them; an infinite end is left out, never drawn as ∞ (the wording is
    :func:`tui_games.engine.tree_export.window_words`, which the exported trees use too)."""
    return window_words(alpha, beta, proven)


def clock_text(stats: SearchStats) -> str:
    """The time so far in one phrase, its clock named: ``1.20 s CPU`` (``0.90 s CPU, 2.40 s
    wall`` where they differ), for a status line."""
    rows = clock_rows(stats.cpu_seconds, stats.wall_seconds, stats.seconds)
    return ", ".join(value if label == "time" else f"{value} {label}" for label, value in rows)


def clock_rows(cpu: float, wall: float, seconds: float) -> list[tuple[str, str]]:
    """The time a search took, labelled with its clock: ``[("CPU", "1.20 s")]``, and the
    wall time beside it where the two differ (a busy machine, a thread that waited);
    ``wall`` alone where the engine counted no CPU time."""
    if cpu <= 0 and wall <= 0:
        return [("time", seconds_text(seconds))]
    if cpu <= 0:
        return [("wall", seconds_text(wall))]
    rows = [("CPU", seconds_text(cpu))]
    if abs(wall - cpu) > max(0.05, 0.1 * cpu):
        rows.append(("wall", seconds_text(wall)))
    return rows


def count(n: float) -> str:
    return f"{n:,.0f}"


def short_count(n: float) -> str:
    """At most six characters: 999,999 then 1.23M."""
    if n < 1_000_000:
        return f"{n:,.0f}"
    if n < 1_000_000_000:
        return f"{n / 1e6:.2f}M"
    return f"{n / 1e9:.2f}G"


def short_seconds(s: float) -> str:
    """At most five characters, for narrow columns: 850ms, 7.48s, 74.8s, 233s."""
    if s < 1:
        return f"{s * 1000:.0f}ms"
    if s < 10:
        return f"{s:.2f}s"
    if s < 100:
        return f"{s:.1f}s"
    return f"{s:.0f}s"


def seconds_text(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s" if s < 100 else f"{s:.0f} s"
