"""The base of every game screen: the game in progress is kept in the store under the
screen's ``GAME`` key, saved on every change and on hang-up, and resumed when the screen
opens again."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from tui_games.ui.app_base import UsesApp


class SavingScreen(UsesApp, Screen):
    #: the key of this game in the store (scores, saved games, settings): the game table's key
    GAME = ""

    @classmethod
    def for_game(cls, settings: dict, options: dict) -> SavingScreen:
        """The screen the app opens for this game, from its saved ``settings`` and the
        ``options`` given (by ``tui-games play GAME …`` or another screen)."""
        raise TypeError(f"{cls.__name__} does not say how to open it")

    def has_progress(self) -> bool:
        """Whether a game has been started here (before that there is nothing to save)."""
        return False

    def progress_state(self) -> dict[str, Any] | None:
        """The game in progress as the store keeps it (JSON); None once it is over."""
        return None

    def save_progress(self) -> None:
        """Keep the game in progress (or forget it once it is over); the app calls this on
        hang-up, and before handing the saved games to another session, for every screen on
        the stack. Nothing is written while the saved games are read-only here (another
        session of this player holds them: see tui_games.userdata.session_lock)."""
        if not self.has_progress() or self.app.store.read_only:
            return
        state = self.progress_state()
        if state is None:
            self.app.store.clear_game(self.GAME)
        else:
            self.app.store.save_game(self.GAME, state)

    def reload_progress(self) -> None:
        """This session has just taken the saved games over from another one, which saved them
        first: show this game as saved there (what was played here while read-only was not
        kept, as the notice said), or, with nothing saved, keep this one and save it now.

        A screen that can resume a saved game says how; this default only saves a game when
        none is saved, so it never writes over the other session's."""
        if self.saved_progress() is None:
            self.save_progress()

    def saved_progress(self) -> dict[str, Any] | None:
        return self.app.store.load_game(self.GAME)

    def discard_progress(self) -> None:
        self.app.store.clear_game(self.GAME)
