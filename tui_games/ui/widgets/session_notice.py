"""The line that tells a read-only session why its games are not saved, and which key takes
them over (see tui_games.userdata.session_lock).

It takes the header's place while it shows, so the board below does not move, and it says
READ-ONLY in capitals, so it reads without colour too.
"""

from __future__ import annotations

from textual.widgets import Header, Static

from tui_games.ui.app_base import UsesApp


class SessionNotice(UsesApp, Static):
    DEFAULT_CSS = """
    SessionNotice {
        dock: top;
        width: 100%;
        height: 1;
        padding: 0 1;
        background: $warning;
        color: $background;
        text-style: bold;
        display: none;
    }
    """

    _shown = ""
    _placed = False  # display (and the header's) set at least once

    def on_mount(self) -> None:
        self.sync()

    def text(self) -> str | None:
        """What to say now; None while this session writes its saved games."""
        store = self.app.store
        if not store.read_only:
            return None
        holder = store.session_holder()
        if not holder.running():
            return "READ-ONLY: your other session has ended · T takes over your saved games"
        if store.handed_over:
            return "READ-ONLY: another session took over your saved games · T takes them back"
        return f"READ-ONLY: another session (pid {holder.pid}) has your saved games · T takes over"

    def sync(self) -> None:
        """Show or hide the notice (and the header in its place) for the session's state now;
        nothing is touched unless that changed."""
        text = self.text()
        if text is not None and text != self._shown:
            self._shown = text
            self.update(text)
        if self.display != (text is not None) or not self._placed:
            self._placed = True
            self.display = text is not None
            for header in self.screen.query(Header):
                header.display = text is None


__all__ = ["SessionNotice"]
