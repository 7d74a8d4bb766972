"""Status lines under the board at 80 columns break between phrases, never inside one."""

from __future__ import annotations

import re

from ui_support import SIZE, settle

from tui_games.ui.app import TuiGamesApp


def status_lines(screen) -> list[str]:
    status = screen.query_one("#status")
    lines = ["".join(segment.text for segment in status.render_line(y)).strip() for y in range(status.size.height)]
    return [line for line in lines if line]


def whole(lines: list[str], phrase: str) -> bool:
    """Whether ``phrase`` (a regular expression) is on one line."""
    return any(re.search(phrase, line) for line in lines)


async def test_the_computers_move_and_its_score_are_not_cut_in_the_middle(home):
    # Was: "level 5 played b2: depth 5: score" / "+24 (heuristic)".
    app = TuiGamesApp("tictactoe", {"opponent": "level5", "first": "computer", "rows": 3, "cols": 3, "k": 3})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        lines = status_lines(screen)
        assert whole(lines, r"^X to move$"), lines
        assert whole(lines, r"level 5 played [a-c][1-3]:"), lines
        assert whole(lines, r"score [+-]\d+ \(heuristic\)"), lines
        assert len(lines) <= 3, lines


async def test_a_lost_game_keeps_the_result_and_the_keys_each_on_one_line(home):
    # Was: "You lose. O wins. n: new game · u:" / "undo".
    app = TuiGamesApp("tictactoe", {"opponent": "level1", "first": "human", "rows": 3, "cols": 3, "k": 3})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        for move in (0, 4, 1, 2, 8, 6):  # X a1 b1 c3, O b2 c1 a3: three in a row
            screen.position.push(move)
        screen.status_note = ""
        screen._after_move()
        await pilot.pause()
        lines = status_lines(screen)
        assert screen.position.outcome() is not None
        assert whole(lines, r"You lose\. O wins\."), lines
        assert whole(lines, r"n: new game · u: undo"), lines


async def test_a_proven_result_stays_with_its_proof(home):
    app = TuiGamesApp("tictactoe", {"opponent": "perfect", "first": "computer", "rows": 3, "cols": 3, "k": 3})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        lines = status_lines(screen)
        assert whole(lines, r"draw \(proven\)"), lines
