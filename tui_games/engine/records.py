"""A game as text, in the manner of PGN: tag pairs, then the moves in the game's notation with
move numbers, ``{comments}`` and the result. For tic-tac-toe and Connect-4 (checkers has PDN
proper, :mod:`tui_games.engine.checkers.pdn`)::

    [Game "connect4"]
    [Variant "full_board=false"]
    [Date "2026.12.02"]
    [First "alice"]
    [Second "level5"]
    [Result "1-0"]

    1. 4 4 2. 5 {?? best 4: win in 39 -> loss in 37} 3 1-0

``Variant`` is the game's variant as ``key=value`` pairs (the arena's variants: ``rows=4 cols=4
k=3 misere=false``); ``Start`` (optional) a position in the game's notation to play from;
``Clock`` (optional) the clock the game was played with. The result is ``1-0`` (the side
moving first won), ``0-1``, ``1/2-1/2`` or ``*`` (not finished). A review's marks and scores go
in the comments; reading keeps the comments by ply.

Text only: no files here (the callers read and write them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RESULTS", "GameText", "RecordError", "parse_variant", "read_record", "variant_text", "write_record"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# Tags in the order they are written (others follow, sorted).
TAG_ORDER = ("Game", "Variant", "Event", "Date", "First", "Second", "Result", "Clock", "Start")
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}|\S+")
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
# A tag's value and a comment stay one line of plain text.
MAX_VALUE = 200


class RecordError(ValueError):
    """What is wrong with a record, and on which line."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


@dataclass
class GameText:
    """A game read from text: its tags, its moves as written, and the comments after each
    move (by ply, 1-based; 0 before the first)."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    result: str = "*"


def variant_text(variant: Mapping[str, Any]) -> str:
    def word(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    return " ".join(f"{key}={word(value)}" for key, value in sorted(variant.items()))


def parse_variant(text: str) -> dict[str, Any]:
    """``rows=4 cols=4 misere=false`` as a dict of ints, bools and words; ValueError names a
    pair it cannot read."""
    variant: dict[str, Any] = {}
    for pair in text.replace(",", " ").split():
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise ValueError(f"variant {pair!r} is not key=value")
        if value.lower() in ("true", "false"):
            variant[key] = value.lower() == "true"
        elif value.lstrip("-").isdigit():
            variant[key] = int(value)
        else:
            variant[key] = value
    return variant


def _clean(text: str) -> str:
    # One line, no braces or quotes that would end the comment or tag early.
    return " ".join(text.replace("{", "(").replace("}", ")").replace('"', "'").split())[:MAX_VALUE]


def write_record(tags: Mapping[str, str], moves: Sequence[str], *, comments: Mapping[int, str] | None = None,
                 result: str = "*") -> str:
    """The game as text (see the module). ``comments[ply]`` follows the move of that ply."""
    if result not in RESULTS:
        raise ValueError(f"result {result!r} is not one of {', '.join(RESULTS)}")
    comments = comments or {}
    head = [f'[{key} "{_clean(tags[key])}"]' for key in TAG_ORDER if key in tags and key != "Result"]
    head += [f'[{key} "{_clean(value)}"]' for key, value in sorted(tags.items())
             if key not in TAG_ORDER]
    head.append(f'[Result "{result}"]')
    words: list[str] = []
    if comments.get(0):
        words.append(f"{{{_clean(comments[0])}}}")
    for ply, move in enumerate(moves, 1):
        if ply % 2 == 1:
            words.append(f"{(ply + 1) // 2}.")
        words.append(move)
        if comments.get(ply):
            words.append(f"{{{_clean(comments[ply])}}}")
    words.append(result)
    lines, line = [], ""
    for word in words:  # movetext wrapped at 80 columns, as PGN is
        if line and len(line) + 1 + len(word) > 80:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(head) + "\n\n" + "\n".join(lines) + "\n"


def read_record(text: str) -> GameText:
    """A record written by :func:`write_record` (or by hand in its manner). RecordError names
    the line and what is wrong; the moves are not checked against the rules here."""
    game = GameText()
    body_started = False
    ended = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("[") and not body_started:
            tag = _TAG.match(line)
            if tag is None:
                raise RecordError(number, f"a tag is [Name \"value\"], not {line[:40]!r}")
            game.tags[tag.group(1)] = tag.group(2).replace('\\"', '"')
            continue
        body_started = True
        if line.count("{") != line.count("}"):
            raise RecordError(number, "a comment opened with { is closed on the same line")
        for token in _TOKEN.findall(line):
            if ended:
                raise RecordError(number, f"{token[:20]!r} after the result")
            if token.startswith("{"):
                ply = len(game.moves)
                game.comments[ply] = " ".join(filter(None, (game.comments.get(ply), token[1:-1].strip())))
            elif token in RESULTS:
                game.result = token
                ended = True
            elif _MOVE_NUMBER.match(token):
                continue
            else:
                game.moves.append(token)
    tagged = game.tags.get("Result")
    if tagged is not None and tagged not in RESULTS:
        raise RecordError(0, f"Result {tagged!r} is not one of {', '.join(RESULTS)}")
    if tagged is not None and ended and tagged != game.result:
        raise RecordError(0, f"the Result tag says {tagged} and the moves end {game.result}")
    if tagged is not None and not ended:
        game.result = tagged
    return game
