"""The contracts every game of the table meets (tui_games/engine/contracts.py), checked on every
game, plus the Nim of tests/nim_game.py: what a new game must pass before anything generic
plays it.

- Its command module is a GameCommands, and the options it adds to ``arena`` and ``bench``
  agree with the other games' and with its bench function.
- A two-player game's adapter is an ArenaGame and a LobbyGame; its variants are its own.
- Its positions, over seeded random games from every variant and library position: moves
  round-trip through the notation, push then pop gives back the position, a copy is
  independent, the outcome and the legal moves agree, the notation of a position gives the
  position back, and the lobby's replay of a game's moves reaches the same position.
- The search's optional hooks it declares keep their promises.
"""

from __future__ import annotations

import argparse
import inspect
import random

import nim_game
import pytest

from tui_games.commands.options import GameCommands, Option, add_game_options
from tui_games.engine import search as search_module
from tui_games.engine.adapter import GameAdapter
from tui_games.engine.contracts import ArenaGame, DeadDraws, LobbyGame, Notation, OrderedMoves, Playouts, Symmetries
from tui_games.engine.mcts import MCTS, mcts_search
from tui_games.engine.players import RandomPlayer
from tui_games.engine.search import WIN_BOUND, SearchLimits, search
from tui_games.games import GAMES, arena_adapter

# The table as it stands, and one more game that only the tests have: a new game passes here.
EVERY_GAME = [*GAMES, nim_game.SPEC]
TWO_PLAYER = [spec for spec in EVERY_GAME if spec.arena is not None]
PLAYOUTS = 3
# Long enough to reach the ends of tic-tac-toe, Connect-4 and Nim; checkers' middlegames.
MAX_PLIES = 60


def ids(spec) -> str:
    return spec.key


@pytest.fixture(autouse=True)
def nim_in_the_table():
    GAMES.append(nim_game.SPEC)
    yield
    GAMES.remove(nim_game.SPEC)


def test_the_contracts_see_every_game_of_the_table():
    keys = {spec.key for spec in EVERY_GAME}
    assert {"tictactoe", "connect4", "checkers", "sudoku", "nim"} <= keys
    assert all(spec in EVERY_GAME for spec in GAMES)


def test_the_search_asks_for_declared_hooks_only():
    source = inspect.getsource(search_module)
    assert "hasattr(" not in source and "getattr(" not in source, "the search probes a position"


# -- the command line ------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", EVERY_GAME, ids=ids)
def test_its_command_module_is_a_game_commands(spec):
    module = spec.commands_module
    assert isinstance(module, GameCommands), f"{spec.commands} lacks part of GameCommands"
    for option in (*module.ARENA_OPTIONS, *module.BENCH_OPTIONS):
        assert isinstance(option, Option) and option.help
    if spec.arena is None:
        assert module.ARENA_OPTIONS == (), "a game with no arena has no arena options"


@pytest.mark.parametrize("spec", EVERY_GAME, ids=ids)
def test_its_bench_options_are_keywords_of_its_bench(spec):
    accepted = inspect.signature(spec.bench_function).parameters
    for option in spec.commands_module.BENCH_OPTIONS:
        assert option.dest in accepted, f"{spec.bench} takes no {option.dest} for {option.flag}"


def test_games_that_share_a_flag_mean_the_same_by_it():
    for attribute in ("ARENA_OPTIONS", "BENCH_OPTIONS"):
        parser = argparse.ArgumentParser()
        # Raises if two games declare one flag differently.
        add_game_options(parser, [(spec.key, getattr(spec.commands_module, attribute)) for spec in EVERY_GAME])


def test_a_flag_declared_two_ways_is_refused():
    one = [("a", (Option("--size", type=int, help="rows"),)), ("b", (Option("--size", help="a name"),))]
    with pytest.raises(ValueError, match="b declares --size unlike a"):
        add_game_options(argparse.ArgumentParser(), one)


# -- the adapters --------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", EVERY_GAME, ids=ids)
def test_an_adapter_or_the_reason_there_is_none(spec):
    if spec.arena is None:
        assert spec.no_arena
        with pytest.raises(ValueError, match=spec.no_arena):
            arena_adapter(spec.key)
        return
    adapter = arena_adapter(spec.key)
    assert isinstance(adapter, GameAdapter) and adapter.name == spec.key
    assert isinstance(adapter, ArenaGame) and isinstance(adapter, LobbyGame)
    assert len(adapter.side_names) == 2 and adapter.variants and adapter.positions
    # What the adapter leaves to GameAdapter's defaults, its positions must offer.
    start = adapter.start(adapter.check_variant(adapter.variants[0][1]))
    for method, needs in (("format", "format"), ("move_text", "move_name"), ("diagram", "diagram")):
        if getattr(type(adapter), method) is getattr(GameAdapter, method):
            assert callable(getattr(start, needs, None)), f"GameAdapter.{method} reads Notation.{needs}"
    assert isinstance(nim_game.Nim(), Notation)


@pytest.mark.parametrize("spec", TWO_PLAYER, ids=ids)
def test_its_variants_and_arena_options(spec):
    adapter = arena_adapter(spec.key)
    for label, preset in adapter.variants:
        variant = adapter.check_variant(preset)
        assert adapter.check_variant(variant) == variant, "check_variant is idempotent"
        assert adapter.variant_label(preset) == label
        assert adapter.variant_of(adapter.start(variant)) == variant
    for option in spec.commands_module.ARENA_OPTIONS:
        assert option.flag.startswith("--")


@pytest.mark.parametrize("spec", TWO_PLAYER, ids=ids)
def test_every_player_it_names_can_be_made(spec):
    adapter = arena_adapter(spec.key)
    for _, variant in adapter.variants[:1]:
        for name in adapter.spec_names(variant):
            player = adapter.make_player(name, seed=1, seconds=0.5, variant=variant)
            assert player.name
        with pytest.raises(ValueError):
            adapter.make_player("no-such-player", seed=1, seconds=None, variant=variant)
        with pytest.raises(ValueError, match="after '@'"):
            adapter.make_player(f"{adapter.spec_names(variant)[0]}@soon", seed=1, seconds=None, variant=variant)


# -- the positions ---------------------------------------------------------------------------------


def starts(adapter):
    """(variant, position) for every variant's start and every library position."""
    for _, preset in adapter.variants:
        variant = adapter.check_variant(preset)
        yield variant, adapter.start(variant)
    for entry in adapter.positions:
        yield adapter.check_variant(entry.variant), adapter.library_position(entry)


def check_position(adapter, variant, pos):
    """Every promise a position makes, at one position."""
    moves = pos.legal_moves()
    outcome = pos.outcome()
    assert pos.turn in (0, 1)
    assert (outcome is None) == bool(moves), "a game goes on exactly while it has legal moves"
    if outcome is not None:
        assert outcome.winner in (None, 0, 1) and outcome.reason
    else:
        assert abs(pos.evaluate()) < WIN_BOUND, "a heuristic stays out of the win band"
    assert len(set(moves)) == len(moves), "no move twice"
    key, turn, history = pos.key(), pos.turn, list(pos.history)
    hash(key)
    # The notation: the position, and each move in it, read back.
    again = adapter.start(variant, adapter.format(pos))
    assert again.key() == key and again.turn == turn
    for move in moves:
        assert adapter.parse_move(pos, adapter.move_text(pos, move)) == move
        pos.push(move)
        assert pos.key() != key or pos.turn != turn or pos.outcome() is not None
        assert pos.pop() == move
        assert (pos.key(), pos.turn, list(pos.history)) == (key, turn, history), "push then pop"
    assert pos.legal_moves() == moves
    # A copy is independent.
    if moves:
        twin = pos.copy()
        twin.push(moves[0])
        assert (pos.key(), list(pos.history)) == (key, history)
    check_hooks(pos, moves)


def check_hooks(pos, moves):
    """The optional hooks of the search that the position declares."""
    if isinstance(pos, OrderedMoves):
        ordered = list(pos.ordered_moves())
        assert set(ordered) <= set(moves) and (bool(ordered) == bool(moves))
        assert len(set(ordered)) == len(ordered)
    if isinstance(pos, DeadDraws) and pos.is_dead_draw():
        assert pos.outcome() is None or pos.outcome().winner is None
        if pos.outcome() is None:
            assert pos.evaluate() == 0, "a dead draw evaluates to 0"
    if isinstance(pos, Symmetries) and moves:
        classes = pos.move_classes()
        assert set(classes) == set(moves) and set(classes.values()) <= set(moves)
        for move, representative in classes.items():
            line = pos.equivalent_line([representative], move)
            assert line == [move]
    if isinstance(pos, Playouts):
        key, history = pos.key(), list(pos.history)
        winners = [pos.playout(seed, 400) for seed in (1, 2, 1)]
        assert (pos.key(), list(pos.history)) == (key, history), "a playout leaves the position as it was"
        assert set(winners) <= {0, 1, None} and winners[0] == winners[2], "a seed gives its game"
        if pos.outcome() is not None:
            assert winners[0] == pos.outcome().winner


@pytest.mark.parametrize("spec", TWO_PLAYER, ids=ids)
def test_positions_keep_their_promises_over_random_games(spec):
    adapter = arena_adapter(spec.key)
    rng = random.Random(20)
    for variant, start in starts(adapter):
        for _ in range(PLAYOUTS):
            pos = start.copy()
            played: list[str] = []
            for _ in range(MAX_PLIES):
                check_position(adapter, variant, pos)
                if pos.outcome() is not None:
                    break
                move = rng.choice(pos.legal_moves())
                played.append(adapter.move_text(pos, move))
                pos.push(move)
            # The lobby's replay: the moves, read in the notation from the start, give the game.
            replay = adapter.start(variant, adapter.format(start))
            for text in played:
                replay.push(adapter.parse_move(replay, text))
            assert (replay.key(), replay.turn, replay.outcome()) == (pos.key(), pos.turn, pos.outcome())
            assert isinstance(adapter.export(replay, played, players=("a", "b"), result="*", event="contract",
                                             date="2026.01.01"), str)
            assert adapter.diagram(replay)


@pytest.mark.parametrize("spec", TWO_PLAYER, ids=ids)
def test_the_generic_search_and_a_player_play_it(spec):
    adapter = arena_adapter(spec.key)
    for variant, pos in starts(adapter):
        if pos.outcome() is not None:
            continue
        before = pos.key()
        result = search(pos, SearchLimits(depth=2))
        assert result.move in pos.legal_moves() and pos.key() == before
        decision = RandomPlayer(seed=3).choose(pos)
        assert decision.move in pos.legal_moves()
        assert adapter.check_variant(variant) == variant


@pytest.mark.parametrize("spec", TWO_PLAYER, ids=ids)
def test_monte_carlo_tree_search_plays_it(spec):
    """The generic MCTS (engine/mcts.py) over random positions of the game: a legal move, the
    position untouched, the same move for the same seed, and the tree kept across a move."""
    adapter = arena_adapter(spec.key)
    rng = random.Random(54)
    for variant, start in starts(adapter):
        pos = start.copy()
        for _ in range(rng.randrange(0, 12)):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is not None:
            continue
        before = (pos.key(), list(pos.history))
        result = mcts_search(pos, playouts=60, seed=5)
        assert result.move in pos.legal_moves() and (pos.key(), list(pos.history)) == before
        assert mcts_search(pos, playouts=60, seed=5).move == result.move
        tree = MCTS(pos, seed=5)
        tree.run(playouts=60)
        pos.push(result.move)
        if pos.outcome() is None:
            assert tree.advance(pos) and tree.root.visits > 0
            assert tree.run(playouts=20).move in pos.legal_moves()
        player = adapter.make_player("mcts:30", seed=1, seconds=None, variant=variant)
        assert player.choose(pos).move in (pos.legal_moves() or [None])
