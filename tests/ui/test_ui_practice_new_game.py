"""n on a practice screen (Replay's p: played on from a replayed position) starts the practice
again from that position, still practice: not a game from the start that would be neither saved
nor archived while the status line no longer said so."""

from __future__ import annotations

from ui_support import SIZE, text_of, until

from tui_games.engine.connect4.position import Connect4
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.connect4 import Connect4Options, Connect4Screen


async def test_n_on_a_practice_screen_starts_the_practice_again(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        start = Connect4.parse("4433")
        screen = Connect4Screen(Connect4Options.from_settings({"opponent": "human"}))
        screen.play_on_from(start, "ply 4 of game 1")
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen and screen.position.history == start.history)
        screen.play(next(c for c in range(7) if screen.position.can_play(c)))
        assert len(screen.position.history) == 5
        await pilot.press("n")
        await until(pilot, lambda: screen.position.history == start.history)
        assert screen.practice is not None and screen.opponent is None
        assert "practice from ply 4 of game 1" in " ".join(text_of(screen.query_one("#status")).split())
        # Played again and restarted again: the practice's position is never the one played on.
        screen.play(next(c for c in range(7) if screen.position.can_play(c)))
        await pilot.press("n")
        await until(pilot, lambda: screen.position.history == start.history)
