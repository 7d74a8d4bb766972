"""American checkers (English draughts): bitboard rules, PDN/FEN, evaluation and search.

- :mod:`.bits` — square numbering 1–32 (Black on 1–12 moves first, down the board),
  neighbour and jump tables, shift masks
- :mod:`.position` — ``CheckersPosition`` and ``Move``; ``generate``, THE move generator
- :mod:`.notation` — FEN parse/format, PDN move text, ``CheckersError``
- :mod:`.pdn` — whole games: ``read_pdn``, ``read_pdn_game``, ``write_pdn``
- :mod:`.perft` — ``perft``, ``divide``
- :mod:`.evaluation` — the engine's evaluation and the material-only one
- :mod:`.engine` — ``Engine``: PVS + TT + deepening, the house's search contract
- :mod:`.players` — ``make_player``: ``strong``, ``level1`` … ``level12``, ``baseline``, ``random``
- :mod:`.ballots` — the three-move ballot openings; :mod:`.match` — engine matches

What a screen needs (every rule comes from the position, never from the UI)::

    pos = CheckersPosition()                  # or CheckersPosition(fen), "start" too
    pos.turn                                  # 0 Black (moves first), 1 White
    pos.piece_at(square)                      # "b"/"w" man, "B"/"W" king, None
    row_col(square), square_of(row, col)      # squares <-> cells (row 0 at the top)
    pos.legal_moves()                         # [Move]; empty once the game is over
    pos.movable_squares()                     # squares of the pieces that may move now
    pos.must_capture()                        # the move must be a capture
    pos.moves_from(square)                    # the moves of one piece
    pos.matching_moves([start, landing, ...]) # moves whose path begins so (entry by clicks)
    pos.next_squares([start, landing, ...])   # where the piece may land next
    pos.find_move(path) / pos.parse_move("15x24x31")
    pos.push(move); pos.pop()                 # play / take back (pop also undoes an agreed draw)
    pos.outcome()                             # None or Outcome(winner 0/1/None, reason)
    pos.agree_draw()                          # human-vs-human draw by agreement
    pos.fen(); pos.history; write_pdn(pos, ...); read_pdn_game(text).position()
    move.path, move.captures, move.is_capture, move.crowns, str(move)  # "11-15", "15x24x31"
    make_player("strong", seconds=2).choose(pos, stop=event, on_progress=cb, recorder=rec)
"""

from tui_games.engine.checkers.bits import row_col, square_of
from tui_games.engine.checkers.notation import START_FEN, CheckersError
from tui_games.engine.checkers.position import (
    QUIET_LIMIT,
    CheckersPosition,
    Move,
    generate,
)

__all__ = ["QUIET_LIMIT", "START_FEN", "CheckersError", "CheckersPosition", "Move", "generate", "row_col", "square_of"]
