"""Monte Carlo tree search (tui_games/engine/mcts.py): the solver's proofs agree with the exact
search, it never plays into a proven loss, a seed and a playout budget fix the move, the tree
is reused after a move, and the budgets and the stop end it (clocks faked, never timed)."""

from __future__ import annotations

import math
import random
import threading
import time

import nim_game
import pytest
from checkers_support import random_positions

from tui_games.engine.arena import ArenaConfig, run_arena
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.mcts import EXPLORATION, MCTS, MCTSPlayer, MCTSStats, is_mcts, mcts_search, parse_mcts_spec
from tui_games.engine.search import WIN, SearchLimits, game_value, plies_to_end, search
from tui_games.engine.tictactoe import TicTacToe
from tui_games.engine.tictactoe.arena import TicTacToeArena
from tui_games.engine.tree import TreeRecorder


def exact_root(pos):
    """{move: score for the mover} by the exact search, every root move scored."""
    result = search(pos, SearchLimits(), exact_root=True)
    assert result.exact
    return {rm.move: rm.score for rm in result.root_moves}


def losing_moves(pos):
    if isinstance(pos, Connect4):
        # The generic search is far too slow to solve these: the solver, column by column.
        columns = Solver().analyze(pos)
        scores = {col: score for col, score in enumerate(columns) if score is not None}
        return {m for m, s in scores.items() if s < 0}, scores
    scores = exact_root(pos)
    return {m for m, s in scores.items() if s < 0}, scores


# Positions where some moves lose and others do not (each checked against the exact search).
CURATED = [
    TicTacToe.parse("X../.O./..X"),  # O to move: a corner loses to a fork, an edge draws
    TicTacToe.parse("XX./OO./..."),  # X wins at once; most moves let O win
    TicTacToe.parse("X.O/.X./..."),  # O must block the diagonal
    Connect4.parse("3532617333274447"),  # 5 wins; 1, 2, 3 and 7 lose
    Connect4.parse("4231124236476734"),  # 2 and 3 win, the rest lose
    nim_game.Nim(9, 3),  # take 1 and win; take 2 or 3 and lose
    nim_game.Nim(14, 3),  # take 2
]


@pytest.mark.parametrize("pos", CURATED, ids=lambda p: type(p).__name__ + ":" + p.format())
def test_the_solver_never_plays_into_a_proven_loss(pos):
    losing, scores = losing_moves(pos)
    assert losing and len(losing) < len(scores), "a curated position has losing and other moves"
    for seed in range(3):
        # Few playouts: the moves the tree has proven to lose are never played.
        tree = MCTS(pos, seed=seed)
        tree.run(playouts=100)
        best = tree.best_child()
        assert best is not None and best.proven != 1
        # Enough to prove them: no losing move at all.
        result = mcts_search(pos, playouts=2000, seed=seed)
        assert result.move not in losing, (seed, result.move)
        if result.exact and not isinstance(pos, Connect4):
            assert result.score == max(scores.values())


def test_a_move_proven_to_lose_is_never_chosen_while_another_is_not():
    rng = random.Random(4)
    checked = 0
    for _ in range(40):
        pos = TicTacToe(3, 3, 3)
        for _ in range(rng.randrange(1, 6)):
            pos.push(rng.choice(pos.legal_moves()))
            if pos.outcome() is not None:
                break
        if pos.outcome() is not None:
            continue
        tree = MCTS(pos, seed=rng.randrange(1000))
        tree.run(playouts=rng.choice((20, 100, 500)))
        best = tree.best_child()
        assert best is not None
        if any(c.proven != 1 for c in tree.root.children):
            assert best.proven != 1
            checked += 1
    assert checked > 20


def test_proofs_agree_with_the_exact_search():
    rng = random.Random(7)
    proven = 0
    for _ in range(30):
        pos = TicTacToe(3, 3, 3)
        for _ in range(rng.randrange(3, 7)):
            pos.push(rng.choice(pos.legal_moves()))
            if pos.outcome() is not None:
                break
        if pos.outcome() is not None:
            continue
        result = mcts_search(pos, playouts=20_000, seed=1)
        exact = search(pos, SearchLimits())
        assert result.exact, pos.format()
        assert result.score == exact.score, pos.format()
        # The distance to the end is the exact one: a win is taken by its shortest road.
        proven += 1
        pos.push(result.move)
        after = search(pos, SearchLimits()).score
        assert game_value(-after) == game_value(exact.score)
        if exact.score:
            assert plies_to_end(after) == plies_to_end(exact.score) - 1
    assert proven > 15
    for stones in range(1, 15):
        result = mcts_search(nim_game.Nim(stones, 3), playouts=5000, seed=2)
        assert result.exact and (result.score > 0) == (stones % 4 != 0)


@pytest.mark.parametrize(
    "pos",
    [TicTacToe(3, 3, 3), TicTacToe(4, 4, 3), Connect4(), CheckersPosition(), nim_game.Nim(21, 3)],
    ids=lambda p: type(p).__name__,
)
def test_the_same_seed_and_playouts_give_the_same_move(pos):
    before = pos.key()
    runs = [mcts_search(pos, playouts=300, seed=11) for _ in range(2)]
    assert pos.key() == before and runs[0].move in pos.legal_moves()
    assert runs[0].move == runs[1].move
    visits = [[(rm.move, rm.score) for rm in run.root_moves] for run in runs]
    assert visits[0] == visits[1]
    assert runs[0].stats.playouts == 300 or runs[0].exact
    others = {mcts_search(pos, playouts=300, seed=s).root_moves[0].score for s in range(12, 16)}
    assert len(others | {runs[0].root_moves[0].score}) > 1, "the seed makes a difference"


def test_the_subtree_is_reused_after_a_move_and_its_reply():
    pos = Connect4()
    player = MCTSPlayer(playouts=2000, seed=3)
    first = player.choose(pos)
    assert player.tree is not None
    root = player.tree.root
    pos.push(first.move)
    reply = max((c for c in root.children if c.move == first.move), key=lambda c: c.visits).children
    kept = max(reply, key=lambda c: c.visits)
    pos.push(kept.move)
    assert player.tree.advance(pos)
    assert player.tree.root is kept and kept.visits > 0 and kept.parent is None
    assert player.tree.tree_size == kept.size()
    # Another game's position: a fresh tree.
    assert not player.tree.advance(Connect4.parse("1"))
    assert player.tree.root.visits == 0


def test_a_cpu_budget_ends_the_search(monkeypatch):
    ticks = iter(range(10**9))
    # Each read of the thread's CPU clock is a hundredth of a second after the one before.
    monkeypatch.setattr(time, "thread_time", lambda: next(ticks) / 100)
    result = mcts_search(Connect4(), seconds=0.5, seed=1)
    assert 10 <= result.stats.playouts <= 60 and result.move is not None and not result.stopped


def test_the_wall_ceiling_ends_a_starved_search(monkeypatch):
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    result = mcts_search(Connect4(), seconds=1.0, seed=1)
    assert result.stats.playouts <= 8 and result.move is not None


class StopAfter(threading.Event):
    """Set once it has been asked ``n`` times (the search asks once a playout)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.left = n

    def is_set(self) -> bool:
        self.left -= 1
        return self.left < 0 or super().is_set()


def test_stop_ends_the_search_and_a_stop_before_any_playout_still_moves():
    result = mcts_search(Connect4(), playouts=10**6, seed=1, stop=StopAfter(50))
    assert result.stopped and result.stats.playouts == 50 and result.move is not None
    stop = threading.Event()
    stop.set()
    decision = MCTSPlayer(playouts=100, seed=1).choose(Connect4(), stop=stop)
    assert decision.move in Connect4().legal_moves()


def test_progress_reports_and_the_recorded_tree():
    reports: list[MCTSStats] = []
    recorder = TreeRecorder(max_plies=3, max_nodes=200)
    result = mcts_search(TicTacToe(3, 3, 3), playouts=3000, seed=5, on_progress=reports.append, recorder=recorder)
    assert reports and isinstance(reports[-1], MCTSStats)
    last = reports[-1]
    assert last.playouts == 3000 and last.tree_size == 3001 and last.best_move == result.move
    assert last.best_visits == max(rm_visits for rm_visits in _root_visits(recorder))
    root = recorder.root
    assert root is not None and root.visits == 3000 and root.best == result.move
    assert recorder.count <= 200 and all(node.ply <= 3 for node in root.walk())
    top = root.children[0]
    assert top.move == result.move and top.visits == last.best_visits
    assert top.uct == pytest.approx(top.wins / top.visits + EXPLORATION * math.sqrt(math.log(3000) / top.visits))
    assert [c.visits for c in root.children] == sorted((c.visits for c in root.children), reverse=True)


def _root_visits(recorder):
    return [child.visits for child in recorder.root.children]


def test_a_proven_root_ends_the_search_with_its_distance():
    result = mcts_search(Connect4.parse("112233"), playouts=10_000, seed=1)
    assert result.exact and result.move == 3 and result.score == WIN - 1
    assert result.stats.playouts < 10_000


def test_the_player_says_why_in_a_sentence():
    decision = MCTSPlayer(playouts=1000, seed=2, move_name=lambda pos, m: pos.move_name(m)).choose(TicTacToe(3, 3, 3))
    assert decision.note.startswith(f"{TicTacToe(3, 3, 3).move_name(decision.move)}: ")
    assert " of 1,000 playouts, wins " in decision.note and decision.note.endswith("%")
    won = MCTSPlayer(playouts=1000, seed=2, move_name=lambda pos, m: pos.move_name(m)).choose(Connect4.parse("112233"))
    assert won.note.startswith("4: ") and won.note.endswith("proven win in 1 ply")


def test_specs():
    assert parse_mcts_spec("mcts") is None and parse_mcts_spec("MCTS:10,000") == 10_000
    assert is_mcts("MCTS:many") and not is_mcts("perfect") and not is_mcts("mctsx")
    with pytest.raises(ValueError, match="'perfect' is not Monte Carlo tree search"):
        parse_mcts_spec("perfect")
    for bad in ("mcts:", "mcts:0", "mcts:many"):
        with pytest.raises(ValueError, match="after 'mcts:'"):
            parse_mcts_spec(bad)


@pytest.mark.slow
def test_on_three_by_three_mcts_at_one_cpu_second_never_loses_to_perfect():
    """A modest series (the report gives a longer one): MCTS with 1 CPU-s a move, each side."""
    config = ArenaConfig(game="tictactoe", a="mcts@1", b="perfect", games=2, seed=54)
    result = run_arena(TicTacToeArena(), config)
    assert result.games == 2 and result.b_wins == 0, result.summary()


def test_the_bench_counts_best_value_columns_and_playouts(tmp_path):
    from tui_games.bench.connect4 import load_sets
    from tui_games.bench.connect4_mcts import OURS, best_value_pick, mcts_rows

    solver = Solver()
    pos = Connect4.parse("3532617333274447")
    assert best_value_pick(solver, pos, 4) and not best_value_pick(solver, pos, 0)
    sample = tmp_path / "late.txt"
    sample.write_text("3532617333274447 13\n4231124236476734 12\n")
    lines: list[str] = []
    mcts_rows(lines.append, load_sets([str(sample)], None), playouts=500, engines=[OURS])
    row = lines[-1].split()
    assert row[:5] == ["late", "tui-games", "2", "2", "100%"] and int(row[5].replace(",", "")) > 0


def test_without_openspiel_the_bench_says_in_one_line_how_to_install_it(tmp_path, monkeypatch):
    import sys

    from tui_games.bench import connect4_openspiel
    from tui_games.bench.connect4 import load_sets
    from tui_games.bench.connect4_mcts import mcts_rows

    # A module set to None in sys.modules is one that cannot be imported.
    for name in ("pyspiel", "open_spiel", "open_spiel.python.algorithms.mcts"):
        monkeypatch.setitem(sys.modules, name, None)
    assert connect4_openspiel.openspiel_engines() == []
    sample = tmp_path / "late.txt"
    sample.write_text("3532617333274447 13\n")
    lines: list[str] = []
    mcts_rows(lines.append, load_sets([str(sample)], None), playouts=200)
    hints = [line for line in lines if "OpenSpiel" in line and "pip install" in line]
    assert len(hints) == 1 and "tui-games[bench-openspiel]" in hints[0]
    assert [line.split()[1] for line in lines if line.startswith("late")] == ["tui-games"]


def test_openspiel_mcts_searches_the_same_position_and_budget():
    """OpenSpiel (an optional extra) searches our position: the move it finds in a won end game
    is the solver's best, proven, within the budget; Python and C++ bots alike."""
    pytest.importorskip("pyspiel")
    from tui_games.bench.connect4_mcts import best_value_pick
    from tui_games.bench.connect4_openspiel import openspiel_engines

    pos = Connect4.parse("3532617333274447")
    engines = openspiel_engines()
    assert [e.label for e in engines] == ["OpenSpiel-Python", "OpenSpiel-C++"]
    for engine in engines:
        found = engine.search(pos, 2_000, 1)
        assert 0 < found.playouts <= 2_000 and found.cpu > 0
        assert best_value_pick(Solver(), pos, found.move), engine.label
        assert engine.search(pos, 2_000, 1).move == found.move, "seeded"


def swept(game: str, depth: int, position: str) -> tuple[list[str], list[list[str]]]:
    """What ``bench sweep`` writes of ``position`` to ``depth``, and the words of each row of
    its Monte Carlo table."""
    from tui_games.bench.sweep import bench_sweep

    lines: list[str] = []
    bench_sweep(lines.append, game=game, depth=depth, position=position)
    at = next(i for i, line in enumerate(lines) if line.startswith("Monte Carlo tree search"))
    return lines, [line.split() for line in lines[at + 4 :] if line.strip() and line.split()[0].isdigit()]


def test_the_sweep_puts_mcts_beside_alpha_beta_at_equal_budgets():
    _, rows = swept("tictactoe", 7, "fork")
    assert len(rows) == 2 * 7 and {row[-2] for row in rows} <= {"yes", "no"}
    assert any(row[2] == "playouts" for row in rows) and any(row[2] == "ms" for row in rows)


def replayed_playout(pos, seed, max_plies):
    """The playout's game played move by move on a copy with the rules of Connect4.push."""
    from tui_games.engine.connect4.playout import splitmix64

    game = pos.copy()
    state = seed
    for _ in range(max_plies):
        if game.outcome() is not None:
            break
        legal = game.legal_moves()
        state, z = splitmix64(state)
        game.push(legal[z % len(legal)])
    outcome = game.outcome()
    return outcome.winner if outcome is not None else None


@pytest.mark.parametrize("full_board", [False, True])
def test_connect4s_compiled_playouts_and_their_python_twin_play_the_same_games(full_board):
    from tui_games.engine.connect4 import playout as c4_playout

    if not full_board and not c4_playout.COMPILED:
        pytest.skip("the compiled playout is not built here")
    rng = random.Random(9)
    for _ in range(60):
        pos = Connect4(full_board)
        for _ in range(rng.randrange(0, 30)):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is not None:
            continue
        seed, plies = rng.getrandbits(64), rng.choice((4, 12, 400))
        twin = c4_playout.python_playout(pos.current, pos.mask, pos.moves, seed, plies, full_board)
        played = c4_playout.playout(pos.current, pos.mask, pos.moves, seed, plies, full_board)
        assert played == twin
        # Both are the game the rules give: the winner of the replay, from the side to move.
        winner = pos.playout(seed, plies)
        assert winner == replayed_playout(pos, seed, plies)
        assert winner == (None if twin == 0 else pos.turn if twin > 0 else 1 - pos.turn)


def test_the_tree_stops_growing_at_its_cap_and_the_search_goes_on():
    tree = MCTS(Connect4(), seed=1, max_tree_nodes=50)
    result = tree.run(playouts=400)
    assert tree.tree_size == 50 and result.stats.playouts == 400 and result.move in range(7)


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "checkers"])
def test_every_game_names_an_mcts_player_by_its_playouts(game):
    import importlib

    module = importlib.import_module(f"tui_games.engine.{game}.players")
    assert module.normalize_spec("MCTS:1,000") == "mcts:1000" and module.normalize_spec("mcts") == "mcts"
    player = module.make_player("mcts:300", seed=1)
    assert isinstance(player, MCTSPlayer) and player.playouts == 300 and player.seconds is None
    assert player.name == "mcts 300"
    timed = module.make_player("mcts", seed=1, seconds=2.0)
    assert isinstance(timed, MCTSPlayer) and timed.seconds == 2.0 and timed.playouts is None
    with pytest.raises(ValueError, match="whole positive number"):
        module.normalize_spec("mcts:0")


def replayed_checkers_playout(pos, seed, max_plies):
    """The playout's game played move by move on a copy with CheckersPosition's rules: the
    ``z % n``-th legal move in the order of the moves' paths."""
    from tui_games.engine.splitmix import splitmix64

    game = pos.copy()
    state = seed
    for _ in range(max_plies):
        if game.outcome() is not None:
            break
        legal = sorted(game.legal_moves(), key=lambda move: move.path)
        state, z = splitmix64(state)
        game.push(legal[z % len(legal)])
    outcome = game.outcome()
    if outcome is not None and outcome.reason == "repetition":
        return "repetition"
    return outcome.winner if outcome is not None else None


def test_checkers_compiled_playouts_and_their_python_twin_play_the_same_games():
    from tui_games.engine.checkers import position as ck_playout

    if not ck_playout.PLAYOUT_COMPILED:
        pytest.skip("the compiled checkers core is not built here")
    rng = random.Random(54)
    for pos in [CheckersPosition(), *random_positions(79, 54)]:  # the start, then openings to kings' endings
        for plies in (6, 60, 400):
            seed = rng.getrandbits(64)
            args = (pos.black, pos.white, pos.kings, pos.turn, pos.quiet_plies, seed, plies)
            twin = ck_playout.python_playout(*args)
            assert ck_playout.random_playout(*args) == twin, (pos.fen(), seed, plies)
            # Both are the game the rules give (a threefold repetition aside: the playout knows
            # no history), from the side to move.
            winner = pos.playout(seed, plies)
            assert winner == (None if twin == 0 else pos.turn if twin > 0 else 1 - pos.turn)
            if plies <= 60 and (replayed := replayed_checkers_playout(pos, seed, plies)) != "repetition":
                assert winner == replayed, (pos.fen(), seed, plies)


def test_checkers_mcts_uses_the_game_s_playout():
    from tui_games.engine.game import Playouts

    pos = CheckersPosition()
    assert isinstance(pos, Playouts)
    first = mcts_search(pos, playouts=300, seed=3)
    assert first.move in pos.legal_moves() and mcts_search(pos, playouts=300, seed=3).move == first.move


def test_the_connect4_sweep_judges_mcts_moves_by_the_solver_where_no_depth_solves_it():
    lines, rows = swept("connect4", 3, "middlegame")
    assert len(rows) == 2 * 3 and {row[-2] for row in rows} <= {"yes", "no"}
    assert not any("did not solve" in line for line in lines)
