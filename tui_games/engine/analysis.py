"""A finished game reviewed move by move: the score before and after each move, the engine's
best move, and a mark where the move cost something.

Every position of the game is judged once, from the side to move (a :class:`Verdict`: a score
in the search's convention, whether it is proven, the best move). A move's *before* is the
verdict of the position it was played in; its *after* is the next position's, negated, so both
are from the mover's side; what the move cost is the difference.

Where both are proven (Connect-4 always, tic-tac-toe on boards the solver finishes, checkers
in the endgame tables or a forced line) the mark is exact:

- ``??`` exactly on a move that changes the game-theoretic result for its mover (a win thrown
  to a draw or a loss, a draw to a loss);
- ``?`` on a win kept but made much longer: at least :data:`LONGER_PLIES` more plies and at
  least twice as many as the fastest;
- nothing otherwise, however the heuristic would have liked it.

Elsewhere the marks come from the drop of the evaluation, with each game's thresholds
(:class:`Thresholds`, in its evaluation's units): ``?!`` an inaccuracy, ``?`` a mistake, ``??``
a blunder. A proven win counts as ``+cap`` and a loss as ``-cap`` in those drops, ``cap`` being
three blunders.

The game-specific part is a :class:`Judge` (each game's adapter makes one,
``GameAdapter.judge``); this module knows no game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tui_games.engine.search import WIN, WIN_BOUND, game_value, plies_to_end, score_words

__all__ = ["BLUNDER", "INACCURACY", "LONGER_PLIES", "MISTAKE", "UNTIMED_WIN", "GameReview", "Judge", "MoveReview",
           "SideSummary", "Thresholds", "Verdict", "mark_move", "review_game", "value_words"]

INACCURACY, MISTAKE, BLUNDER = "?!", "?", "??"
# A proven win whose length is not known (checkers' endgame tables give the result only).
UNTIMED_WIN = WIN_BOUND
# A kept win is marked "?" when it takes this many plies more than the fastest (and twice as many).
LONGER_PLIES = 4


@dataclass(frozen=True)
class Thresholds:
    """Evaluation drops (the game's units) that make an inaccuracy, a mistake, a blunder."""

    inaccuracy: int
    mistake: int
    blunder: int

    @property
    def cap(self) -> int:
        return 3 * self.blunder


@dataclass(frozen=True)
class Verdict:
    """A position judged from the side to move: ``score`` in the search's convention (``WIN -
    plies`` for a win, heuristic otherwise), ``exact`` when it is the game-theoretic value, and
    the ``best`` moves, the judge's choice first (every move it found as good; empty where the
    game is over)."""

    score: int
    exact: bool
    best: tuple[Any, ...] = ()


class Judge(Protocol):
    """How a game judges a position (its solver, or its engine with a budget)."""

    thresholds: Thresholds

    def verdict(self, position: Any, stop: threading.Event | None = None) -> Verdict:
        """The position (not changed) judged from its side to move."""
        ...


@dataclass(frozen=True)
class MoveReview:
    ply: int           # 1 for the first move of the record
    side: int          # the mover (0 moves first)
    move: str          # in the game's notation
    mark: str | None   # "??", "?", "?!" or None
    best: str | None   # the engine's move there (None if the move played is it)
    before: int        # the position's score for the mover, before the move
    after: int         # ... after it
    exact: bool        # both proven: the mark is exact
    loss: int          # what the move cost: proven, the result given away (1: a win to a draw or a
                       # draw to a loss, 2: a win to a loss); else the evaluation's drop (wins capped)

    def words(self, score: int) -> str:
        return value_words(score, self.exact)

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "side": self.side, "move": self.move, "mark": self.mark, "best": self.best,
                "before": self.words(self.before), "after": self.words(self.after),
                "before_score": self.before, "after_score": self.after, "exact": self.exact, "loss": self.loss}


@dataclass
class SideSummary:
    """One side's moves: the marks, the results it gave away in proven positions, and the
    average evaluation drop of its other moves (the evaluation's units; None if every move was
    proven)."""

    moves: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    results_lost: int = 0
    judged: int = 0  # moves judged by the evaluation, not proven
    total_loss: int = 0

    @property
    def average_loss(self) -> float | None:
        return self.total_loss / self.judged if self.judged else None

    def to_dict(self) -> dict[str, Any]:
        average = self.average_loss
        return {"moves": self.moves, "inaccuracies": self.inaccuracies, "mistakes": self.mistakes,
                "blunders": self.blunders, "results_lost": self.results_lost,
                "average_loss": None if average is None else round(average, 2)}


@dataclass
class GameReview:
    moves: list[MoveReview] = field(default_factory=list)
    sides: tuple[SideSummary, SideSummary] = field(default_factory=lambda: (SideSummary(), SideSummary()))
    # The verdict of the final position (the game over, or where the record stops).
    final: Verdict | None = None

    def to_dict(self, side_names: Sequence[str] = ("first", "second")) -> dict[str, Any]:
        return {"moves": [m.to_dict() for m in self.moves],
                "summary": {side_names[i]: s.to_dict() for i, s in enumerate(self.sides)}}


def value_words(score: int, exact: bool) -> str:
    """A score as a person reads it: ``win in 5``, ``draw``, ``loss`` (proven, no distance
    known), ``+35`` (the evaluation)."""
    if abs(score) == UNTIMED_WIN:
        return "win" if score > 0 else "loss"
    return score_words(score, exact)


def _capped(score: int, cap: int) -> int:
    if score >= WIN_BOUND:
        return cap
    if score <= -WIN_BOUND:
        return -cap
    return max(-cap, min(cap, score))


def mark_move(before: Verdict, after: int, after_exact: bool, thresholds: Thresholds) -> str | None:
    """The mark of a move from its position's verdict (``before``) and the mover's score after
    it; see the module for the rules."""
    if before.exact and after_exact:
        was, now = game_value(before.score), game_value(after)
        if now < was:
            return BLUNDER
        timed = UNTIMED_WIN not in (abs(before.score), abs(after))
        if was == 1 and now == 1 and timed:
            fastest, taken = plies_to_end(before.score), plies_to_end(after)
            if fastest is not None and taken is not None:
                taken += 1  # after the move: one ply more from the position it was played in
                if taken - fastest >= LONGER_PLIES and taken >= 2 * fastest:
                    return MISTAKE
        return None
    drop = _capped(before.score, thresholds.cap) - _capped(after, thresholds.cap)
    if drop >= thresholds.blunder:
        return BLUNDER
    if drop >= thresholds.mistake:
        return MISTAKE
    if drop >= thresholds.inaccuracy:
        return INACCURACY
    return None


def review_game(start: Any, moves: Sequence[Any], judge: Judge, *, move_text: Callable[[Any, Any], str],
                stop: threading.Event | None = None,
                on_progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Review ``moves`` (the game's own move objects) played from ``start`` (not changed).

    ``move_text(position, move)`` names a move in the game's notation; ``on_progress(done,
    total)`` runs after each position is judged. A stop raises whatever the judge raises.
    """
    position = start.copy()
    first_side = position.turn
    verdicts = [judge.verdict(position, stop)]
    total = len(moves) + 1
    if on_progress is not None:
        on_progress(1, total)
    played: list[tuple[str, str | None, bool]] = []  # (move, the judge's best, was it one of the best)
    for i, move in enumerate(moves):
        best = verdicts[-1].best
        played.append((move_text(position, move), move_text(position, best[0]) if best else None, move in best))
        position.push(move)
        outcome = position.outcome()
        if outcome is not None:
            # The game is over: its value is the rules', proven (a loss in 0 plies, or a draw).
            verdicts.append(Verdict(outcome.value_for(position.turn) * WIN, True))
        else:
            verdicts.append(judge.verdict(position, stop))
        if on_progress is not None:
            on_progress(i + 2, total)
    review = GameReview(final=verdicts[-1])
    cap = judge.thresholds.cap
    for i, ((text, best_text, played_best), before, after_verdict) in enumerate(zip(played, verdicts, verdicts[1:])):
        after = -after_verdict.score
        exact = before.exact and after_verdict.exact
        mark = None if played_best else mark_move(before, after, after_verdict.exact, judge.thresholds)
        if played_best:
            loss = 0
        elif exact:
            loss = max(0, game_value(before.score) - game_value(after))
        else:
            loss = max(0, _capped(before.score, cap) - _capped(after, cap))
        side = (first_side + i) % 2
        review.moves.append(MoveReview(i + 1, side, text, mark, None if played_best else best_text, before.score,
                                       after, exact, loss))
        summary = review.sides[side]
        summary.moves += 1
        if exact:
            summary.results_lost += loss
        else:
            summary.judged += 1
            summary.total_loss += loss
        if mark == INACCURACY:
            summary.inaccuracies += 1
        elif mark == MISTAKE:
            summary.mistakes += 1
        elif mark == BLUNDER:
            summary.blunders += 1
    return review

