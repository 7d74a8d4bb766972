"""Pure game logic and search: no Textual, no file I/O, no printing."""
