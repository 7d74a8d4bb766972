"""Swiss and arena pairing and scoring (server/lobby/pairing.py) against the published rules.

Swiss: FIDE Handbook C.04.1 (basic rules for Swiss systems) and C.04.3 (the FIDE Dutch system,
https://handbook.fide.com/chapter/C0403: A.6 colour preferences, B/S1-S2 brackets, E colour
allocation). The FIDE text gives rules, not numbered example tournaments: the expected pairings
below are worked by hand from those rules (each case says which rule decides it).

Arena: lichess's tournament FAQ ("How are scores calculated?", as published on every lichess
arena page, e.g. https://lichess.org/tournament/VtYQfBKs): a win 2, a draw 1, a loss 0; after two
wins in a row the games are worth double until one is not won, "two wins followed by a draw will
be worth 6 points: 2 + 2 + (2 x 1)"; berserk gives one extra point for a win, "only if you play at
least 7 moves".
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_games.server.lobby.pairing import (
    BLACK,
    WHITE,
    ArenaGame,
    NoPairing,
    SwissGame,
    SwissHistory,
    SwissPlayer,
    allocate_colours,
    arena_colours,
    arena_pairs,
    arena_points,
    on_fire,
    swiss_round,
    swiss_standings,
)

NAMES = [f"p{i}" for i in range(1, 9)]


def test_round_one_is_top_half_against_bottom_half_with_colours_alternating():
    # C.04.3 B: S1 = 1-4 against S2 = 5-8 in order; E.5: the higher ranked player of each pair
    # has the initial colour (white) when his pairing number is odd.
    first = SwissHistory(NAMES).next_round()
    assert first.pairs == (("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"))
    assert first.bye is None


def test_round_two_pairs_within_score_groups_and_gives_the_higher_ranked_his_colour():
    # Every white won round one: the score group of 1 is {1, 3, 6, 8}, of 0 is {2, 4, 5, 7}.
    # In each, S1 (1, 3 | 2, 4) meets S2 (6, 8 | 5, 7) in order. All four winners had white
    # (each prefers black, mildly): E.4 gives the higher ranked player his preference (black);
    # the losers all had black and prefer white: the higher ranked (2, 4) get white.
    history = SwissHistory(NAMES)
    first = history.next_round()
    history.rounds.append(([SwissGame(w, b, 1.0) for w, b in first.pairs], None))
    second = history.next_round()
    assert set(second.pairs) == {("p6", "p1"), ("p8", "p3"), ("p2", "p5"), ("p4", "p7")}


def test_no_repeat_pairing_transposes_s2():
    # A 4-player group where 1-3 was played: S1 {1, 2} v S2 {3, 4} is transposed to 1-4, 2-3.
    players = [SwissPlayer("a", 1, 1.0, ("c",), (WHITE,)), SwissPlayer("b", 2, 1.0, ("d",), (BLACK,)),
               SwissPlayer("c", 3, 1.0, ("a",), (BLACK,)), SwissPlayer("d", 4, 1.0, ("b",), (WHITE,))]
    pairs = {frozenset(p) for p in swiss_round(players).pairs}
    assert pairs == {frozenset({"a", "d"}), frozenset({"b", "c"})}


def test_a_player_floats_down_when_his_group_is_odd():
    # Scores 1, 1, 1, 0: the lowest ranked of the top group (3) floats down to meet 4.
    players = [SwissPlayer("a", 1, 1.0), SwissPlayer("b", 2, 1.0), SwissPlayer("c", 3, 1.0), SwissPlayer("d", 4, 0.0)]
    pairs = {frozenset(p) for p in swiss_round(players).pairs}
    assert pairs == {frozenset({"a", "b"}), frozenset({"c", "d"})}


def test_bye_goes_to_the_lowest_ranked_without_one_and_scores_a_point():
    # C.04.1 c and d: an odd number: one player unpaired, with a win's point; never twice.
    history = SwissHistory(NAMES[:5])
    first = history.next_round()
    assert first.bye == "p5"
    history.rounds.append(([SwissGame(w, b, 0.5) for w, b in first.pairs], first.bye))
    assert history.scores_after()["p5"] == 1.0
    second = history.next_round()
    assert second.bye is not None and second.bye != "p5"


def test_colour_allocation_rules():
    # A.6 a: a colour difference of +2 is an absolute preference for black; it beats a strong one.
    absolute = SwissPlayer("x", 1, 2.0, ("p", "q"), (WHITE, WHITE))
    strong = SwissPlayer("y", 2, 2.0, ("r", "s", "t"), (WHITE, BLACK, WHITE))
    assert allocate_colours(absolute, strong) == ("y", "x")  # E.2: the absolute one has black
    assert absolute.preference() == (BLACK, 3)
    assert strong.preference() == (BLACK, 2)
    # E.1: both preferences granted when they differ.
    wants_white = SwissPlayer("w", 3, 1.0, ("u",), (BLACK,))
    assert allocate_colours(absolute, wants_white) == ("w", "x")
    # Two absolute preferences for the same colour never meet (C.04.1 f, g).
    other_absolute = SwissPlayer("z", 4, 2.0, ("m", "n"), (WHITE, WHITE))
    with pytest.raises(NoPairing):
        swiss_round([absolute, other_absolute])


def test_buchholz_cut_one_and_sonneborn_berger():
    # Four players, three rounds; results chosen so that the tiebreaks decide.
    history = SwissHistory(["a", "b", "c", "d"])
    history.rounds = [([SwissGame("a", "c", 1.0), SwissGame("d", "b", 0.0)], None),
                      ([SwissGame("b", "a", 0.5), SwissGame("c", "d", 1.0)], None),
                      ([SwissGame("d", "a", 0.0), SwissGame("b", "c", 0.5)], None)]
    # a: 1 + .5 + 1 = 2.5; b: 1 + .5 + .5 = 2; c: 0 + 1 + .5 = 1.5; d: 0.
    table = {row.player: row for row in swiss_standings(history, 3)}
    assert [r.player for r in swiss_standings(history, 3)] == ["a", "b", "c", "d"]
    assert table["a"].buchholz == 1.5 + 2 + 0  # c, b, d
    assert table["a"].buchholz_cut1 == 3.5
    assert table["a"].sonneborn_berger == 1.5 + 0.5 * 2 + 0
    assert table["b"].buchholz == 0 + 2.5 + 1.5
    assert table["b"].sonneborn_berger == 0 + 0.5 * 2.5 + 0.5 * 1.5


def test_a_bye_counts_a_virtual_opponent_in_buchholz():
    # FIDE's unplayed-game rule: the virtual opponent has the player's score before the round
    # (plus the point the player did not lose to him), and draws every later round.
    history = SwissHistory(["a", "b", "c"])
    history.rounds = [([SwissGame("a", "b", 1.0)], "c")]
    table = {row.player: row for row in swiss_standings(history, 3)}
    assert table["c"].buchholz == 0 + 0 + 0.5 * 2


def _play_out(count: int, rounds: int, seed: int, last_exception: bool = False) -> SwissHistory:
    rng = random.Random(seed)
    history = SwissHistory([f"p{i}" for i in range(count)])
    for number in range(rounds):
        try:
            made = history.next_round(last_round=last_exception and number == rounds - 1)
        except NoPairing:
            break
        history.rounds.append(([SwissGame(w, b, rng.choice((1.0, 0.5, 0.0))) for w, b in made.pairs], made.bye))
        if rng.random() < 0.1 and len(history.withdrawn) < count - 2:
            history.withdrawn.add(rng.choice(history.players))
    return history


@settings(max_examples=150, deadline=None)
@given(count=st.integers(2, 16), rounds=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_swiss_invariants(count, rounds, seed):
    history = _play_out(count, rounds, seed)
    met: set[frozenset] = set()
    byes: list[str] = []
    for games, bye in history.rounds:
        seated = [p for g in games for p in (g.white, g.black)] + ([bye] if bye else [])
        assert len(seated) == len(set(seated))  # at most once a round
        for g in games:
            pair = frozenset((g.white, g.black))
            assert pair not in met  # no repeat
            met.add(pair)
        if bye:
            byes.append(bye)
    # One bye a player while another has had none.
    assert len(byes) == len(set(byes)) or len(set(byes)) == count
    for card in history.cards():
        assert -2 <= card.difference <= 2
        assert all(card.colours[i:i + 3] not in (("W",) * 3, ("B",) * 3) for i in range(len(card.colours)))


def test_the_last_round_may_break_the_colour_rules_but_never_repeat():
    # Four players, three rounds: a round robin. Whoever had white twice (W W) is absolute
    # for black; two such players left to meet in round three are paired anyway (C.04.1 f, g).
    a = SwissPlayer("a", 1, 2.0, ("c", "d"), (WHITE, WHITE))
    b = SwissPlayer("b", 2, 2.0, ("d", "c"), (WHITE, WHITE))
    with pytest.raises(NoPairing):
        swiss_round([a, b])
    assert swiss_round([a, b], last_round=True).pairs in ((("a", "b"),), (("b", "a"),))
    repeat = SwissPlayer("c", 3, 0.0, ("a",), (BLACK,))
    with pytest.raises(NoPairing):
        swiss_round([SwissPlayer("a", 1, 1.0, ("c",), (WHITE,)), repeat], last_round=True)


def test_swiss_with_fewer_rounds_than_half_the_players_always_pairs():
    for seed in range(200):
        count = 4 + seed % 13
        history = _play_out(count, count // 2, seed)
        assert len(history.rounds) == count // 2 or history.withdrawn


def test_arena_points_from_the_lichess_faq():
    w, d, lost = (ArenaGame("o", r) for r in ("win", "draw", "loss"))
    assert sum(arena_points([w, w, d])) == 6  # "2 + 2 + (2 x 1)"
    assert arena_points([w, w, w, lost, w]) == [2, 2, 4, 0, 2]  # the loss ends the fire
    assert on_fire([w, w]) and not on_fire([w, d])
    berserk = ArenaGame("o", "win", berserk=True, moves=7)
    assert arena_points([berserk]) == [3]
    assert arena_points([ArenaGame("o", "win", berserk=True, moves=6)]) == [2]  # under 7 moves
    assert arena_points([w, w, berserk]) == [2, 2, 5]
    assert arena_points([ArenaGame("o", "loss", berserk=True, moves=30)]) == [0]


def test_arena_pairs_avoid_the_last_opponent_while_someone_else_may_come():
    rank = {"a": 0, "b": 1, "c": 2, "d": 3}
    last = {"a": "b", "b": "a", "c": "d", "d": "c"}
    assert arena_pairs(["a", "b", "c", "d"], rank, last, playing=0) == [("a", "c"), ("b", "d")]
    assert arena_pairs(["a", "b"], rank, last, playing=2) == []  # c and d may finish
    assert arena_pairs(["a", "b"], rank, last, playing=0) == [("a", "b")]  # nobody else can come
    assert arena_pairs(["a", "c", "b"], rank, {}, playing=0) == [("a", "b")]  # nearest in rank
    assert arena_colours("a", "b", {"a": 2, "b": 0}, {"a": 3, "b": 3}) == ("b", "a")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("abcdefgh"), unique=True, min_size=0, max_size=8), st.integers(0, 4),
       st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from("abcdefgh")))
def test_arena_pairs_invariants(waiting, playing, last):
    pairs = arena_pairs(waiting, {}, last, playing)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated)) and set(seated) <= set(waiting)
    for a, b in pairs:
        assert a != b
        if last.get(a) == b or last.get(b) == a:
            assert playing == 0


def test_the_searches_are_bounded(monkeypatch):
    from tui_games.server.lobby import pairing

    history = SwissHistory(NAMES)
    history.rounds.append(([SwissGame(w, b, 1.0) for w, b in history.next_round().pairs], None))
    monkeypatch.setattr(pairing, "SEARCH_BUDGET", 0)  # the Dutch search gives up at once: backtracking pairs
    fallback = history.next_round()
    assert len(fallback.pairs) == 4 and not {frozenset(p) for p in fallback.pairs} & {
        frozenset(("p1", "p5")), frozenset(("p6", "p2")), frozenset(("p3", "p7")), frozenset(("p8", "p4"))}
    monkeypatch.setattr(pairing, "BACKTRACK_BUDGET", 0)  # and it too: no pairing, said as such
    with pytest.raises(NoPairing):
        history.next_round()
