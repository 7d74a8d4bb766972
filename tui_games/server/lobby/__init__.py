"""Games between players on the server (docs/DESIGN.md, "Serving others"): the lobby is the
authority. It keeps seeks, challenges, live and finished games, clocks and Glicko-2 ratings in
SQLite, validates every move with the game's own rules (the engine's adapters from the game
table), and answers ``ssh host COMMAND`` for scripts and bots (commands.py).

Nothing here imports Textual.
"""
