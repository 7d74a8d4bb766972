"""The app's side of online play: the lobby's wire protocol and the client an app (or a bot)
uses to speak it. The server's side (``tui_games.server.lobby``) imports the protocol from here,
so the UI never imports the server."""
