"""How scores, windows and counts read on screen (shared by the stats panel and the tree)."""

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
    prefix = {"lower": "≥ ", "upper": "≤ "}.get(bound, "")
    return prefix + score_text(score, proven=proven and not prefix)


def window_text(alpha: int, beta: int) -> str:
    return f"[{score_text(alpha)},{score_text(beta)}]"


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
