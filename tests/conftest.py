"""Fixtures every test module may use."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A data directory of the test's own (``TUI_GAMES_HOME``): never the user's real settings,
    scores or saves, and no shared server leaderboard."""
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path))
    monkeypatch.delenv("TUI_GAMES_LEADERBOARD", raising=False)
    return tmp_path
