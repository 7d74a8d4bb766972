"""The documents of the user's data directory, one module each (see :mod:`tui_games.userdata.store`)."""
