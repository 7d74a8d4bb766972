"""The data files the engines read, found and opened here: the shipped puzzle collections
(tui_games.puzzles), Connect-4's opening book, checkers' opening book and endgame tables."""
