"""Choosing a bot file as a game's opponent from its options dialog: the dialog offers "a bot
file…" (:data:`tui_games.bots.BOT_FILE`), and this asks for the file's path, checked for the game
before the dialog closes (tui_games.bots; docs/bots.md). Never offered in a served session."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from tui_games.bots import checked_spec, is_bot_spec
from tui_games.ui.screens.input_dialog import InputDialog

PROMPT = "a Python file: bot.py, bot.py:NAME, or level3:eval.py for an evaluation (docs/bots.md)"


def ask_bot_file(screen: Screen, game: str, current: str, then: Callable[[str], None]) -> None:
    """Ask for a bot file that plays ``game`` (``current``: the one being played, if any) and
    call ``then`` with its spec, its path made absolute; Escape calls nothing."""

    def check(text: str) -> str | None:
        try:
            checked_spec(game, text.strip())
        except ValueError as error:
            return str(error)
        return None

    def chosen(text: str | None) -> None:
        if text is not None:
            then(checked_spec(game, text.strip()))

    screen.app.push_screen(InputDialog("Play a bot file", PROMPT, current if is_bot_spec(current) else "",
                                       check=check), chosen)
