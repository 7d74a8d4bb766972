"""How scores, bounds, windows and counts read on screen: the one place that words them, for
the stats panel, the tree, the hints under the boards and the Lab."""

from __future__ import annotations

from tui_games.engine.search import INF, score_words


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


def window_text(alpha: int, beta: int) -> str:
    """The alpha-beta window a position was searched with, in the values' own words:
    ``[any]`` (a full search), ``[> -1]`` (only a value above -1 mattered), ``[< +3]``,
    ``[-1 to +3]``. Its ends are exclusive; an infinite end is left out, never drawn as ∞."""
    low = alpha > -INF
    high = beta < INF
    if low and high:
        return f"[{score_text(alpha)} to {score_text(beta)}]"
    if low:
        return f"[> {score_text(alpha)}]"
    if high:
        return f"[< {score_text(beta)}]"
    return "[any]"


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
