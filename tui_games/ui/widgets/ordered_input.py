"""Textual's Input with its editing keys kept in order with typed characters.

Textual's Input inserts a printable character in ``_on_key`` but leaves backspace, ctrl+u,
the arrows and Enter to bindings that run later, after the event has bubbled to the app. When
several keys arrive in one read — over SSH a packet often carries a burst — the characters
typed after a backspace land before it: ``abc`` + 3×backspace + ``x`` became ``abx…`` minus its
last three letters, and ``ctrl+u`` + a name + Enter submitted an empty field. This runs the
Input's own bindings inline, in arrival order. Upstream: Textualize/textual#6605 (the fix
proposed in PR #6631 does the same); remove this once a release has it.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from tui_games.ui.runtime import textual_compat
from tui_games.ui.runtime.textual_compat import OpenInput


class OrderedInput(OpenInput, Input):
    async def key_typed(self, event: events.Key) -> None:
        if not event.is_printable:
            for key in event.aliases:
                for binding in textual_compat.key_bindings(self, key):
                    if binding.priority:
                        continue  # the app ran priority bindings before the key reached us
                    event.stop()
                    event.prevent_default()
                    await self.run_action(binding.action)
                    return
        await super().key_typed(event)
