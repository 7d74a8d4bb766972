"""The footer of every screen: Textual's, drawn with its keys in the screen's first frame and
composed again only when the keys it shows change.

Textual's footer starts empty and recomposes itself each time the screen says its bindings
were updated (focus moved, an action was enabled or disabled, ...): three times as the menu
settles after a login, each time mounting and styling its keys again and drawing another
frame, for the same two keys. Measured in a forked app: about a third of the CPU it spends
after its first frame (docs/performance.md, "Logins and capacity").
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from tui_games.ui.app_base import UsesApp
from tui_games.ui.runtime import textual_compat


class KeysFooter(UsesApp, Footer):
    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        # The screen's bindings can be read when the footer composes (it is mounted in the
        # screen): no need to wait for the first "bindings updated" to show them.
        if textual_compat.enabled("footer"):
            textual_compat.bindings_ready(self)
        self._composed: tuple | None = None

    def shown(self) -> tuple:
        """What the footer shows of the screen's bindings now: recomposed when this changes."""
        app = self.app
        palette = self.show_command_palette and app.ENABLE_COMMAND_PALETTE
        return tuple((key, binding.action, binding.description, binding.key_display, binding.group, enabled, tooltip)
                     for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
                     if binding.show or (palette and key == app.COMMAND_PALETTE_BINDING))

    def compose(self) -> ComposeResult:
        self._composed = self.shown()
        for widget in super().compose():
            key_class = textual_compat.footer_key_class()
            if key_class is not None and textual_compat.enabled("footer") and isinstance(widget, key_class):
                # Born as compact as the footer: its data binding then changes nothing (each
                # change of its class restyles it).
                widget.set_reactive(key_class.compact, self.compact)  # type: ignore[attr-defined]
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        if textual_compat.enabled("footer") and self.is_attached and screen is self.screen \
                and self.shown() == self._composed:
            return
        super().bindings_changed(screen)
