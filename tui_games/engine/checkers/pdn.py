"""PDN games: read and write whole checkers games (tags and move text).

Written games carry the tags Event, Date, White, Black, Result and ``GameType "21"``
(American checkers), plus ``SetUp "1"`` and ``FEN`` when the game did not begin at the
standard start; the move text numbers each Black–White pair (``1. 11-15 23-19``), writes
every capture with its full path and ends with the result.

Results follow the custom of American checkers PDN, where Black moves first and is named
first: ``1-0`` Black won, ``0-1`` White won, ``1/2-1/2`` a draw, ``*`` unfinished. Reading
also accepts the 2-0 / 0-2 / 1-1 forms of other draughts programs.

Reading is liberal: several games per text, move numbers with or without a space
(``1.11-15``, ``1... 23-19``), comments ``{…}`` and ``;…`` skipped, variations ``(…)`` and
NAGs (``$1``, ``!``, ``?``) skipped, captures by their two ends (``15x31``) matched to the
legal capture. Every move is checked by playing it; a bad one is a :class:`CheckersError`
naming the game, the move number and the move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tui_games.engine.checkers.bits import BLACK
from tui_games.engine.checkers.notation import START_FEN, CheckersError
from tui_games.engine.checkers.position import CheckersPosition, Move
from tui_games.engine.game import Outcome

__all__ = ["PdnGame", "read_pdn", "read_pdn_game", "result_for", "write_pdn"]

BLACK_WINS, WHITE_WINS, DRAW, UNFINISHED = "1-0", "0-1", "1/2-1/2", "*"
RESULTS = {"1-0": BLACK_WINS, "2-0": BLACK_WINS, "0-1": WHITE_WINS, "0-2": WHITE_WINS,
           "1/2-1/2": DRAW, "1-1": DRAW, "*": UNFINISHED, "0-0": UNFINISHED}
GAME_TYPE = "21"
LINE_WIDTH = 79

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(
    r"""(?P<comment>\{[^}]*\}?)
      | (?P<linecomment>;[^\n]*)
      | (?P<open>\() | (?P<close>\))
      | (?P<nag>\$\d+)
      | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0)(?![\d\-xX:])|\*)
      | (?P<number>\d+\.(?:\s*\.\.)?)
      | (?P<move>\d+(?:[-xX:]\d+)+[!?]*)
      | (?P<space>\s+)
      | (?P<bad>[^\s{}();$]+)""",
    re.VERBOSE,
)


@dataclass
class PdnGame:
    """One game: its tags, start FEN, moves (legal, replayed) and result string."""

    tags: dict[str, str] = field(default_factory=dict)
    start_fen: str = START_FEN
    moves: list[Move] = field(default_factory=list)
    result: str = UNFINISHED

    def position(self) -> CheckersPosition:
        """The position after every move, with the whole game as its history."""
        pos = CheckersPosition(self.start_fen)
        for move in self.moves:
            pos.push(move)
        return pos


def result_for(outcome: Outcome | None) -> str:
    """The PDN result of a game that ended so (``*`` while it goes on)."""
    if outcome is None:
        return UNFINISHED
    if outcome.winner is None:
        return DRAW
    return BLACK_WINS if outcome.winner == BLACK else WHITE_WINS


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def write_pdn(position: CheckersPosition, *, event: str = "?", date: str = "????.??.??", white: str = "?",
              black: str = "?", result: str | None = None, tags: dict[str, str | None] | None = None) -> str:
    """The game that led to ``position`` (its start and history) as PDN text.

    ``result`` defaults to the position's outcome (``*`` if the game goes on); ``tags``
    adds or overrides tags (a value of None drops one).
    """
    if result is None:
        result = result_for(position.outcome())
    if result not in RESULTS:
        raise CheckersError(f"bad PDN result {result!r}: use 1-0, 0-1, 1/2-1/2 or *")
    all_tags: dict[str, str | None] = {"Event": event, "Date": date, "White": white, "Black": black,
                                       "Result": result, "GameType": GAME_TYPE}
    if not position.from_start:
        all_tags["SetUp"] = "1"
        all_tags["FEN"] = position.start_fen
    all_tags.update(tags or {})
    lines = [f'[{name} "{_escape(str(value))}"]' for name, value in all_tags.items() if value is not None]
    lines.append("")
    tokens = []
    start = CheckersPosition(position.start_fen)
    turn = start.turn
    number = 1
    for i, move in enumerate(position.history):
        if turn == BLACK:
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}...")
        tokens.append(str(move))
        if turn != BLACK:
            number += 1
        turn ^= 1
    tokens.append(result)
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines) + "\n"


def _split_games(text: str) -> list[tuple[list[tuple[str, str]], str, int]]:
    """(tags, move text, first line number) of each game in ``text``."""
    games: list[tuple[list[tuple[str, str]], str, int]] = []
    tags: list[tuple[str, str]] = []
    body: list[str] = []
    first_line = 1
    braces = 0  # open comment braces: a '[' inside a comment is not a tag
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not braces and stripped.startswith("[") and _TAG.match(stripped):
            if body and any(s.strip() for s in body):
                games.append((tags, "\n".join(body), first_line))
                tags, body = [], []
            if not tags:
                first_line = number
            for m in _TAG.finditer(stripped):
                tags.append((m[1], re.sub(r"\\(.)", r"\1", m[2])))
            continue
        if not tags and not body and stripped:
            first_line = number
        body.append(line)
        braces = max(0, braces + line.count("{") - line.count("}"))
    if tags or any(s.strip() for s in body):
        games.append((tags, "\n".join(body), first_line))
    return games


def _read_one(tags_list: list[tuple[str, str]], body: str, label: str) -> PdnGame:
    tags = dict(tags_list)
    fen = tags.get("FEN")
    try:
        position = CheckersPosition(fen) if fen else CheckersPosition()
    except CheckersError as error:
        raise CheckersError(f"{label}: {error}") from None
    game = PdnGame(tags=tags, start_fen=position.fen())
    depth = 0
    result: str | None = None
    number = 1
    for m in _TOKEN.finditer(body):
        kind = m.lastgroup
        token = m.group()
        if kind in ("space", "comment", "linecomment", "nag"):
            continue
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            depth = max(0, depth - 1)
            continue
        if depth:
            continue
        if kind == "number":
            number = int(token.split(".")[0])
            continue
        if kind == "result":
            result = RESULTS[token]
            continue
        if kind == "bad":
            raise CheckersError(f"{label}, move {number}: {token!r} is not a move, move number or result")
        if result is not None:
            raise CheckersError(f"{label}, move {number}: {token!r} comes after the result {result}")
        try:
            move = position.parse_move(token)
        except CheckersError as error:
            raise CheckersError(f"{label}, move {number}: {error}") from None
        position.push(move)
        game.moves.append(move)
    tag_result = tags.get("Result")
    game.result = result if result is not None else RESULTS.get(tag_result or "*", UNFINISHED)
    return game


def read_pdn(text: str) -> list[PdnGame]:
    """Every game in a PDN text. CheckersError names the game, move number and move."""
    games = []
    split = _split_games(text)
    for index, (tags, body, line) in enumerate(split, 1):
        label = f"PDN game {index} (line {line})" if len(split) > 1 else "PDN"
        games.append(_read_one(tags, body, label))
    if not games:
        raise CheckersError("PDN: no game in the text")
    return games


def read_pdn_game(text: str) -> PdnGame:
    """The first game of a PDN text."""
    return read_pdn(text)[0]
