"""Tic-tac-toe players: the perfect one never loses and wins fastest, the classic ones never
miss a win, all of them play legal moves, and a seed makes any of them repeat itself."""

from __future__ import annotations

import threading

import pytest
from ttt_oracle import move_results, rank, reachable

from tui_games.engine.players import Decision, RandomPlayer
from tui_games.engine.tictactoe import O, TicTacToe, X
from tui_games.engine.tictactoe.players import (
    LINES,
    MagicSquarePlayer,
    RuleBasedPlayer,
    make_player,
    opponents_for,
)

REACHABLE_3X3 = reachable(TicTacToe(3, 3, 3))


def immediate_wins(pos: TicTacToe) -> set[int]:
    wins = set()
    for m in pos.legal_moves():
        pos.push(m)
        if pos.outcome() is not None and pos.outcome().winner == 1 - pos.turn:
            wins.add(m)
        pos.pop()
    return wins


# -- the perfect player ----------------------------------------------------------------------------


def worst_outcome_for(player, side: int, pos: TicTacToe, seen: dict) -> int:
    """The worst result (+1/0/-1 for ``side``) ``player`` gets against every possible line of
    the opponent from ``pos``: the opponent's every reply is tried, the player's own choice
    is the one it makes."""
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.value_for(side)
    key = pos.key()
    if key in seen:
        return seen[key]
    if pos.turn == side:
        decision = player.choose(pos)
        assert decision.move in pos.legal_moves()
        pos.push(decision.move)
        worst = worst_outcome_for(player, side, pos, seen)
        pos.pop()
    else:
        worst = 1
        for m in pos.legal_moves():
            pos.push(m)
            worst = min(worst, worst_outcome_for(player, side, pos, seen))
            pos.pop()
    seen[key] = worst
    return worst


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("side", [X, O], ids=["plays X", "plays O"])
def test_perfect_never_loses_on_3x3(side, misere):
    player = make_player("perfect", seed=3)
    assert worst_outcome_for(player, side, TicTacToe(3, 3, 3, misere), {}) == 0


@pytest.mark.slow
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_perfect_plays_an_optimal_move_in_every_3x3_position(misere):
    """Keeps the value, wins in the fewest plies and loses in the most (brute-force oracle)."""
    player = make_player("perfect", seed=1)
    memo: dict = {}
    for pos in reachable(TicTacToe(3, 3, 3, misere)):
        results = move_results(pos, memo)
        best = max(rank(*r)[0] for r in results.values())
        decision = player.choose(pos)
        assert rank(*results[decision.move])[0] == best, (pos, decision)
        assert decision.result is not None and decision.result.exact


def test_perfect_prefers_the_fastest_win():
    # X can win at once on c1, or block-and-win later; it must take c1 now.
    pos = TicTacToe.parse("XX./OO./...")
    for seed in range(5):
        decision = make_player("perfect", seed=seed).choose(pos)
        assert decision.move == 2
        assert decision.note == "depth 5: win in 1 ply (proven)"


def test_perfect_holds_out_longest_when_lost():
    # O to move is lost (X gets a fork either way), but blocking c1 lasts 4 plies, the
    # rest only 2: the perfect player blocks.
    pos = TicTacToe.parse("XX./O../...")
    assert {m: r for m, r in move_results(pos).items() if r[1] == 4} == {2: (-1, 4)}
    for seed in range(5):
        decision = make_player("perfect", seed=seed).choose(pos)
        assert decision.move == 2
        assert decision.note.endswith("loss in 4 plies (proven)")


def test_perfect_keeps_its_table_between_moves_and_games_of_another_kind():
    player = make_player("perfect", seed=0)
    first = player.choose(TicTacToe(3, 3, 3))
    assert player.table
    # The same player on misère rules must not reuse entries made under normal rules.
    misere = TicTacToe.parse("XX./OO./...", misere=True)
    decision = player.choose(misere)
    assert decision.move != 2  # completing the line would lose
    assert first.note == "depth 9: draw (proven)"


def test_perfect_on_a_board_too_big_to_solve_reports_not_proven():
    pos = TicTacToe(6, 6, 4)
    decision = make_player("perfect", seconds=0.4, seed=0).choose(pos)
    assert decision.move in pos.legal_moves()
    assert decision.note.endswith("not proven in 0.4 s")
    assert decision.result.stopped and not decision.result.exact


def test_search_players_honour_stop():
    stop = threading.Event()
    stop.set()
    pos = TicTacToe(6, 6, 4)
    decision = make_player("perfect").choose(pos, stop=stop)
    assert decision.move in pos.legal_moves()


@pytest.mark.parametrize("level", range(1, 10))
def test_levels_take_an_immediate_win(level):
    pos = TicTacToe.parse("XX./OO./...")
    decision = make_player(f"level{level}", seed=0).choose(pos)
    assert decision.move == 2
    assert decision.result.stats.depth <= level


def test_level_notes_describe_the_search():
    decision = make_player("level2", seed=0).choose(TicTacToe(4, 4, 4))
    assert decision.note.startswith("depth 2: score ") and decision.note.endswith("(heuristic)")


# -- the non-AI players ----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["rule-based", "magic-square"])
def test_classic_players_are_legal_win_when_they_can_and_block_when_they_must(spec):
    player = make_player(spec, seed=0)
    for pos in REACHABLE_3X3:
        decision = player.choose(pos)
        assert decision.move in pos.legal_moves()
        wins = immediate_wins(pos)
        if wins:
            assert decision.move in wins, (pos, decision)
            assert "wins at" in decision.note
            continue
        pos.turn = 1 - pos.turn
        threats = immediate_wins(pos)
        pos.turn = 1 - pos.turn
        if threats:
            assert decision.move in threats, (pos, decision)
            assert "blocks" in decision.note
        elif 4 in pos.legal_moves():
            assert decision.move == 4
        elif any(e in pos.legal_moves() for e in (1, 3, 5, 7)):
            assert decision.move in (1, 3, 5, 7)


def test_rule_products_and_magic_sums_see_the_same_squares():
    rule, magic = RuleBasedPlayer(), MagicSquarePlayer()
    for pos in REACHABLE_3X3:
        for side in (X, O):
            assert {c for c, _ in rule.finishing(pos, side)} == {c for c, _ in magic.finishing(pos, side)}


def test_classic_notes_explain_the_rule():
    pos = TicTacToe.parse(".../XX./O.O")  # X to move: own win on row 2 beats the block
    rule = RuleBasedPlayer().choose(pos)
    assert rule == Decision(5, "line product 18 on row 2: X wins at c2")
    magic = MagicSquarePlayer().choose(pos)
    assert magic.move == 5 and magic.note == "X holds 1 and 5, 15-1-5=9: X wins at c2"
    block = RuleBasedPlayer().choose(TicTacToe.parse("X.X/.O./..."))
    assert block.note == "line product 18 on row 1: O blocks X at b1"
    assert RuleBasedPlayer().choose(TicTacToe(3, 3, 3)).note == "no win or block: takes the centre b2"
    assert len(LINES) == 8


def test_random_player_is_legal_everywhere():
    player = RandomPlayer(seed=0)
    for pos in REACHABLE_3X3:
        decision = player.choose(pos)
        assert decision.move in pos.legal_moves() and decision.note == "random move"


@pytest.mark.parametrize("spec", ["random", "rule-based", "magic-square", "perfect", "level3"])
def test_players_have_nothing_to_do_in_a_finished_game(spec):
    decision = make_player(spec).choose(TicTacToe.parse("XXX/OO./..."))
    assert decision.move is None


# -- registry and reproducibility ------------------------------------------------------------------


def self_play(spec_x: str, spec_o: str, seed: int, board=(3, 3, 3)) -> list[int]:
    players = [make_player(spec_x, seed=seed), make_player(spec_o, seed=seed + 1)]
    pos = TicTacToe(*board)
    while pos.outcome() is None:
        pos.push(players[pos.turn].choose(pos).move)
    return pos.history


@pytest.mark.parametrize("spec", ["perfect", "level2", "random", "rule-based", "magic-square"])
def test_seeded_players_repeat_themselves(spec):
    games = {tuple(self_play(spec, "random", seed)) for seed in (11, 11, 11)}
    assert len(games) == 1
    # ... and different seeds do vary the game (a random opponent makes that near-certain).
    assert len({tuple(self_play(spec, "random", seed)) for seed in range(8)}) > 1


def test_make_player_names_and_errors():
    assert make_player("perfect").name == "perfect"
    assert make_player("level4").name == "level 4"
    assert make_player("Level 4").name == "level 4"  # labels work too
    assert make_player("magic square").name == "magic-square"
    with pytest.raises(ValueError, match="unknown opponent 'level10'; choose one of perfect, level1"):
        make_player("level10")
    with pytest.raises(ValueError, match="unknown algorithm"):
        make_player("level3", algorithm="mcts")


def test_opponents_for_offers_classic_players_only_on_the_classic_game():
    specs = [spec for spec, _ in opponents_for(TicTacToe(3, 3, 3))]
    assert specs[:2] == ["perfect", "level1"] and "rule-based" in specs and "magic-square" in specs
    for pos in (TicTacToe(4, 4, 3), TicTacToe(3, 3, 3, misere=True), TicTacToe(3, 4, 3)):
        specs = [spec for spec, _ in opponents_for(pos)]
        assert "rule-based" not in specs and "magic-square" not in specs and "level9" in specs
    with pytest.raises(ValueError, match="only plays 3x3"):
        RuleBasedPlayer().choose(TicTacToe(4, 4, 3))


def test_perfect_is_named_deep_search_where_it_cannot_solve_the_board():
    # Issue 23, finding 7: on 5×5 "perfect" searched 10 s a move and proved nothing.
    labels = dict(opponents_for(TicTacToe(5, 5, 4)))
    assert labels["perfect"] == "deep search"
    assert dict(opponents_for(TicTacToe(4, 4, 3)))["perfect"] == "perfect"
    assert make_player("perfect", board=(5, 5)).name == "deep search"
    assert make_player("perfect", board=(4, 4)).name == "perfect"
