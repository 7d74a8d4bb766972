"""The evaluation's pattern tables: the compiled and Python evaluations agree on them exactly,
they keep the evaluation colour-symmetric, the shipped image is validated when decoded, and the
training script's data pieces compute what the engine computes."""

from __future__ import annotations

import importlib
import random

import pytest
from checkers_support import KING_POSITIONS, random_positions

from tui_games.engine.checkers import core as core_module
from tui_games.engine.checkers import patterns
from tui_games.engine.checkers.core import make_core
from tui_games.engine.checkers.evaluation import (
    DEFAULT_WEIGHTS,
    FEATURE_WEIGHTS,
    N_PATTERN_WEIGHTS,
    N_WEIGHTS,
    PATTERN_STATES,
    PATTERN_WINDOWS,
    _turn,
    make_evaluator,
    pattern_indices,
)
from tui_games.engine.checkers.position import CheckersPosition

compiled = pytest.mark.skipif(not core_module.COMPILED, reason="the C core was not built (no compiler)")
WINDOWS = len(PATTERN_WINDOWS)


def random_patterns(seed: int, spread: int = 300) -> tuple[int, ...]:
    rng = random.Random(seed)
    return tuple(rng.randrange(-spread, spread + 1) for _ in range(N_PATTERN_WEIGHTS))


def positions() -> list[CheckersPosition]:
    return random_positions(300, seed=21) + [CheckersPosition(f) for f in KING_POSITIONS]


@compiled
def test_compiled_and_python_pattern_evaluations_agree():
    # Random tables (every window and state its own weight) and the shipped ones; the extreme
    # 16-bit values too, where a narrower sum would overflow.
    extreme = tuple(32767 if i % 3 else -32768 for i in range(N_PATTERN_WEIGHTS))
    for weights in (DEFAULT_WEIGHTS, FEATURE_WEIGHTS + random_patterns(1), FEATURE_WEIGHTS + extreme):
        c = make_core(10, weights, compiled=True)
        evaluate = make_evaluator(weights)
        for pos in positions():
            for turn in (0, 1):
                assert c.evaluate(pos.black, pos.white, pos.kings, turn) == evaluate(
                    pos.black, pos.white, pos.kings, turn), pos.fen()


def test_the_tables_change_the_score_and_keep_colours_symmetric():
    weights = FEATURE_WEIGHTS + random_patterns(2)
    with_tables, without = make_evaluator(weights), make_evaluator(FEATURE_WEIGHTS)
    changed = 0
    for pos in positions():
        b, w, k = pos.black, pos.white, pos.kings
        for turn in (0, 1):
            score = with_tables(b, w, k, turn)
            # The same position with the colours swapped and the board turned round.
            assert score == with_tables(_turn(w), _turn(b), _turn(k), 1 - turn), pos.fen()
            changed += score != without(b, w, k, turn)
    assert changed > 500


def test_pattern_indices_read_each_window():
    # Black's man on square 1 (bit 0) is the first square of band 1-2 and of the left block
    # of rows 1-4; White's man on square 6 (bit 5) is band 1-2's sixth square and band 2-3's
    # second.
    own = pattern_indices(1 << 0, 1 << 5)
    assert own[0] == 1 + 2 * 3 ** 5
    assert own[1] == 2 * 3 ** 1
    assert own[PATTERN_WINDOWS.index((0, True))] == 1 + 2 * 3 ** 3  # bit 5 is the block's 4th square
    assert all(i == 0 for i in own[2:7])
    assert all(0 <= i < PATTERN_STATES for i in pattern_indices(0xFFF, 0xFFF00000))


def test_the_image_round_trips_and_bad_images_are_refused():
    values = random_patterns(3, spread=32767)
    blob = patterns.encode(values, WINDOWS, PATTERN_STATES)
    assert patterns.decode(blob, WINDOWS, PATTERN_STATES) == values
    text = patterns.encode_text(values, WINDOWS, PATTERN_STATES)
    assert patterns.decode_text(text, WINDOWS, PATTERN_STATES) == values
    flipped = bytearray(blob)
    flipped[-40] ^= 0xFF
    wrong_crc = bytearray(blob)
    wrong_crc[12] ^= 1
    bad = {
        blob[:10]: "too short",
        b"XXXX" + blob[4:]: "bad magic",
        blob[:4] + b"\x02\x00" + blob[6:]: "version 2",
        blob[:-100]: "corrupt",
        bytes(flipped): "corrupt",
        bytes(wrong_crc): "checksum",
    }
    for image, message in bad.items():
        with pytest.raises(ValueError, match=message):
            patterns.decode(image, WINDOWS, PATTERN_STATES)
    with pytest.raises(ValueError, match="expected 12 of"):
        patterns.decode(blob, 12, PATTERN_STATES)
    with pytest.raises(ValueError, match="base 85"):
        patterns.decode_text("not base85 ~~~", WINDOWS, PATTERN_STATES)
    short = patterns.encode(values[:2 * PATTERN_STATES], 1, PATTERN_STATES)
    with pytest.raises(ValueError, match="windows"):
        patterns.decode(short, WINDOWS, PATTERN_STATES)
    with pytest.raises(ValueError, match="16 bits"):
        patterns.encode((40000,) * (2 * PATTERN_STATES), 1, PATTERN_STATES)


def test_bad_weight_vectors_are_refused_by_both_evaluations():
    too_big = FEATURE_WEIGHTS + (40000,) + (0,) * (N_PATTERN_WEIGHTS - 1)
    for weights in (FEATURE_WEIGHTS + (0,) * 5, too_big):
        with pytest.raises(ValueError):
            make_evaluator(weights)
        if core_module.COMPILED:
            with pytest.raises(ValueError):
                make_core(10, weights, compiled=True)
    assert len(FEATURE_WEIGHTS) == N_WEIGHTS
    assert len(DEFAULT_WEIGHTS) in (N_WEIGHTS, N_WEIGHTS + N_PATTERN_WEIGHTS)


def test_the_training_scripts_data_pieces_match_the_engine(tmp_path):
    np = pytest.importorskip("numpy")  # the training's own dependency, not the project's
    script = importlib.import_module("tui_games.training.checkers_train_patterns")
    pos = positions()[:60]
    games = tmp_path / "games.jsonl"
    lines = [
        '{"result": 1.0, "positions": [%s]}' % ", ".join(f"[{p.black}, {p.white}, {p.kings}, {p.turn}, 40]"
                                                     for p in pos[:30]),
        '{"result": 0.5, "positions": [%s]}' % ", ".join(f"[{p.black}, {p.white}, {p.kings}, {p.turn}]"
                                                     for p in pos[30:]),
    ]
    games.write_text("\n".join(lines) + "\n")
    data = script.load_positions([str(games)], np, check_share=0.5)
    assert data["games"] == 2 and len(data["result"]) == 60
    assert data["game"].tolist() == [0] * 30 + [1] * 30
    assert data["check"].sum() in (30,)  # one whole game held out
    y = script.labels(data["result"], data["score"], 0.5, 53.6, np)
    assert y[0] == pytest.approx(0.5 + 0.5 / (1 + np.exp(-40 / 53.6)))
    assert y[59] == 0.5  # no score: the result alone
    own, opp = script.pattern_index_arrays(data["black"], data["white"], np)
    for i, p in enumerate(pos):
        assert own[i].tolist() == pattern_indices(p.black, p.white)
        assert opp[i].tolist() == pattern_indices(_turn(p.white), _turn(p.black))


def test_lambda_labels_lean_on_the_games_later_searches():
    # Two games in play order: three searched positions won by Black, then a searched and an
    # unsearched position lost. G_i = 0.5 s_i + 0.5 G_next, the result after a game's last
    # position; an unsearched position keeps its result and passes G on unchanged.
    np = pytest.importorskip("numpy")
    script = importlib.import_module("tui_games.training.checkers_train_patterns")
    score = np.array([0.0, 53.6, -53.6, 20.0, np.nan])
    result = np.array([1.0, 1.0, 1.0, 0.0, 0.0])
    game = np.array([0, 0, 0, 1, 1])
    s = 1 / (1 + np.exp(-np.nan_to_num(score) / 53.6))
    g2 = 0.5 * s[2] + 0.5 * 1.0
    g1 = 0.5 * s[1] + 0.5 * g2
    g0 = 0.5 * s[0] + 0.5 * g1
    g3 = 0.5 * s[3] + 0.5 * 0.0
    y = script.labels(result, score, 0.25, 53.6, np, lam=0.5, game=game)
    assert y[:4].tolist() == pytest.approx([0.25 * r + 0.75 * g for r, g in zip(result, (g0, g1, g2, g3))])
    assert y[4] == 0.0
    plain = script.labels(result, score, 0.25, 53.6, np)
    assert script.labels(result, score, 0.25, 53.6, np, lam=0.0, game=game).tolist() == plain.tolist()
    assert y[0] != pytest.approx(plain[0])
    with pytest.raises(ValueError, match="lam"):
        script.labels(result, score, 0.25, 53.6, np, lam=0.5)
    with pytest.raises(ValueError, match="lam 1"):
        script.labels(result, score, 0.25, 53.6, np, lam=1, game=game)


def test_train_only_games_are_never_held_out_and_leave_the_held_out_games_alone(tmp_path):
    np = pytest.importorskip("numpy")
    script = importlib.import_module("tui_games.training.checkers_train_patterns")
    pos = positions()[:40]
    own_games, outside = tmp_path / "own.jsonl", tmp_path / "outside.jsonl"
    own_games.write_text("".join('{"result": %s, "positions": [[%d, %d, %d, %d, 10]]}\n' % (r, p.black, p.white, p.kings, p.turn)
                                 for r, p in zip([1.0, 0.0, 0.5] * 7, pos[:20])))
    outside.write_text("".join('{"result": 0.5, "positions": [[%d, %d, %d, %d]]}\n' % (p.black, p.white, p.kings, p.turn)
                               for p in pos[20:]))
    alone = script.load_positions([str(own_games)], np, check_share=0.5)
    both = script.load_positions([str(own_games)], np, check_share=0.5, train_only=[str(outside)])
    assert both["games"] == 40 and len(both["result"]) == 40
    assert both["check"][:20].tolist() == alone["check"].tolist() and alone["check"].sum() == 10
    assert not both["check"][20:].any()
    assert np.isnan(both["score"][20:]).all() and (both["score"][:20] == 10).all()


def test_weighted_training_games_are_never_held_out_but_weigh_as_the_data_files(tmp_path):
    # New deep games are held out from; older ones of their kind train with the same weight,
    # so a fit warmed from a network that saw the older games is checked on games it never saw.
    np = pytest.importorskip("numpy")
    script = importlib.import_module("tui_games.training.checkers_train_patterns")
    pos = positions()[:30]
    line = '{"result": 0.5, "positions": [[%d, %d, %d, %d]]}\n'
    new, older, other = (tmp_path / name for name in ("new.jsonl", "older.jsonl", "other.jsonl"))
    new.write_text("".join(line % (p.black, p.white, p.kings, p.turn) for p in pos[:10]))
    older.write_text("".join(line % (p.black, p.white, p.kings, p.turn) for p in pos[10:20]))
    other.write_text("".join(line % (p.black, p.white, p.kings, p.turn) for p in pos[20:]))
    alone = script.load_positions([str(new)], np, check_share=0.5)
    data = script.load_positions([str(new)], np, check_share=0.5, train_only=[str(other)],
                                 train_weighted=[str(older)])
    assert data["games"] == 30 and data["check"][:10].tolist() == alone["check"].tolist()
    assert not data["check"][10:].any()
    assert data["weighted"].tolist() == [True] * 20 + [False] * 10
    assert data["primary"].tolist() == [True] * 10 + [False] * 20
    assert [int(b) for b in data["black"][10:20]] == [p.black for p in pos[10:20]]


def test_twins_train_but_never_the_held_out_games_twins(tmp_path):
    # The labelled file is the first 10 games of 14 again (one position each, a new score);
    # the twin file trains every game but the held-out ones' twins, and its games past the
    # labelled ones all.
    np = pytest.importorskip("numpy")
    script = importlib.import_module("tui_games.training.checkers_train_patterns")
    pos = positions()[:14]
    twin, deep = tmp_path / "twin.jsonl", tmp_path / "deep.jsonl"
    line = '{"result": 0.5, "positions": [[%d, %d, %d, %d, %d]]}\n'
    twin.write_text("".join(line % (p.black, p.white, p.kings, p.turn, 10) for p in pos))
    deep.write_text("".join(line % (p.black, p.white, p.kings, p.turn, 99) for p in pos[:10]))
    data = script.load_positions([str(deep)], np, check_share=0.3, twins=[str(twin)])
    held = {int(b) for b, c in zip(data["black"], data["check"]) if c}
    assert len(held) == 3 and data["primary"][:10].all() and not data["primary"][10:].any()
    assert (data["score"][data["primary"]] == 99).all() and (data["score"][~data["primary"]] == 10).all()
    twins_trained = {int(b) for b in data["black"][~data["primary"]]}
    assert twins_trained == {p.black for p in pos} - held and not data["check"][10:].any()
    with pytest.raises(ValueError, match="twin"):
        script.load_positions([str(deep)], np, twins=[str(twin), str(twin)])
