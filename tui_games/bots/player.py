"""A bot file as a :class:`~tui_games.engine.players.Player`: its moves come from a child process.

The child (:mod:`tui_games.bots.child`) is spawned on the first move and kept for every move of
every game the player plays (its loaded file, a class's instance and the search's table carry
on, as a built-in player's do), until :meth:`FilePlayer.close` or a failure that ended it. A move
gets the budget ``seconds`` (CPU seconds of the bot's thread) under a wall-clock ceiling of
``WALL_FACTOR × seconds + GRACE``; past the ceiling and one more ``GRACE`` without an answer,
the child is killed. Whatever goes wrong, the bot raises
:class:`~tui_games.engine.players.PlayerFailed` with one line, ``bot.py, ply 7: ...``, and so
loses that game; the next game starts a fresh child if this one is gone.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import tui_games
from tui_games.bots.spec import BotSpec
from tui_games.engine.adapter import GameAdapter, Variant
from tui_games.engine.budget import WALL_FACTOR
from tui_games.engine.players import Decision, Player, PlayerFailed, ProgressCallback
from tui_games.engine.tree import TreeRecorder

__all__ = ["GRACE", "LOAD_SECONDS", "FilePlayer", "ceiling"]

# Wall seconds a bot may take beyond its ceiling before it is killed, and added to the ceiling.
GRACE = 1.0
# Wall seconds the child has to start and load the file.
LOAD_SECONDS = 30.0
# How often a wait looks at the stop flag.
STOP_POLL = 0.05


def died(code: int | None) -> str:
    """How a child ended, from its exit status: ``exit code 3``, ``signal SIGSEGV``."""
    if code is not None and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def ceiling(seconds: float) -> float:
    """The wall-clock ceiling of a move with a CPU budget of ``seconds``."""
    return seconds * WALL_FACTOR + GRACE


class FilePlayer(Player):
    """The player a bot spec names (see :mod:`tui_games.bots.spec`), for ``game`` in ``variant``.

    ``target`` is what :func:`~tui_games.bots.spec.check_bot_file` found to call; ``seconds``
    the budget of a move; ``seed`` seeds the child's ``random`` and the search's tie-breaks.
    """

    def __init__(
        self, game: GameAdapter, bot: BotSpec, target: str, *, seconds: float, seed: int | None, variant: Variant
    ) -> None:
        self.game = game
        self.bot = bot
        self.target = target
        self.seconds = seconds
        self.seed = 0 if seed is None else seed
        self.variant = dict(variant)
        self.name = bot.label
        self._process: Any = None
        self._connection: Any = None
        # What the child holds: the key of its position and the moves since its start.
        self._key: Any = None
        self._depth = 0

    # -- the child ------------------------------------------------------------------------------------

    def _start(self, ply: int, stop: threading.Event | None) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        # The child imports this very tui_games, installed or not.
        root = str(Path(tui_games.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "tui_games.bots.child", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                env=env,
                cwd=str(self.bot.path.parent),
            )
        except OSError as error:
            ours.close()
            theirs.close()
            self._fail(ply, f"cannot start its process: {error}")
        theirs.close()
        connection = Connection(ours.detach())
        self._process, self._connection, self._key = process, connection, None
        connection.send(
            {
                "path": str(self.bot.path),
                "target": self.target,
                "level": self.bot.level,
                "game": self.game.name,
                "variant": self.variant,
                "seed": self.seed,
            }
        )
        message = self._wait(LOAD_SECONDS, ply, stop, "to load")
        if message[0] != "ready":
            self._fail(ply, message[1], kill=True)

    def _wait(
        self,
        seconds: float,
        ply: int,
        stop: threading.Event | None,
        what: str,
        on_progress: ProgressCallback | None = None,
    ) -> tuple:
        """The child's next message within ``seconds`` (PlayerFailed if it dies or is late);
        progress messages on the way go to ``on_progress``."""
        deadline = time.monotonic() + seconds
        connection = self._connection
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(ply, f"no answer {what} within {seconds:g} s: killed", kill=True)
            if stop is None:
                ready = connection.poll(left)
            else:
                ready = connection.poll(min(left, STOP_POLL))
                if not ready and stop.is_set():
                    self._fail(ply, "stopped", kill=True)
            if ready:
                try:
                    message = tuple(connection.recv())
                    if message[0] != "progress":
                        return message
                    if on_progress is not None:
                        on_progress(message[1])
                    continue
                except (EOFError, OSError):
                    try:
                        code = self._process.wait(1.0)
                    except subprocess.TimeoutExpired:
                        code = None
                    self._fail(ply, f"its process died ({died(code)})", kill=True)

    def _fail(self, ply: int, reason: str, *, kill: bool = False) -> Any:
        if kill:
            self.close()
        raise PlayerFailed(f"{self.bot.file_label}, ply {ply}: {reason}")

    def close(self) -> None:
        """End the child (a later move starts a new one)."""
        process, connection = self._process, self._connection
        self._process = self._connection = self._key = None
        if connection is not None:
            connection.close()
        if process is not None:
            try:
                process.wait(0.2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    # -- a move ------------------------------------------------------------------------------------------

    def _request(self, position: Any) -> tuple[str | None, list[str]]:
        """What the child needs to reach ``position``: only the moves since the last request
        when it is that position's continuation, else the start and every move."""
        history = list(position.history)
        walk = position.copy()
        if self._key is not None and len(history) >= self._depth:
            new = [walk.pop() for _ in range(len(history) - self._depth)]
            if walk.key() == self._key:
                return None, self._names(walk, new[::-1])
            walk = position.copy()
        moves = [walk.pop() for _ in range(len(history))]
        return self.game.format(walk), self._names(walk, moves[::-1])

    def _names(self, walk: Any, moves: list[Any]) -> list[str]:
        names = []
        for move in moves:
            names.append(self.game.move_text(walk, move))
            walk.push(move)
        return names

    def choose(
        self,
        position: Any,
        *,
        stop: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        recorder: TreeRecorder | None = None,
    ) -> Decision:
        ply = len(position.history) + 1
        if not position.legal_moves():
            return Decision(None, "no legal move: the game is over")
        if self._process is None or self._process.poll() is not None:
            self.close()
            self._start(ply, stop)
        start, moves = self._request(position)
        limit = ceiling(self.seconds)
        try:
            tree = (recorder.max_plies, recorder.max_nodes) if recorder is not None else None
            self._connection.send(("move", start, moves, self.seconds, limit, on_progress is not None, tree))
        except (OSError, ValueError):
            self._fail(ply, "its process is gone", kill=True)
        self._key, self._depth = None, 0
        message = self._wait(limit + GRACE, ply, stop, "to a move", on_progress)
        if message[0] != "move":
            self._fail(ply, message[1])
        _, text, note, result, recorded = message
        try:
            move = self.game.parse_move(position, text)
        except ValueError:
            move = None
        if move is None or move not in position.legal_moves():
            self._fail(ply, f"returned {text!r}, not a legal move")
        self._key, self._depth = position.key(), len(position.history)
        if recorder is not None and recorded is not None:
            # The tree the bot's search recorded in its process, for the tree inspector.
            recorder.root, recorder.depth, recorder.partial = recorded
        return Decision(move, note or "a bot file that reports no statistics", result)
