"""The lobby socket's protocol, shared by the server's hub and the app's client.

Version 1: one JSON object a line, at most :data:`MAX_LINE` bytes (see
``tui_games.server.lobby.hub_socket`` for the requests and pushes). A player's app finds the
socket and its secret in the environment variables below, which only the server sets.
"""

PROTOCOL = 1
MAX_LINE = 16 * 1024
LOBBY_ENV, LOBBY_TOKEN_ENV = "TUI_GAMES_LOBBY", "TUI_GAMES_LOBBY_TOKEN"
