"""ASCII-only output for terminals whose fonts lack box drawing and symbols.

Rather than keep two spellings of every board, border and panel, the app passes its finished
lines through :class:`AsciiFilter` (a Textual line filter, like the one behind NO_COLOR):
each character outside ASCII becomes one ASCII character of the same width and a similar
shape, so layouts stay exactly as they are. Pieces and marks that would collide get letters
that still tell them apart (● ○ become @ o, ◆ ◇ become # %, ★ becomes *). A bound's "≤ " and
"≥ " become "<=" and ">=", two characters for two.
"""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

# Symbols the app draws, mapped one for one.
SYMBOLS = {
    "●": "@", "○": "o", "◆": "#", "◇": "%", "◉": "@", "◎": "o",
    "★": "*", "✂": "x", "▼": "v", "▶": ">", "▲": "^", "◀": "<",
    "·": ".", "…": ".", "×": "x", "−": "-", "–": "-", "—": "-",
    "≤": "<", "≥": ">", "∞": "~", "±": "+", "→": ">", "←": "<", "↑": "^", "↓": "v",
    "⭘": "o", "▏": "|", "▎": "|", "▌": "|", "▐": "|", "█": "#", "░": ":", "▒": ":", "▓": "#",
    "╲": "\\", "╱": "/", "╳": "X",
    "┄": "-", "┆": ":", "┈": "-", "┊": ":", "╌": "-", "╎": ":",
    "‘": "'", "’": "'", "“": '"', "”": '"', "é": "e", "è": "e", "α": "a", "β": "b",
}


@lru_cache(maxsize=4096)
def ascii_char(char: str) -> str:
    """One ASCII character standing for ``char``."""
    if char < "\x80":
        return char
    if char in SYMBOLS:
        return SYMBOLS[char]
    code = ord(char)
    if 0x2500 <= code <= 0x257F:  # box drawing: lines and their junctions
        name_code = code - 0x2500
        horizontal = name_code in (0x00, 0x01, 0x04, 0x05, 0x08, 0x09, 0x4C, 0x4D, 0x50, 0x74, 0x76, 0x78, 0x7A, 0x7C, 0x7E)
        vertical = name_code in (0x02, 0x03, 0x06, 0x07, 0x0A, 0x0B, 0x4E, 0x4F, 0x51, 0x75, 0x77, 0x79, 0x7B, 0x7D, 0x7F)
        return "-" if horizontal else "|" if vertical else "+"
    if 0x2580 <= code <= 0x259F:  # block elements (scroll bars, meters)
        return "#"
    return "?"


# "≤ v" and "≥ v" (bounds, windows) become "<=v" and ">=v" in the same two cells: a lone "<"
# would read as strict.
PAIRS = {"≤ ": "<=", "≥ ": ">="}


@lru_cache(maxsize=4096)
def ascii_text(text: str) -> str:
    if text.isascii():
        return text
    for wide, plain in PAIRS.items():
        text = text.replace(wide, plain)
    return "".join(ascii_char(c) for c in text)


class AsciiFilter(LineFilter):
    """Replaces every non-ASCII character of a line, keeping each cell one column wide."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(ascii_text(text), style, control) if not control else Segment(text, style, control)
                for text, style, control in segments]
