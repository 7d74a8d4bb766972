"""Draw what a batch of updates held back, as soon as the batch ends.

Textual suspends drawing while a batch of updates is under way (``App.batch_update``: a footer
recomposing its keys when the bindings change, a Markdown mounting its blocks, any recompose).
A screen asked meanwhile to lay out or repaint (a dialog just opened, a move, a resize) leaves
it for its next idle moment, when no batch is under way (a frame it renders during the batch is
thrown away). But the batch's end wakes only the app (Textual 8.2), and the screen's next idle
comes with its next message: a key, or a timer of one of its widgets. A dialog whose first frame
fell inside a batch stayed blank on the player's terminal until the next key reached it ("a
second w showed the PDN dialog with w typed in it") or a resize (issue 56). Pilot tests never
saw it: the pilot's pause paints the screen itself.

:class:`RepaintAfterBatch` (a mixin of the app) wakes every screen that is shown when the last
batch ends, so what it was asked for meanwhile is drawn then. A screen with nothing waiting
draws nothing: the partial updates (tui_games.ui.runtime.partial_updates) go on sending only
what changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_games.ui.runtime.textual_compat import OpenApp

if TYPE_CHECKING:
    from textual.screen import Screen


class RepaintAfterBatch(OpenApp):
    """Put before Textual's ``App`` (or a subclass of it) in the app's bases (see the module)."""

    if TYPE_CHECKING:  # (App's, for the type checker)
        screen_stack: list[Screen]

    def batch_ended(self) -> None:
        for screen in self.screen_stack:
            if screen.is_current:  # the top screen, and those shown under a dialog
                screen.check_idle()
