"""Bring your own bot: a Python file as a player, or as an evaluation, wherever a player goes.

Local only: the command line (``arena``, ``tournament``, ``play GAME --opponent``) and the
app's Lab take a bot spec (:mod:`.spec`: ``PATH.py``, ``PATH.py:NAME``, ``levelN:PATH.py``,
each with ``@SECONDS``) through :func:`player_factory`; a served session refuses them, and
the servers (the lobby's house players included) never import this package. The file runs in
a child process (:mod:`.child`) that :class:`~.player.FilePlayer` drives; a bot that fails
loses the game with a one-line reason. What a bot gets and may call: docs/bots.md.
"""

from __future__ import annotations

from tui_games.bots.player import FilePlayer
from tui_games.bots.spec import BotSpec, BotSpecError, check_bot_file, is_bot_spec, parse_bot_spec
from tui_games.engine.adapter import GameAdapter, Variant
from tui_games.engine.arena import PlayerFactory
from tui_games.engine.mcts_spec import spec_family
from tui_games.engine.players import Player

__all__ = [
    "BOT_FILE",
    "BotSpec",
    "BotSpecError",
    "FilePlayer",
    "bot_choices",
    "checked_spec",
    "default_seconds",
    "game_player",
    "is_bot_spec",
    "make_file_player",
    "parse_bot_spec",
    "player_factory",
    "storable",
]

# A bot's budget a move when neither its spec (@S) nor the run (--seconds) gives one and the
# game's settings name none.
FALLBACK_SECONDS = 5.0


def default_seconds(game: str) -> float:
    """The game's own budget a move (its settings' ``seconds``: tic-tac-toe 10, Connect-4 5,
    checkers 2)."""
    from tui_games.games import find_game

    try:
        return float(find_game(game).settings.get("seconds", FALLBACK_SECONDS))
    except ValueError:
        return FALLBACK_SECONDS


def make_file_player(
    game: GameAdapter, bot: BotSpec, *, seed: int | None, seconds: float | None, variant: Variant
) -> FilePlayer:
    """The player of the bot spec ``bot``; BotSpecError (a ValueError) names what is wrong with
    it, before any child is started."""
    if bot.level is not None:
        level = f"level{bot.level}"
        names = game.spec_names(variant)
        if level not in names:
            levels = [n for n in names if n.startswith("level")]
            raise BotSpecError(
                f"{game.title} has no {level}" + (f"; its levels are {levels[0]} to {levels[-1]}" if levels else "")
            )
    target = check_bot_file(bot)
    budget = bot.seconds if bot.seconds is not None else seconds if seconds is not None else default_seconds(game.name)
    return FilePlayer(game, bot, target, seconds=budget, seed=seed, variant=game.check_variant(variant))


def player_factory(game: GameAdapter) -> PlayerFactory:
    """``make_player(spec, *, seed, seconds, variant)`` for ``game``: a bot spec is a
    :class:`FilePlayer`, anything else the game's own player (``game.make_player``)."""

    def make_player(spec: str, *, seed: int | None, seconds: float | None, variant: Variant) -> Player:
        bot = parse_bot_spec(spec)
        if bot is None:
            return game.make_player(spec, seed=seed, seconds=seconds, variant=variant)
        return make_file_player(game, bot, seed=seed, seconds=seconds, variant=variant)

    return make_player


# -- the game screens and `play GAME --opponent` ------------------------------------------------------


def game_player(game: str, spec: str, variant: Variant) -> Player:
    """The player ``spec`` (a bot spec, or a built-in one) of the game named ``game``, for a
    game screen; BotSpecError names a bot that cannot play."""
    from tui_games.games import arena_adapter

    return player_factory(arena_adapter(game))(spec, seed=None, seconds=None, variant=variant)


def checked_spec(game: str, spec: str) -> str:
    """The bot spec ``spec``, its file made absolute, once it is known to play ``game``
    (BotSpecError says why not); for ``play GAME --opponent``."""
    bot = parse_bot_spec(spec)
    if bot is None:
        raise BotSpecError(f"{spec!r} is not a bot file")
    game_player(game, spec, {}).close()
    return bot.spec


# The options dialogs' choice that asks for a bot file's path (tui_games/ui/screens/bot_file.py).
BOT_FILE = "bot-file"


def bot_choices(spec: str) -> list[tuple[str, str]]:
    """An options dialog's (label, value) for bot files: the bot ``spec`` being played, when it
    is one, and "a bot file…" that asks for one; none in a served session."""
    from tui_games.userdata.player_files import served

    if served():
        return []
    bot = parse_bot_spec(spec) if is_bot_spec(spec) else None
    return ([(f"bot file {bot.label}", spec)] if bot is not None else []) + [("a bot file… (a path)", BOT_FILE)]


def storable(values: dict) -> dict:
    """Options to save as settings: a bot file or ``mcts:N`` is played, never kept as the next
    game's opponent (the settings hold the built-in players' names only)."""
    opponent = values.get("opponent")
    if isinstance(opponent, str) and (is_bot_spec(opponent) or spec_family(opponent) != opponent):
        return {key: value for key, value in values.items() if key != "opponent"}
    return values
