"""Checkers notation: FEN positions and PDN move text, at the level of masks and squares.

FEN (as in PDN): ``B:W21,22,K30:B1,2,3`` — the side to move (``B`` or ``W``), then each
colour's list of squares, either colour first, ``K`` before a king's square. On input the
whole may sit inside a PDN tag (``[FEN "…"]``), may end with a full stop, and a list may use
ranges (``B1-12``, ``WK29-32``). Output is canonical: side to move, White's list, Black's
list, squares in increasing order.

Moves: ``11-15`` for a step, ``15x24x31`` for a capture with every landing square. On input
a capture may give only its two ends (``15x31``), as many programs write it; the position
then finds the one legal capture that fits (see ``CheckersPosition.parse_move``).

Every error is a :class:`CheckersError` with a one-line message that names the bad part.
"""

from __future__ import annotations

import re

from tui_games.engine.checkers.bits import (
    BLACK,
    CROWN_ROW,
    START_BLACK,
    START_WHITE,
    WHITE,
    squares_of,
)

__all__ = ["START_FEN", "CheckersError", "format_fen", "parse_fen", "parse_move_text"]

START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# Shorthands for the starting position that the tools accept in place of a FEN.
START_WORDS = ("start", "startpos", "initial")

_TAG = re.compile(r'\s*\[\s*FEN\s+"([^"]*)"\s*\]\s*$', re.IGNORECASE)
_ITEM = re.compile(r"(K?)(\d+)(?:-(\d+))?$", re.IGNORECASE)
_MOVE = re.compile(r"\d+(?:\s*[-x:]\s*\d+)+$", re.IGNORECASE)


class CheckersError(ValueError):
    """Bad notation or an illegal move; the message is one line naming the bad part."""


Masks = tuple[int, int, int, int]  # black, white, kings, turn


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_fen(text: str) -> Masks:
    """(black, white, kings, turn) of a FEN, bare or as ``[FEN "…"]``; ``start`` (or
    ``startpos``) is the initial position. Raises CheckersError naming the bad part."""
    raw = text
    match = _TAG.match(text)
    if match is not None:
        text = match[1]
    text = text.strip().rstrip(".").strip()
    if text.lower() in START_WORDS:
        return START_BLACK, START_WHITE, 0, BLACK
    where = f"bad FEN {_short(raw)!r}"
    if not text:
        raise CheckersError(f"{where}: it is empty")
    fields = [f.strip() for f in text.split(":")]
    side = fields[0].upper()
    if side not in ("B", "W"):
        raise CheckersError(f"{where}: side to move {fields[0]!r} is not B or W")
    if len(fields) > 3:
        raise CheckersError(f"{where}: expected SIDE:COLOUR-LIST:COLOUR-LIST, got {len(fields)} fields")
    masks = {"B": 0, "W": 0}
    kings = 0
    seen_lists: set[str] = set()
    owner: dict[int, str] = {}
    for field in fields[1:]:
        if not field:
            raise CheckersError(f"{where}: empty colour list (expected W… or B…)")
        colour = field[0].upper()
        if colour not in masks:
            raise CheckersError(f"{where}: colour list {field!r} does not start with W or B")
        if colour in seen_lists:
            raise CheckersError(f"{where}: the {'White' if colour == 'W' else 'Black'} list appears twice")
        seen_lists.add(colour)
        body = field[1:].strip()
        if not body:
            continue
        for item in body.split(","):
            item = item.strip()
            m = _ITEM.match(item)
            if m is None:
                raise CheckersError(f"{where}: {item!r} is not a square (1-32, K for a king, or a range a-b)")
            first = int(m[2])
            last = int(m[3]) if m[3] is not None else first
            for sq in (first, last):
                if not 1 <= sq <= 32:
                    raise CheckersError(f"{where}: square {sq} is not 1-32")
            if last < first:
                raise CheckersError(f"{where}: range {item!r} runs backwards")
            for sq in range(first, last + 1):
                if sq in owner:
                    raise CheckersError(f"{where}: square {sq} is listed twice")
                owner[sq] = colour
                b = 1 << (sq - 1)
                masks[colour] |= b
                if m[1]:
                    kings |= b
    black, white = masks["B"], masks["W"]
    # A man on the row where it would have been crowned cannot exist.
    for colour, men, row in (("Black", black & ~kings, CROWN_ROW[BLACK]), ("White", white & ~kings, CROWN_ROW[WHITE])):
        if men & row:
            sq = next(squares_of(men & row))
            raise CheckersError(f"{where}: {colour} man on {sq} stands on its crowning row (write K{sq})")
    return black, white, kings, BLACK if side == "B" else WHITE


def _fen_list(mask: int, kings: int) -> str:
    return ",".join(f"K{sq}" if kings >> (sq - 1) & 1 else str(sq) for sq in squares_of(mask))


def format_fen(black: int, white: int, kings: int, turn: int) -> str:
    """The canonical FEN: ``B:W21,…:B1,…`` (White's list first, as in the PDN standard)."""
    return f"{'BW'[turn]}:W{_fen_list(white, kings)}:B{_fen_list(black, kings)}"


def parse_move_text(text: str) -> tuple[tuple[int, ...], bool]:
    """(squares, is_capture) of a move in PDN: ``11-15``, ``15x24x31`` or ``15x31``.

    Only the notation is checked here (squares 1–32, separators); whether the move is legal
    is the position's business. ``:`` is read as ``x``, as some programs write it.
    """
    raw = text
    text = text.strip().rstrip("!?+#*").strip()
    if not _MOVE.match(text):
        raise CheckersError(f"bad move {_short(raw)!r}: expected FROM-TO or FROM x TO x … with squares 1-32")
    capture = "x" in text.lower() or ":" in text
    if capture and "-" in text:
        raise CheckersError(f"bad move {_short(raw)!r}: mixes '-' and 'x'")
    squares = tuple(int(s) for s in re.split(r"\s*[-xX:]\s*", text))
    for sq in squares:
        if not 1 <= sq <= 32:
            raise CheckersError(f"bad move {_short(raw)!r}: square {sq} is not 1-32")
    if not capture and len(squares) != 2:
        raise CheckersError(f"bad move {_short(raw)!r}: a step has one '-' (captures use 'x')")
    return squares, capture
