"""scripts/checkers_train_choices.py: the masters' decisions as candidates to rank."""

from __future__ import annotations

import json
import math

import pytest
from checkers_support import load_script

from tui_games.engine.checkers.evaluation import NETWORK
from tui_games.engine.checkers.position import CheckersPosition, generate, has_capture, play


def _board(*moves: str) -> tuple[int, int, int, int]:
    pos = CheckersPosition()
    board = (pos.black, pos.white, pos.kings, pos.turn)
    for text in moves:
        (move,) = [m for m in generate(*board) if str(m) == text]
        board = play(*board, move)
    return board


def _transcript(*moves: str) -> list[str]:
    """Standard moves in the transcripts' 0-31 numbering (checkers_import_games' module doc)."""
    def theirs(square: int) -> str:
        row = (square - 1) // 4
        return str(8 * row + 4 - square)
    return ["-".join(theirs(int(s)) for s in text.replace("x", "-").split("-")) for text in moves]


def test_a_move_that_offers_an_exchange_is_judged_after_it():
    script = load_script("checkers_train_choices")
    quiet = _board("11-15", "23-19", "9-14", "22-17")
    assert script.resolve(quiet) == quiet
    # 12-16 hangs a man: White's 19x12 is forced and Black has no recapture.
    assert script.resolve(_board("11-15", "23-19", "9-14", "22-17", "12-16")) == \
        _board("11-15", "23-19", "9-14", "22-17", "12-16", "19x12")
    # 22-18 offers 15x22, after which White has two ways to take back: the search's business.
    assert script.resolve(_board("11-15", "22-18")) is None


def test_the_masters_decisions_skip_the_ballot_and_the_captures():
    script = load_script("checkers_train_choices")
    line = ("11-15", "23-19", "9-14", "22-17", "12-16", "19x12", "8-11")
    found = script.decisions(_transcript(*line))
    # Plies 0-2 are the ballot and ply 5 (19x12) a forced capture: plies 3, 4 and 6 are decisions.
    assert [mover for _, _, mover in found] == [1, 0, 0]
    candidates, master, _ = found[1]
    before = _board(*line[:4])
    assert len(candidates) == len(generate(*before)) == 7
    assert candidates[master] == _board(*line[:6])
    assert all(not has_capture(*c) for c in candidates)
    with pytest.raises(ValueError):
        script.decisions(_transcript("11-15", "23-19", "11-16"))


@pytest.mark.parametrize("options, named", [
    (["MISSING"], "MISSING: no such file"),
    (["GAMES", "--anchor", "-1"], "--anchor"),
    (["GAMES", "--anchor", "lots"], "--anchor"),
    (["GAMES", "--epochs", "-2"], "--epochs: '-2'"),
    (["GAMES", "--jobs", "0"], "--jobs: '0'"),
    (["GAMES", "--values", "MISSING"], "MISSING: no such file"),
    (["GAMES", "--values", "GAMES", "--mix", "2"], "--mix: 2: wants a number from 0 to 1"),
    (["GAMES", "--value-weight", "-1"], "--value-weight"),
])
def test_bad_options_are_refused_in_one_line_before_any_games_are_read(tmp_path, capsys, options, named):
    script = load_script("checkers_train_choices")
    games = tmp_path / "games.txt"
    games.write_text(" ".join(_transcript("11-15", "23-19")) + "\t1-0\n")
    paths = {"MISSING": str(tmp_path / "MISSING"), "GAMES": str(games)}
    args = [paths.get(option, option) for option in options]
    with pytest.raises(SystemExit) as stop:
        script.main([*args, "--out", str(tmp_path / "fit.json")])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert named in err[-1] and "Traceback" not in "".join(err)
    assert not (tmp_path / "fit.json").exists()


def test_a_fit_of_no_epochs_is_the_warm_network(tmp_path):
    pytest.importorskip("numpy")  # the training's own dependencies, not the project's
    pytest.importorskip("torch")
    script = load_script("checkers_train_choices")
    games = tmp_path / "games.txt"
    lines = [" ".join(_transcript("11-15", "23-19", "9-14", "22-17", "12-16", "19x12", "8-11")) + "\t0-1",
             " ".join(_transcript("9-14", "22-18", "5-9", "24-19", "11-16", "18-15")) + "\t1/2-1/2"]
    games.write_text("\n".join(lines * 20) + "\n")
    out = tmp_path / "fit.json"
    assert script.main([str(games), "--out", str(out), "--warm", "shipped", "--epochs", "0", "--seed", "3"]) == 0
    record = json.loads(out.read_text())
    assert record["games"] == 40 and record["decisions"] > 40
    assert tuple(record["net"]) == NETWORK.weights
    assert record["check_accuracy"]["fit"] == record["check_accuracy"]["warm"]


def _value_games(path, count: int) -> None:
    """Self-play games in checkers_tune.py selfplay's form: quiet positions with a search score."""
    lines = []
    for g in range(count):
        line = ("11-15", "23-19", "9-14", "22-17") if g % 2 else ("9-14", "22-18", "5-9", "24-19")
        kept = [[*_board(*line[:ply]), 10 * ply - 20] for ply in range(len(line) + 1)]
        lines.append(json.dumps({"ballot": "test", "result": [1.0, 0.0, 0.5][g % 3], "positions": kept}))
    path.write_text("\n".join(lines) + "\n")


def test_values_fitted_beside_the_choices(tmp_path, capsys):
    pytest.importorskip("numpy")
    pytest.importorskip("torch")
    script = load_script("checkers_train_choices")
    games = tmp_path / "games.txt"
    games.write_text((" ".join(_transcript("11-15", "23-19", "9-14", "22-17", "12-16", "19x12", "8-11"))
                      + "\t0-1\n") * 20)
    values = tmp_path / "values.jsonl"
    _value_games(values, 60)
    out = tmp_path / "fit.json"
    common = [str(games), "--out", str(out), "--warm", "shipped", "--values", str(values), "--seed", "3"]
    assert script.main([*common, "--epochs", "0"]) == 0
    record = json.loads(out.read_text())
    assert tuple(record["net"]) == NETWORK.weights and record["value_positions"] == 60 * 5
    assert record["check_result_error"]["fit"] == record["check_result_error"]["warm"] > 0
    capsys.readouterr()
    # With the choices' pull and the anchor off, the fit learns the values: their loss falls.
    assert script.main([*common, "--epochs", "3", "--anchor", "0", "--value-weight", "10", "--batch", "4"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("epoch")]
    losses = [float(line.split("value ")[1].split(",")[0]) for line in lines]
    assert len(losses) == 3 and losses[-1] < losses[0]
    assert json.loads(out.read_text())["net"] != list(NETWORK.weights)


def test_fewer_value_positions_than_steps_leave_the_fit_finite(tmp_path, capsys):
    pytest.importorskip("numpy")
    pytest.importorskip("torch")
    script = load_script("checkers_train_choices")
    games = tmp_path / "games.txt"
    games.write_text((" ".join(_transcript("11-15", "23-19", "9-14", "22-17", "12-16", "19x12", "8-11"))
                      + "\t0-1\n") * 20)
    values = tmp_path / "values.jsonl"
    _value_games(values, 2)  # 10 positions, some 50 steps of one decision
    out = tmp_path / "fit.json"
    assert script.main([str(games), "--out", str(out), "--warm", "shipped", "--values", str(values),
                        "--epochs", "1", "--batch", "1"]) == 0
    line = next(line for line in capsys.readouterr().err.splitlines() if line.startswith("epoch"))
    assert math.isfinite(float(line.split("value ")[1].split(",")[0]))


def test_two_plies_judge_a_candidate_by_the_opponents_best_reply():
    script = load_script("checkers_train_choices")
    np = pytest.importorskip("numpy")
    candidate = _board("11-15", "23-19", "9-14", "22-17")
    leaves = script.replies(candidate)
    # Black's replies, each resolved through its forced exchange; one that reaches a choice of
    # captures is left out, as a candidate would be.
    expected = [r for r in (script.resolve(play(*candidate, m)) for m in generate(*candidate)) if r is not None]
    assert leaves == expected and 0 < len(leaves) <= len(generate(*candidate))
    assert all(not has_capture(*leaf) for leaf in leaves)
    # Two decisions (Black's, then White's), candidates of 2 and 1 leaves and 1 and 3 leaves: each
    # candidate is worth its lowest leaf for its mover.
    data = {"mover": np.array([0, 1]), "count": np.array([2, 2]), "leaf_count": np.array([2, 1, 1, 3]),
            "leaf_first": np.array([0, 2, 3, 4]), "first": np.array([0, 2]), "master": np.array([1, 0])}
    scores = np.array([5.0, -3.0, 1.0, 7.0, 2.0, -4.0, 9.0])
    assert script.candidate_values(scores, data, np).tolist() == [-3.0, 1.0, -7.0, -9.0]
    assert script.accuracy(scores, data, np.array([0, 1]), np) == 1.0
    data["master"] = np.array([0, 1])
    assert script.accuracy(scores, data, np.array([0, 1]), np) == 0.0


def test_two_ply_decisions_keep_the_one_ply_ones_and_add_the_replies(tmp_path):
    np = pytest.importorskip("numpy")
    script = load_script("checkers_train_choices")
    games = tmp_path / "games.txt"
    games.write_text(" ".join(_transcript("11-15", "23-19", "9-14", "22-17", "12-16", "19x12", "8-11")) + "\t0-1\n")
    one = script.load_decisions(str(games), np, 0)
    two = script.load_decisions(str(games), np, 0, plies=2)
    assert one["master"].tolist() == two["master"].tolist() and one["count"].tolist() == two["count"].tolist()
    assert one["leaf_count"].tolist() == [1] * len(one["leaf_count"])
    assert len(two["leaf_count"]) == len(one["leaf_count"]) and len(two["turn"]) == int(two["leaf_count"].sum())
    # Each candidate's leaves are the replies from it, in order.
    for c in range(len(one["leaf_count"])):
        board = tuple(int(one[name][c]) for name in ("black", "white", "kings", "turn"))
        lo, n = int(two["leaf_first"][c]), int(two["leaf_count"][c])
        got = [tuple(int(two[name][i]) for name in ("black", "white", "kings", "turn")) for i in range(lo, lo + n)]
        assert got == script.replies(board)


def test_the_fits_scores_are_the_engines_evaluation():
    np = pytest.importorskip("numpy")
    script = load_script("checkers_train_choices")
    from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, make_evaluator

    boards = [_board("11-15", "23-19", "9-14", "22-17"), _board("11-15", "23-19", "9-14", "22-17", "12-16", "19x12"),
              _board("9-14", "22-18", "5-9")]
    data = {name: np.array([b[i] for b in boards], dtype=np.uint32)
            for i, name in enumerate(("black", "white", "kings", "turn"))}
    for net in (None, NETWORK):
        evaluate = make_evaluator(DEFAULT_WEIGHTS, net)
        expected = [evaluate(*b) * (1 if b[3] == 0 else -1) for b in boards]
        assert script.engine_scores(net, data, np.arange(3), np).tolist() == expected
    assert script.engine_scores(NETWORK, data, np.array([1]), np).tolist()[::2] == [0, 0]
