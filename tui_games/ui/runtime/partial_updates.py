"""Send only the changed part of a line, not everything left of it.

When a widget repaints a region, Textual writes each changed line from the left edge of the
widget's fragment of that line up to the region's right end: its compositor's
``ChopsUpdate.render_segments`` crops fragments on the right side only (Textual 8.2). On a
board that means a cursor step on the right-hand side resends the whole row, and two
changed cells on one line send it twice: 1.4–1.8 KB per keypress in truecolor
instead of a few hundred bytes, which is what a player over SSH pays for.

:func:`install` replaces that one method with a version that crops both sides. It checks
the shape of what it replaces and leaves Textual alone if a new version changed it, so the
worst case is the old (correct, larger) output. ``tui-games bench terminal`` and a test
measure the difference.
"""

from __future__ import annotations

import inspect

from rich.console import Console
from rich.control import Control

from tui_games.ui.runtime import textual_compat

_installed = False


def _render_segments(self, console: Console) -> str:
    """``ChopsUpdate.render_segments``, cropping each fragment to the span on both sides."""
    sequences: list[str] = []
    append = sequences.append
    move_to = Control.move_to
    chops = self.chops
    chop_ends = self.chop_ends
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        line = chops[y]
        ends = chop_ends[y]
        for end, (x, strip) in zip(ends, line.items()):
            if strip is None or x > x2 or end <= x1:
                continue
            start, stop = max(x, x1), min(end, x2)
            if start == x and stop == end:
                append(move_to(x, y).segment.text)
                append(strip.render(console))
                continue
            append(move_to(start, y).segment.text)
            append(strip.crop(start - x, stop - x).render(console))
        if y != last_y:
            append("\n")
    return "".join(sequences)


def install() -> bool:
    """Use the cropping renderer; False (and no change) if Textual's internals differ."""
    global _installed
    if _installed:
        return True
    chops_update = textual_compat.chops_update_class()
    if chops_update is None or not textual_compat.enabled("partial_updates"):
        return False
    original = getattr(chops_update, "render_segments", None)
    if original is None or list(inspect.signature(original).parameters) != ["self", "console"]:
        return False
    probe = chops_update.__init__
    if list(inspect.signature(probe).parameters) != ["self", "chops", "spans", "chop_ends"]:
        return False
    chops_update.render_segments = _render_segments
    _installed = True
    return True
