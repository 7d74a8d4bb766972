"""The bot's own process: it loads the file once and answers one request a move.

Started by :class:`tui_games.bots.player.FilePlayer` as ``python -m tui_games.bots.child FD``,
FD one end of a socket pair, over which both sides send pickled tuples
(``multiprocessing.connection``). A fresh interpreter, not a fork: nothing of the parent's
state (a Textual app, its threads) is copied, and the parent's main module is not run again.
The first message is the configuration (the file, what to call, the game, variant and seed);
then:

    parent -> child   ("move", start, moves, seconds, ceiling, progress, tree)
                          start: the game's start in its notation, or None to go on from the
                          last request's position; moves: the moves since, in the notation;
                          seconds: the move's CPU budget; ceiling: its wall-clock ceiling;
                          progress: whether to send the search's progress; tree: None, or
                          the (max plies, max nodes) of a search tree to record
    child -> parent   ("ready",) once the file is loaded, or ("error", reason)
                      ("progress", SearchStats) while a search (a Player, levelN:) goes on,
                      then ("move", move text, note, SearchResult or None, tree) or
                      ("error", reason); tree: the recorded (root node, depth, partial), or
                      None (not asked for, or a bot that searches without the recorder)

The child keeps the game's position from move to move (only the new moves cross the pipe) and
hands the bot a copy. Anything the bot writes to standard output is caught (the file
descriptor goes to /dev/null, ``sys.stdout`` to a tripwire) and fails the move: the command
line's output is the user's, not the bot's. A reason names the error and the last frame of
the traceback in the bot's file.
"""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

# The share of a move's budget a bot may overrun before its answer is late: 10% and 50 ms of CPU.
LATE_SHARE = 0.1
LATE_SLACK = 0.05
# How often (seconds) the child looks whether its parent is still there.
ORPHAN_POLL = 0.5


class Tripwire:
    """``sys.stdout`` in the child: remembers what was written."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        if len(self.text) < 200:
            self.text += str(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def take(self) -> str:
        text, self.text = self.text, ""
        return text


def error_line(error: BaseException, path: Path) -> str:
    """``ValueError: boom (bot.py:12, in choose)``: the error and its last frame in the bot's file."""
    text = f"{type(error).__name__}: {error}".strip().rstrip(":")
    text = " ".join(text.split())
    if len(text) > 160:
        text = text[:157] + "..."
    frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename) == path]
    if frames:
        frame = frames[-1]
        text += f" ({path.name}:{frame.lineno}, in {frame.name})"
    return text


def late(cpu: float, wall: float, seconds: float, ceiling: float) -> str | None:
    """Why an answer after ``cpu`` CPU and ``wall`` wall seconds is too late, or None."""
    if cpu > seconds * (1 + LATE_SHARE) + LATE_SLACK:
        return f"answered after {cpu:.2f} s of CPU, over its budget of {seconds:g} s"
    if wall > ceiling:
        return f"answered after {wall:.2f} s, over its ceiling of {ceiling:g} s"
    return None


class _Bot:
    """What the file offers, called one way: ``choose(position, seconds) -> (move, note, result)``."""

    def __init__(self, module: Any, target: str, level: int | None, seed: int) -> None:
        from tui_games.engine.players import Player, SearchPlayer
        from tui_games.engine.search import TT, WIN_BOUND, SearchLimits

        self.level = level
        self.player: Any = None
        self.function: Any = None
        self.instance: Any = None
        found = getattr(module, target, None)
        if found is None:
            raise AttributeError(f"the file defines no {target}")
        if level is not None:
            bound = WIN_BOUND // 2

            def evaluation(position: Any) -> int:
                value = found(position)
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                    raise TypeError(f"evaluate returned {value!r}, not a number")
                return int(max(-bound, min(bound, round(value))))

            self.player = SearchPlayer(
                f"level {level}", SearchLimits(depth=level), TT, seed=seed, evaluation=evaluation
            )
        elif isinstance(found, type):
            made = found()
            if isinstance(made, Player):
                self.player = made
            else:
                self.instance = made
        elif callable(found):
            self.function = found
        else:
            raise TypeError(f"{target} is a {type(found).__name__}, not a function or a class")

    def choose(self, position: Any, seconds: float, ceiling: float, on_progress: Any = None,
               recorder: Any = None) -> tuple[Any, str, Any]:
        from tui_games.engine.budget import Budget
        from tui_games.engine.search import SearchLimits

        if self.function is not None:
            return self.function(position), "", None
        if self.instance is not None:
            return self.instance.choose(position, Budget(seconds, ceiling)), "", None
        if self.level is not None:
            self.player.limits = SearchLimits(depth=self.level, seconds=seconds)
        stop = threading.Event()
        timer = threading.Timer(ceiling, stop.set)
        timer.daemon = True
        timer.start()
        try:
            decision = self.player.choose(position, stop=stop, on_progress=on_progress, recorder=recorder)
        finally:
            timer.cancel()
        return decision.move, str(decision.note or ""), decision.result


def _load(path: Path) -> Any:
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # the bot may import its own helpers beside it
    spec = importlib.util.spec_from_file_location(f"tui_games_bot_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path.name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _orphan_watch(parent: int) -> None:
    """End this process when its parent is gone (killed without closing the pipe), even while
    the bot loops in Python code."""
    while True:
        time.sleep(ORPHAN_POLL)
        if os.getppid() != parent:
            os._exit(1)


def main(connection: Any) -> None:
    """The child's loop: the configuration, then a move for every request."""
    # Ctrl+C on the terminal reaches the whole process group: the parent stops the run and
    # ends this process; the bot is not interrupted mid-move with a traceback on stderr.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphan_watch, args=(os.getppid(),), daemon=True, name="orphan-watch").start()
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a bot that crashes leaves no core file
    except (ImportError, ValueError, OSError):
        pass
    # Standard output is the parent's: the bot's prints go nowhere but the tripwire.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    tripwire = Tripwire()
    sys.stdout = tripwire
    try:
        config = connection.recv()
    except (EOFError, OSError):
        return
    path = Path(config["path"])
    seed = int(config["seed"])
    random.seed(seed)
    try:
        from tui_games.engine.budget import Budget
        from tui_games.engine.tree import TreeRecorder
        from tui_games.games import arena_adapter

        game = arena_adapter(config["game"])
        variant = config["variant"]
        bot = _Bot(_load(path), config["target"], config["level"], seed)
        printed = tripwire.take()
        if printed:
            raise RuntimeError(f"printed to standard output while loading: {printed.strip()[:60]!r}")
    except Exception as error:  # the bot's file: any error is its own
        connection.send(("error", f"cannot load: {error_line(error, path)}"))
        return
    connection.send(("ready",))
    position: Any = None
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        _, start, moves, seconds, ceiling, progress, tree = request
        try:
            if start is not None:
                position = game.start(variant, start)
            for text in moves:
                position.push(game.parse_move(position, text))
        except Exception as error:  # not the bot's: say so and let the parent judge
            connection.send(("error", f"the position could not be set up: {error}"))
            continue
        budget = Budget(seconds, ceiling)
        try:
            report = (lambda stats: connection.send(("progress", stats))) if progress else None
            recorder = TreeRecorder(*tree) if tree is not None else None
            move, note, result = bot.choose(position.copy(), seconds, ceiling, report, recorder)
        except Exception as error:
            tripwire.take()
            connection.send(("error", error_line(error, path)))
            continue
        cpu, wall = budget.cpu_spent(), budget.wall_spent()
        printed = tripwire.take()
        if printed:
            connection.send(("error", f"printed to standard output: {printed.strip()[:60]!r}"))
            continue
        overdue = late(cpu, wall, seconds, ceiling)
        if overdue is not None:
            connection.send(("error", overdue))
            continue
        try:
            legal = move in position.legal_moves()
        except Exception:  # an unhashable or odd object: not a move
            legal = False
        if not legal:
            connection.send(("error", f"returned {move!r}, not a legal move"))
            continue
        recorded = (recorder.root, recorder.depth, recorder.partial) if recorder and recorder.root else None
        connection.send(("move", game.move_text(position, move), note, result, recorded))


if __name__ == "__main__":
    from multiprocessing.connection import Connection

    try:
        main(Connection(int(sys.argv[1])))
    except (BrokenPipeError, ConnectionError, EOFError):
        # The parent is gone (stopped, killed): nobody to answer, nothing to report.
        sys.exit(0)
