"""``tui-games checkers build-db`` and ``checkers probe``: the endgame databases.

    tui-games checkers build-db --pieces N [--python]   build (or finish) every class of ≤ N pieces
    tui-games checkers probe FEN [MOVE ...] [--json]     the database's value of a position and its moves

The tables live in the data directory (``checkers-db/``, see ``tui_games.data.checkers_db``).
``build-db`` shows a progress bar on a terminal; interrupted (Ctrl-C) and run again it
skips the classes already written.

The data-directory layer (``tui_games.data.checkers_db``, which imports the store) is imported
by the handlers, so the other checkers tools start without it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tui_games.commands.common import UsageError
from tui_games.engine.checkers.bits import COLOUR_NAMES
from tui_games.engine.checkers.egdb import NEGATE, RESULT_NAMES, EndgameDB, PieceClass, class_of, table_bytes
from tui_games.engine.checkers.position import play

BAR = 30
# The most pieces build-db accepts (checkers_db.MAX_BUILD_PIECES; a test keeps them equal).
MAX_PIECES = 6


def class_label(cls: PieceClass) -> str:
    """``(1, 2, 0, 1)`` -> ``"1m2k v 0m1k"`` (Black first)."""
    bm, bk, wm, wk = cls
    return f"{bm}m{bk}k v {wm}m{wk}k"


def pieces_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 2 <= value <= MAX_PIECES:
        raise argparse.ArgumentTypeError(f"{text!r}: from 2 to {MAX_PIECES} pieces")
    return value


class _Bar:
    """One line on stderr redrawn in place (a terminal), or a line per class (a file)."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.shown = 0.0
        self.start = time.process_time()

    def __call__(self, step: Any) -> None:
        now = time.monotonic()
        if not self.tty or now - self.shown < 0.2:
            return
        self.shown = now
        fraction = step.done / step.total if step.total else 1.0
        filled = int(BAR * fraction)
        sys.stderr.write(f"\r[{'#' * filled}{'-' * (BAR - filled)}] {100 * fraction:5.1f}%  "
                         f"{class_label(step.cls):<16} cpu {time.process_time() - self.start:7.1f} s ")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.tty and self.shown:
            sys.stderr.write("\n")


def cmd_build_db(args: argparse.Namespace) -> int:
    from tui_games.data.checkers_db import BuildBusy, build, db_dir
    from tui_games.engine.checkers.egdb_build import COMPILED

    compiled = False if args.python else None
    bar = _Bar()
    start = time.process_time()
    built = found = size = 0
    try:
        for cls, was_built in build(args.pieces, compiled=compiled, progress=bar):
            size += table_bytes(cls)
            if was_built:
                built += 1
                if not bar.tty:
                    print(f"built {class_label(cls)}", file=sys.stderr, flush=True)
            else:
                found += 1
    except OSError as error:
        bar.finish()
        raise UsageError(f"build-db: cannot write the database: {error}") from None
    except BuildBusy as error:
        raise UsageError(f"build-db: {error}") from None
    except KeyboardInterrupt:
        bar.finish()
        print(f"interrupted: {built} classes written; run the same command again to go on", file=sys.stderr)
        return 130
    bar.finish()
    engine = "C" if COMPILED and not args.python else "Python"
    print(f"{args.pieces} pieces: {built + found} classes and their colour twins ({built} built, {found} already there), "
          f"{size / 1e6:.1f} MB in {db_dir()}; {engine} builder, cpu {time.process_time() - start:.1f} s")
    return 0


def _move_values(db: EndgameDB, position: Any) -> list[tuple[str, str]]:
    """Each legal move with its value for the side that plays it (from the database)."""
    out = []
    for move in position.legal_moves():
        child = db.probe_masks(*play(position.black, position.white, position.kings, position.turn, move))
        word = "?" if child is None else RESULT_NAMES[NEGATE[child]]
        out.append((str(move), word))
    return out


def cmd_probe(args: argparse.Namespace, position_from: Callable[[str, list[str]], Any]) -> int:
    from tui_games.data.checkers_db import open_db

    position = position_from(args.fen, args.moves)
    db = open_db()
    value = db.probe(position)
    cls = class_of(position.black, position.white, position.kings)
    side = COLOUR_NAMES[position.turn]
    moves = _move_values(db, position) if value is not None else []
    if args.json:
        print(json.dumps({"fen": position.fen(), "value": None if value is None else RESULT_NAMES[value],
                          "side": side.lower(), "moves": dict(moves), "pieces": sum(cls)}))
        return 0
    if value is None:
        print(f"not in the database ({sum(cls)} pieces, {class_label(cls)}): "
              f"build it with `tui-games checkers build-db --pieces {max(sum(cls), 2)}`")
        return 0
    print(f"database: {RESULT_NAMES[value]} for {side} (to move)")
    for text, word in moves:
        print(f"{text} {word}")
    return 0


def add_db_tools(tools: Any, fen_help: str, position_from: Callable[[str, list[str]], Any]) -> None:
    """``build-db`` and ``probe`` under ``tui-games checkers``; ``position_from(fen, moves)``
    is the checkers tools' own reading of a position (one-line errors)."""
    bd = tools.add_parser("build-db", help="build the endgame databases (win/loss/draw) by retrograde analysis")
    bd.set_defaults(handler=cmd_build_db)
    bd.add_argument("--pieces", type=pieces_arg, required=True, metavar="N",
                    help=f"every position of 2..N pieces (N up to {MAX_PIECES}; CPU: 4 takes seconds, "
                         "5 a minute, 6 a quarter of an hour and 0.7 GB)")
    bd.add_argument("--python", action="store_true", help="use the pure-Python builder (slow; for checking)")

    pr = tools.add_parser("probe", help="the endgame database's value of a position, and of each move")
    pr.set_defaults(handler=partial(cmd_probe, position_from=position_from))
    pr.add_argument("fen", metavar="FEN", help=fen_help)
    pr.add_argument("moves", nargs="*", metavar="MOVE", help="moves to play first (PDN)")
    pr.add_argument("--json", action="store_true", help='print {"fen", "value", "side", "moves", "pieces"}')
