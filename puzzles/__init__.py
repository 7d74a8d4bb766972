"""Puzzle collections shipped with tui-games (plain text; read them with tui_games.data.resources).

This directory is installed as the package ``tui_games.puzzles``.
"""
