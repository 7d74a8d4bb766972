"""The front door and the manual: the README stays short and shows the two commands a newcomer
needs, and every relative link in the README, CONTRIBUTING.md and docs/ reaches a file that
exists and, where it names a section, a heading that exists (GitHub's anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", REPO / "scripts" / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    found = set()
    for line in FENCE.sub("", page.read_text()).splitlines():
        if match := re.match(r"#{1,6} (.*)", line):
            text = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower())
            found.add(text.replace(" ", "-"))
    return found


def test_the_readme_fits_on_a_screen_or_two_and_shows_both_commands():
    text = (REPO / "README.md").read_text()
    assert len(text.splitlines()) <= 250
    assert "pip install . && tui-games" in text
    assert 'pip install ".[test]" && pytest' in text


def test_the_design_and_contributing_pages_are_in_the_repo():
    assert (REPO / "docs" / "DESIGN.md").is_file() and (REPO / "CONTRIBUTING.md").is_file()
    for game in ("tictactoe", "connect4", "checkers", "sudoku"):
        assert (REPO / "docs" / "games" / f"{game}.md").is_file()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_relative_link_reaches_a_page_and_a_heading(page):
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text())):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target}: no heading '{anchor}' in {goal.relative_to(REPO)}")
    assert not broken, broken


def test_each_games_page_is_a_players_page():
    """Rules, keys, opponents, commands and a short account of strength: under 400 lines (an
    engine's research log goes to docs/engine/)."""
    from tui_games.games import GAMES

    for spec in GAMES:
        page = REPO / "docs" / "games" / f"{spec.key}.md"
        assert len(page.read_text().splitlines()) < 400, f"{page.name} is a research log, not a player's page"
