"""Highlights that stack: a board cell's look is its base plus any layers that apply."""

from __future__ import annotations

from rich.style import Style


class LayeredStyles:
    """For a widget with component classes used as layers (last move, cursor, conflict …)."""

    def _layer(self, name: str) -> Style:
        """Only what the component's rule sets (so a piece's colour keeps the square's
        background), with a translucent background already blended over the widget's."""
        partial = self.get_component_rich_style(name, partial=True)  # type: ignore[attr-defined]
        if partial.bgcolor is None:
            return partial
        return partial + Style(bgcolor=self.get_component_rich_style(name).bgcolor)  # type: ignore[attr-defined]
