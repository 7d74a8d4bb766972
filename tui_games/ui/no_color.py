"""``NO_COLOR``: a line filter that sends no colour at all and keeps what colour was saying.

Textual's own answer to ``NO_COLOR`` is its Monochrome filter: colours become greys, which a
256-colour terminal receives as ``38;5;245``, and the README promises none. Its NoColor filter
sends none, but then a highlight drawn only as a background (the menu's cursor, a selected
row, a focused button) disappears. This filter does both: every colour goes, and a background
that stood out from the screen's becomes reverse video, as terminals without colour have
always shown a selection.
"""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

DEFAULT_COLOURS = Style(color="default", bgcolor="default")
# How far a background's brightness (0 to 1) must be from the screen's to count as a highlight:
# Textual's panel and surface shades sit within about 0.1 of the screen's, a cursor or a
# selection 0.2 and more.
STANDS_OUT = 0.15


@lru_cache(1024)
def colourless(style: Style, screen_brightness: float) -> Style:
    """``style`` with no colour; reversed where its background stood out from the screen's."""
    plain = style + DEFAULT_COLOURS
    bgcolor = style.bgcolor
    if bgcolor is None or bgcolor.is_default:
        return plain
    if abs(Color.from_rich_color(bgcolor).brightness - screen_brightness) < STANDS_OUT:
        return plain
    return plain + Style(reverse=not style.reverse)


class Colourless(LineFilter):
    """No colour in what the app writes; highlights kept as reverse video."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        brightness = round(background.brightness, 2)
        return [Segment(text, None if style is None else colourless(style, brightness), control)
                for text, style, control in segments]
