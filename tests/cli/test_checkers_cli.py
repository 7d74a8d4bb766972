"""``tui-games checkers moves/perft/play`` and ``bench checkers``: output formats, FEN forms,
one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest
from cli_support import assert_usage_error, run

from tui_games.bench import checkers as bench_checkers

pytestmark = pytest.mark.usefixtures("home")  # never the user's real data directory


# -- moves ----------------------------------------------------------------------------------------------


def test_moves_from_the_start(capsys):
    code, out, err = run(capsys, "checkers", "moves", "start")
    assert code == 0 and err == ""
    assert sorted(out.split()) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])


def test_moves_full_capture_paths_and_fen_forms(capsys):
    for fen in ("B:W10,18,19,26,27:B6", '[FEN "B:W10,18,19,26,27:B6"]', "B:B6:W10,18-19,26-27"):
        code, out, _ = run(capsys, "checkers", "moves", fen)
        assert code == 0
        assert sorted(out.splitlines()) == ["6x15x22x31", "6x15x24x31"]


def test_moves_after_moves_and_json(capsys):
    code, out, _ = run(capsys, "checkers", "moves", "start", "11-15", "23-19", "--json")
    record = json.loads(out)
    assert code == 0 and record["fen"].startswith("B:") and "8-11" in record["moves"]
    assert record["game_over"] is None
    code, out, _ = run(capsys, "checkers", "moves", "W:W29:B25,22", "--json")
    assert json.loads(out)["moves"] == [] and "Black wins" in json.loads(out)["game_over"]
    code, out, _ = run(capsys, "checkers", "moves", "W:W29:B25,22")
    assert code == 0 and out == ""


@pytest.mark.parametrize("argv, fragment", [
    (("checkers", "moves", "B:W21:X1"), "bad FEN 'B:W21:X1': colour list 'X1'"),
    (("checkers", "moves", "Q:W21:B1"), "side to move 'Q'"),
    (("checkers", "moves", "B:W21,40:B1"), "square 40 is not 1-32"),
    (("checkers", "moves", "start", "11-14"), "move '11-14' is not legal here"),
    (("checkers", "moves", "start", "11to15"), "bad move '11to15'"),
    (("checkers", "play", "start", "22-18"), "not Black's"),
    (("checkers", "perft", "nonsense", "3"), "bad FEN 'nonsense'"),
    (("checkers", "perft", "start", "0"), "must be at least 1"),
    (("checkers", "perft", "start", "x"), "not a whole number"),
    (("checkers", "play", "start", "--seconds", "-1"), "positive number of seconds"),
    (("checkers", "frobnicate"), "invalid choice"),
])
def test_usage_errors_are_one_line(capsys, argv, fragment):
    assert_usage_error(*run(capsys, *argv), fragment)


# -- perft ----------------------------------------------------------------------------------------------


def test_perft(capsys):
    code, out, err = run(capsys, "checkers", "perft", "start", "5")
    assert code == 0 and out == "7361\n" and err == ""
    code, out, _ = run(capsys, "checkers", "perft", "B:W14,15,22,23:BK10", "1")
    assert out == "2\n"  # the king's two ways round


def test_perft_divide(capsys):
    code, out, _ = run(capsys, "checkers", "perft", "start", "3", "--divide")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "total 302" and len(lines) == 8
    counts = dict(line.split() for line in lines[:-1])
    assert counts["9-13"] == "48" and sum(map(int, counts.values())) == 302
    code, out, _ = run(capsys, "checkers", "perft", "start", "2", "--divide", "--json")
    record = json.loads(out)
    assert record["nodes"] == 49 and record["depth"] == 2 and sum(record["divide"].values()) == 49


# -- play -----------------------------------------------------------------------------------------------


def test_play_by_depth(capsys):
    code, out, err = run(capsys, "checkers", "play", "B:W18:B14,1", "--depth", "3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "move: 14x23"
    assert lines[1].startswith("score: +")
    assert lines[2].startswith("note: ") and lines[3].startswith("pv: 14x23")
    assert "nodes" in lines[4]


def test_play_json_and_game_over(capsys):
    code, out, _ = run(capsys, "checkers", "play", "start", "--seconds", "0.3", "--seed", "1", "--json")
    record = json.loads(out)
    assert code == 0
    assert record["move"] in ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
    assert record["pv"][0] == record["move"] and record["depth"] >= 1 and record["nodes"] > 0
    assert set(record) == {"fen", "move", "score", "depth", "seldepth", "pv", "nodes", "seconds", "note",
                           "database", "book"}
    code, out, _ = run(capsys, "checkers", "play", "W:W29:B25,22")
    assert code == 0 and "game is over" in out and "Black wins" in out


# -- bench ----------------------------------------------------------------------------------------------


def test_bench_checkers_quick(capsys, monkeypatch):
    monkeypatch.setattr(bench_checkers, "ENGINE_SECONDS", 0.05)
    code, out, err = run(capsys, "bench", "checkers", "--quick")
    assert code == 0 and err == ""
    assert out.startswith("machine: ")
    assert "WRONG" not in out and out.count(" ok") == 7
    assert "Engine" in out and "Generic search" in out
    if bench_checkers.COMPILED:  # the network evaluation's cost per node, beside the default's
        assert "compiled core (C), network evaluation" in out
        assert out.count("mean depth") == 3
    assert "179,740" in out  # perft 7
    code, out, err = run(capsys, "bench", "checkers", "--node-limit", "5")
    assert_usage_error(code, out, err, "--node-limit does not apply to the checkers benchmark")


AFTER_11_15 = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"


def test_a_book_file_is_read_over_the_shipped_book_by_play_and_the_engine(capsys, monkeypatch, tmp_path):
    book = tmp_path / "masters.txt"
    book.write_text(f"# a test book\n{AFTER_11_15} 21-17  # made up for the test\n")
    code, out, _ = run(capsys, "checkers", "play", "start", "11-15", "--book-file", str(book), "--json")
    assert code == 0 and json.loads(out)["move"] == "21-17" and json.loads(out)["book"] is True
    code, out, _ = run(capsys, "checkers", "engine", "--book-file", str(book), "--no-database",
                       stdin="new\nmove 11-15\ngo 0.5\nquit\n", monkeypatch=monkeypatch)
    assert code == 0 and out.splitlines()[-1].startswith("bestmove 21-17 ") and out.splitlines()[-1].endswith(" book")


@pytest.mark.parametrize(("text", "fragment"), [
    (None, "No such file or directory"),
    (f"{AFTER_11_15} 11-16\n", "line 1"),
    ("B:W21:B1\n", "line 1"),
])
def test_a_bad_book_file_is_one_line_naming_it(capsys, tmp_path, text, fragment):
    book = tmp_path / "book.txt"
    if text is not None:
        book.write_text(text)
    code, out, err = run(capsys, "checkers", "play", "start", "--book-file", str(book))
    assert_usage_error(code, out, err, fragment)
    assert str(book) in err
    code, out, err = run(capsys, "checkers", "play", "start", "--book-file", str(book), "--no-book")
    assert_usage_error(code, out, err, "--book-file and --no-book exclude each other")
