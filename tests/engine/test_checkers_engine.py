"""The checkers engine and players: legal moves in many random positions, the search
contract (stats, stop event, node and time limits, progress rate, tree recorder), wins and
draws it must see, the evaluation's symmetry, the players' registry, and the match runner."""

from __future__ import annotations

import random
import threading
import time

import pytest
from checkers_support import random_positions

from tui_games.engine.checkers.ballots import Ballot
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, NETWORK, evaluate, material
from tui_games.engine.checkers.match import play_game, play_match
from tui_games.engine.checkers.pdn import read_pdn_game
from tui_games.engine.checkers.players import (
    OPPONENTS,
    BaselinePlayer,
    EnginePlayer,
    make_player,
    normalize_spec,
)
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.players import RandomPlayer
from tui_games.engine.search import EXACT, TT, WIN, WIN_BOUND, SearchLimits, search
from tui_games.engine.tree import TreeRecorder


def mirror(pos: CheckersPosition) -> CheckersPosition:
    """The same position with the colours swapped and the board turned round (square s
    becomes 33 - s): the side to move keeps its prospects."""
    def turn_round(mask: int) -> int:
        return int(f"{mask:032b}"[::-1], 2)

    out = CheckersPosition("B:W:B")
    out.black, out.white, out.kings = turn_round(pos.white), turn_round(pos.black), turn_round(pos.kings)
    out.turn = 1 - pos.turn
    return CheckersPosition(out.fen())


# -- legality and the contract --------------------------------------------------------------------------


def test_engine_plays_legal_moves_in_many_random_positions():
    engine = Engine()
    rng = random.Random(5)
    for pos in random_positions(60, seed=1, max_plies=90):
        before = pos.fen()
        result = engine.search(pos, SearchLimits(depth=3), rng=rng)
        assert result.move in pos.legal_moves()
        assert pos.fen() == before  # never changes the position
        assert all(rm.move in pos.legal_moves() for rm in result.root_moves)
        # The line starts with the move and is playable.
        replay = pos.copy()
        for move in result.pv:
            assert move in replay.legal_moves()
            replay.push(move)
        assert result.pv[0] == result.move


def test_players_play_legal_moves_through_random_games():
    rng = random.Random(2)
    for spec in ("level2", "baseline", "random"):
        player = make_player(spec, seed=1)
        pos = CheckersPosition()
        for _ in range(40):
            if pos.outcome() is not None:
                break
            decision = player.choose(pos)
            assert decision.move in pos.legal_moves(), spec
            assert decision.note
            pos.push(decision.move)
            if pos.outcome() is None:
                pos.push(rng.choice(pos.legal_moves()))


def test_the_strong_player_evaluates_with_the_network_and_the_levels_without():
    # The levels' arena table was measured without the network; strong (and its hint, play,
    # the engine mode) gained it when it held GuiNN to an even score.
    strong, level = make_player("strong", seed=1), make_player("level6", seed=1)
    assert isinstance(strong, EnginePlayer) and isinstance(level, EnginePlayer)
    assert strong.engine.net is NETWORK and level.engine.net is None
    assert strong.engine.weights == level.engine.weights == DEFAULT_WEIGHTS


def test_search_stats_and_result_shape():
    pos = CheckersPosition()
    result = Engine().search(pos, SearchLimits(depth=6), rng=random.Random(0))
    stats = result.stats
    assert result.complete and not result.stopped
    assert stats.depth == 6 and stats.seldepth >= 6
    assert stats.nodes > stats.leaves > 0 and stats.cutoffs > 0
    assert stats.best_move == result.move and stats.score == result.score
    assert len(result.root_moves) == 7
    assert result.root_moves[0].bound == EXACT and result.root_moves[0].move == result.move
    assert stats.nodes_per_second > 0


def test_seeded_searches_repeat():
    pos = random_positions(1, seed=9, max_plies=90)[0]
    a = Engine().search(pos, SearchLimits(depth=5), rng=random.Random(3))
    b = Engine().search(pos, SearchLimits(depth=5), rng=random.Random(3))
    assert (a.move, a.score, a.stats.nodes) == (b.move, b.score, b.stats.nodes)


def test_stop_event_returns_a_legal_move_at_once():
    pos = random_positions(1, seed=4, max_plies=90)[0]
    stop = threading.Event()
    stop.set()
    result = Engine().search(pos, SearchLimits(seconds=30), stop=stop)
    assert result.stopped and not result.complete
    assert result.move in pos.legal_moves()


def test_stop_from_another_thread_and_node_limit():
    pos = CheckersPosition()
    stop, searching = threading.Event(), threading.Event()
    results = []

    def run() -> None:
        # An hour's budget: only the stop event ends this search.
        results.append(Engine().search(pos, SearchLimits(seconds=3600), stop=stop,
                                       on_progress=lambda stats: searching.set()))

    thread = threading.Thread(target=run)
    thread.start()
    assert searching.wait(60), "the search never reported a finished iteration"
    stop.set()  # from this thread, not the search's
    thread.join(60)
    assert not thread.is_alive(), "the search did not stop when asked"
    (result,) = results
    assert result.stopped and result.move in pos.legal_moves() and result.stats.depth >= 1
    limited = Engine().search(pos, SearchLimits(nodes=3000))
    assert limited.stopped and limited.stats.nodes < 3000 + 2048


def test_time_limit_and_progress_rate():
    pos = random_positions(1, seed=12, max_plies=90)[0]
    calls: list[float] = []
    began, cpu_began = time.perf_counter(), time.thread_time()
    result = Engine().search(pos, SearchLimits(seconds=0.6), on_progress=lambda s: calls.append(time.perf_counter()))
    spent, cpu = time.perf_counter() - began, time.thread_time() - cpu_began
    # The budget counts CPU seconds of the search thread (the stop checks come every
    # thousand nodes or so: a few milliseconds even in Python).
    assert cpu < 0.6 + 0.15
    assert result.stats.seconds <= cpu
    assert result.move in pos.legal_moves()
    assert calls
    # At most ten updates a second (one per finished iteration may come sooner).
    assert len(calls) <= 10 * spent + 2


def test_recorder_gets_the_tree():
    pos = CheckersPosition()
    recorder = TreeRecorder(max_plies=3, max_nodes=5000)
    result = Engine().search(pos, SearchLimits(depth=4), recorder=recorder, rng=random.Random(0))
    root = recorder.root
    assert root is not None and recorder.depth == 4 and not recorder.partial
    assert {child.move for child in root.children} == set(pos.legal_moves())
    assert root.best == result.move and root.value == result.score
    assert all(child.value is not None for child in root.children)
    assert max(node.ply for node in root.walk()) == 3  # recorded below the root (traced in C, or by the Python core)


def test_finds_the_winning_capture_and_proves_it():
    pos = CheckersPosition("B:W18:B14")
    result = Engine().search(pos, SearchLimits(seconds=2))
    assert str(result.move) == "14x23"
    assert result.score == WIN - 1 and result.exact


def test_wins_two_kings_against_one():
    # Two kings against one in the double corner: a known win, which the search must
    # find and play out (no repetition, no 40-move draw).
    pos = CheckersPosition("B:WK28:BK19,K22")
    players = (make_player("level10", seed=1), make_player("level10", seed=2))
    while pos.outcome() is None and pos.ply < 80:
        pos.push(players[pos.turn].choose(pos).move)
    assert pos.outcome() is not None and pos.outcome().winner == 0


@pytest.mark.slow
@pytest.mark.parametrize("fen", [
    "B:WK1,K5:BK19,K23,K27",  # three kings against two holding both double corners
    "W:WK1,K5:BK18,K22,11",  # two kings and a man against two kings
])
def test_converts_won_king_endgames(fen):
    # The side ahead must chase, trade down and avoid repetitions: it wins well inside
    # the 40-move rule against a defender searching almost as deep.
    pos = CheckersPosition(fen)
    players = (make_player("level9", seed=1), make_player("level7", seed=2))
    while pos.outcome() is None and pos.ply < 120:
        pos.push(players[pos.turn].choose(pos).move)
    assert pos.outcome() is not None and pos.outcome().winner == 0


def test_sees_the_loss_of_no_moves():
    pos = CheckersPosition("W:W29:B25,22")
    result = Engine().search(pos, SearchLimits(depth=3))
    assert result.move is None and result.score <= -WIN_BOUND


def test_repetition_is_a_draw_to_the_search():
    # Equal kings shuffling: a move back into an earlier position scores 0.
    pos = CheckersPosition("W:WK29:BK4")
    for text in ("29-25", "4-8", "25-29", "8-4"):
        pos.push_text(text)
    result = Engine().search(pos, SearchLimits(depth=6))
    assert result.score == 0


def test_generic_search_runs_on_the_position_too():
    result = search(CheckersPosition(), SearchLimits(depth=4), TT, rng=random.Random(0))
    assert result.move in CheckersPosition().legal_moves()


# -- evaluation -------------------------------------------------------------------------------------------


def test_evaluation_is_colour_symmetric():
    for pos in random_positions(40, seed=7, max_plies=90):
        m = mirror(pos)
        assert evaluate(pos.black, pos.white, pos.kings, pos.turn) == evaluate(m.black, m.white, m.kings, m.turn)
        assert material(pos.black, pos.white, pos.kings, pos.turn) == material(m.black, m.white, m.kings, m.turn)


def test_evaluation_basics():
    start = CheckersPosition()
    assert evaluate(start.black, start.white, start.kings, start.turn) == 0
    up = CheckersPosition("B:W21,22:B1,2,3")
    assert evaluate(up.black, up.white, up.kings, 0) > 50
    assert evaluate(up.black, up.white, up.kings, 1) < -50
    assert material(up.black, up.white, up.kings, 0) == 100
    king = CheckersPosition("B:WK21,22:B1,2,3")
    assert material(king.black, king.white, king.kings, 0) == 50  # 300 against 100 + 150
    for pos in random_positions(40, seed=8, max_plies=90):
        assert abs(pos.evaluate()) < WIN_BOUND


# -- players -------------------------------------------------------------------------------------------


def test_registry():
    assert next(iter(OPPONENTS)) == "strong" and "level12" in OPPONENTS and "baseline" in OPPONENTS
    assert normalize_spec("Level 3") == "level3"
    assert isinstance(make_player("strong"), EnginePlayer)
    assert make_player("strong", seconds=0.5).limits.seconds == 0.5
    assert make_player("level4").limits.depth == 4
    assert isinstance(make_player("baseline"), BaselinePlayer)
    assert isinstance(make_player("random"), RandomPlayer)
    for bad in ("level0", "level13", "grandmaster"):
        with pytest.raises(ValueError, match="unknown opponent"):
            make_player(bad)
    for seconds in (0.4, 10.5):
        with pytest.raises(ValueError, match="seconds per move"):
            make_player("strong", seconds=seconds)


def test_player_notes():
    only = CheckersPosition("B:W18:B14,1")
    decision = make_player("level3").choose(only)
    assert str(decision.move) == "14x23" and decision.note.startswith("only move")
    over = CheckersPosition("W:W29:B25,22")
    assert make_player("strong").choose(over).move is None
    stop = threading.Event()
    stop.set()
    stopped = make_player("strong", seconds=5).choose(CheckersPosition(), stop=stop)
    assert stopped.move in CheckersPosition().legal_moves() and stopped.note.startswith("stopped")


def test_baseline_is_material_only_and_does_not_touch_the_position():
    pos = CheckersPosition("B:W18,22:B14,9")
    before = pos.fen()
    decision = BaselinePlayer(seed=0).choose(pos)
    assert decision.move in pos.legal_moves()
    assert pos.fen() == before and pos.heuristic == "default"
    assert decision.result.stats.algorithm == "alphabeta" and decision.result.stats.depth == 6


# -- the match runner ----------------------------------------------------------------------------------


def test_play_game_adjudicates_at_the_ply_limit():
    ballot = Ballot(1, ("9-13", "21-17", "5-9"), True)
    record = play_game(RandomPlayer(seed=1), RandomPlayer(seed=2), ballot.position(), max_plies=12,
                       opening=str(ballot))
    assert record.plies == 12 and record.adjudicated and record.result == "1/2-1/2"
    game = read_pdn_game(record.pdn)
    assert len(game.moves) == 12 and game.tags["Termination"] == "adjudicated"
    assert game.tags["Opening"] == str(ballot)


def test_play_match_both_colours():
    ballots = [Ballot(1, ("9-13", "21-17", "5-9"), True), Ballot(5, ("9-13", "22-18", "6-9"), True)]
    seen = []
    match = play_match(lambda: make_player("level2", seed=1), lambda: RandomPlayer(seed=3), ballots,
                       max_plies=300, on_game=lambda record, m: seen.append(record))
    assert len(match.games) == 4 and seen == match.games
    assert [g.black for g in match.games] == ["level 2", "random", "level 2", "random"]
    assert match.wins + match.losses + match.draws == 4
    assert match.wins >= 3  # two plies of search crush random play
    assert "level 2 vs random" in match.summary()
