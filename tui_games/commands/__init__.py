"""Command-line tools of each game, registered by tui_games.cli (which never imports Textual for them)."""
