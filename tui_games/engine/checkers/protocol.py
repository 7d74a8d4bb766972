"""The engine's line protocol (``tui-games checkers engine``): one command a line, one reply a line.

It keeps one game and one :class:`Engine` between commands, so a match played through it
keeps the transposition table and history from move to move (a process a move forgets
them). The commands, as other engines' drivers speak them:

    new [FEN]          a new game from FEN (or the start)     -> ok
    move PATH          play a legal move (PDN: 11-15, 15x24)  -> ok
    moves              the legal moves                        -> moves M1 M2 ...
    go SECONDS         the engine's move, CPU seconds budget  -> bestmove M eval E depth D seldepth S nodes N cpu C
                                                                 [database win|loss|draw]
                       (a move of the opening book, when given one: ... nodes 0 cpu 0.000 book)
    go depth N         the same to a fixed depth
    fen                the position                           -> fen FEN
    result             the game's end, by our rules           -> result none | result black|white|draw REASON
    quit               end

``go`` does not play the move (send ``move`` for it); its wall-clock ceiling is 100 times the
budget, so that a loaded machine does not cut a move short. A bad command gets one line
``error …`` and the game is unchanged. This module does no I/O: :meth:`EngineSession.handle`
turns a line into its reply; the command reads and writes.
"""

from __future__ import annotations

import math
import random

from tui_games.engine.checkers.book import OpeningBook
from tui_games.engine.checkers.egdb import RESULT_NAMES
from tui_games.engine.checkers.engine import STRONG_EVALUATION, Engine
from tui_games.engine.checkers.notation import CheckersError
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits

__all__ = ["MAX_LINE", "MAX_SECONDS", "EngineSession"]

MAX_LINE = 4096
MAX_SECONDS = 3600.0
MAX_DEPTH = 100
# Matches through the protocol are timed in CPU seconds; the wall-clock ceiling is only a
# safety and must not cut a move short on a loaded machine.
WALL_FACTOR = 100.0


class EngineSession:
    """One game with one engine; :meth:`handle` answers a command line (None: quit)."""

    def __init__(self, *, seed: int | None = None, engine: Engine | None = None,
                 book: OpeningBook | None = None) -> None:
        self.engine = engine or Engine(evaluation=STRONG_EVALUATION, wall_factor=WALL_FACTOR)
        self.book = book
        self.position = CheckersPosition()
        self.rng = random.Random(seed)

    def handle(self, line: str) -> str | None:
        if len(line) > MAX_LINE:
            return "error line too long"
        words = line.split()
        if not words:
            return "error empty command"
        command, args = words[0].lower(), words[1:]
        try:
            if command == "quit":
                return None
            if command == "new":
                self.position = CheckersPosition(" ".join(args) if args else None)
                self.engine.clear()
                return "ok"
            if command == "move":
                if len(args) != 1:
                    return "error usage: move PATH"
                self.position.push_text(args[0])
                return "ok"
            if command == "moves":
                return " ".join(["moves", *(str(m) for m in self.position.legal_moves())])
            if command == "fen":
                return "fen " + self.position.fen()
            if command == "result":
                return self._result()
            if command == "go":
                return self._go(args)
        except (CheckersError, ValueError) as error:
            return f"error {error}"
        return f"error unknown command {command[:40]!r} (new, move, moves, go, fen, result, quit)"

    def _result(self) -> str:
        """``result none`` while the game goes on, else the winner (black, white or draw)
        and why: a driver that sees no legal move asks, and so learns of a draw by the
        40-move rule (or a repetition, by our count) that the other engine may not know."""
        outcome = self.position.outcome()
        if outcome is None:
            return "result none"
        winner = "draw" if outcome.winner is None else ("black", "white")[outcome.winner]
        return f"result {winner} {outcome.reason}"

    def _go(self, args: list[str]) -> str:
        if len(args) == 2 and args[0].lower() == "depth" and args[1].isdigit():
            depth = int(args[1])
            if not 1 <= depth <= MAX_DEPTH:
                return f"error depth must be from 1 to {MAX_DEPTH}"
            limits = SearchLimits(depth=depth)
        elif len(args) == 1:
            try:
                seconds = float(args[0])
            except ValueError:
                return "error usage: go SECONDS | go depth N"
            if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
                return f"error seconds must be above 0 and at most {MAX_SECONDS:g}"
            limits = SearchLimits(seconds=seconds)
        else:
            return "error usage: go SECONDS | go depth N"
        booked = self.book.move(self.position) if self.book is not None else None
        if booked is not None:
            return f"bestmove {booked} eval 0 depth 0 seldepth 0 nodes 0 cpu 0.000 book"
        result = self.engine.search(self.position, limits, rng=self.rng)
        stats = result.stats
        move = str(result.move) if result.move is not None else "none"
        reply = (f"bestmove {move} eval {result.score} depth {stats.depth} seldepth {stats.seldepth} "
                 f"nodes {stats.nodes} cpu {stats.seconds:.3f}")
        database = self.engine.database
        value = database.probe(self.position) if database is not None else None
        return reply if value is None else f"{reply} database {RESULT_NAMES[value]}"
