"""``tui-games analyse``: the review printed and as JSON, every game's notation read (Connect-4's
digits, tic-tac-toe's cells, checkers' PDN), the record written with --export read back, and
bad input as one line naming what and where."""

from __future__ import annotations

import json

import pytest
from cli_support import assert_usage_error, run

from tui_games.engine.records import RecordError, read_record, write_record

pytestmark = pytest.mark.usefixtures("home")

GAME = "4453356342"  # labelled by BitBully (tests/engine/test_analysis.py): ?? on plies 3, 6-10


def test_connect4_review_marks_the_thrown_results(capsys):
    code, out, err = run(capsys, "analyse", "connect4", GAME)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[2].split()[:4] == ["3.", "X", "5", "??"] and lines[2].endswith("best 4")
    assert "win in 39 -> loss in 37" in lines[2]
    assert [line.split()[3] == "??" for line in lines[:10]] == [False, False, True, False, False,
                                                                True, True, True, True, True]
    assert lines[10].startswith("X: 3 blunders (??)") and "results given away 5" in lines[10]


def test_json_has_moves_and_a_summary_per_side(capsys):
    code, out, _ = run(capsys, "analyse", "connect4", GAME, "--json")
    record = json.loads(out)
    assert code == 0 and record["game"] == "connect4" and len(record["moves"]) == 10
    third = record["moves"][2]
    assert {k: third[k] for k in ("ply", "move", "mark", "best", "before", "after")} == {
        "ply": 3, "move": "5", "mark": "??", "best": "4", "before": "win in 39", "after": "loss in 37"}
    assert record["summary"]["X"]["blunders"] == 3 and record["summary"]["O"]["blunders"] == 3
    assert {"mistakes", "blunders", "average_loss"} <= set(record["summary"]["X"])
    assert isinstance(record["cpu_seconds"], float)


def test_tictactoe_cells_and_its_variant_options(capsys):
    # O's a2 lets X fork; the rest holds.
    code, out, _ = run(capsys, "analyse", "tictactoe", "b2 a1 c3 a2 a3", "--json")
    marks = {m["ply"]: m["mark"] for m in json.loads(out)["moves"]}
    assert code == 0 and marks[4] == "??" and [marks[p] for p in (1, 2, 3, 5)] == [None, None, None, None]
    code, out, _ = run(capsys, "analyse", "tictactoe", "a1 b2", "--size", "4x4", "--k", "3", "--json")
    assert code == 0 and json.loads(out)["variant"] == {"rows": 4, "cols": 4, "k": 3, "misere": False}


def test_checkers_pdn_and_plain_movetext(capsys, tmp_path):
    pdn = tmp_path / "game.pdn"
    pdn.write_text('[Event "t"]\n[Black "a"]\n[White "b"]\n[Result "*"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n')
    code, out, _ = run(capsys, "analyse", "checkers", str(pdn), "--seconds", "0.05", "--json")
    moves = json.loads(out)["moves"]
    assert code == 0 and [m["move"] for m in moves] == ["11-15", "23-19", "8-11", "22-17"]
    code, out, _ = run(capsys, "analyse", "checkers", "11-15 23-19", "--seconds", "0.05", "--json")
    assert code == 0 and len(json.loads(out)["moves"]) == 2


@pytest.mark.parametrize("game, moves", [("connect4", GAME), ("tictactoe", "b2 a1 c3 a2 a3")])
def test_export_then_analyse_the_record_again(capsys, tmp_path, game, moves):
    path = tmp_path / "reviewed.txt"
    code, first, _ = run(capsys, "analyse", game, moves, "--export", str(path), "--json")
    assert code == 0
    text = path.read_text()
    assert text.startswith(f'[Game "{game}"]') and "{??" in text
    record = read_record(text)
    assert record.moves == [m["move"] for m in json.loads(first)["moves"]]
    code, again, _ = run(capsys, "analyse", game, str(path), "--json")
    assert code == 0 and json.loads(again)["moves"] == json.loads(first)["moves"]


def test_a_checkers_export_is_pdn_and_reads_back(capsys, tmp_path):
    from tui_games.engine.checkers.pdn import read_pdn_game

    source = tmp_path / "game.pdn"
    source.write_text('[Event "club"]\n[Black "ann"]\n[White "bo"]\n[Result "*"]\n\n'
                      '1. 11-15 23-19 2. 8-11 22-17 3. 11-16 24-20 *\n')
    path = tmp_path / "reviewed.pdn"
    code, first, _ = run(capsys, "analyse", "checkers", str(source), "--seconds", "0.05", "--export", str(path),
                         "--json")
    assert code == 0
    text = path.read_text()
    # PDN proper, as other checkers programs read it: its tags, the marks and scores as comments.
    pdn = read_pdn_game(text)
    assert pdn.tags["GameType"] == "21" and (pdn.tags["Black"], pdn.tags["White"]) == ("ann", "bo")
    assert pdn.tags["Event"] == "club" and [str(m) for m in pdn.moves] == [m["move"] for m in json.loads(first)["moves"]]
    code, again, _ = run(capsys, "analyse", "checkers", str(path), "--seconds", "0.05", "--json")
    assert code == 0 and [m["move"] for m in json.loads(again)["moves"]] == [m["move"] for m in json.loads(first)["moves"]]
    # From a position of its own: SetUp and FEN, as PDN says.
    fen = "W:WK19,K26:BK3,12"
    code, _, _ = run(capsys, "analyse", "checkers", f'[FEN "{fen}"]\n[Black "ann"]\n[White "bo"]\n\n1... 26-22 *\n',
                     "--seconds", "0.05", "--export", str(path))
    text = path.read_text()
    pdn = read_pdn_game(text)
    assert code == 0 and pdn.tags["SetUp"] == "1" and pdn.start_fen == fen
    # White moved first here: the record's First, and still PDN's White.
    assert (pdn.tags["Black"], pdn.tags["White"]) == ("ann", "bo") and read_record(text).tags["First"] == "bo"


def test_a_record_round_trips_tags_moves_comments_and_result():
    tags = {"Game": "tictactoe", "Variant": "cols=4 k=3 misere=false rows=4", "First": 'al "x"', "Date": "2026.12.02"}
    text = write_record(tags, ["b2", "a1", "c3"], comments={2: "?? draw -> loss in 3; best c1"}, result="1-0")
    back = read_record(text)
    assert back.moves == ["b2", "a1", "c3"] and back.result == "1-0"
    assert back.comments == {2: "?? draw -> loss in 3; best c1"}
    assert back.tags["First"] == "al 'x'" and back.tags["Variant"] == tags["Variant"]


@pytest.mark.parametrize("text, fragment", [
    ('[Game "connect4"\n\n1. 4 *\n', "line 1: a tag is"),
    ('[Game "connect4"]\n\n1. 4 {unclosed\n', "line 3: a comment opened with { is closed on the same line"),
    ('[Result "1-0"]\n\n1. 4 0-1\n', "the Result tag says 1-0 and the moves end 0-1"),
    ('[Game "connect4"]\n\n1. 4 * 5\n', "line 3: '5' after the result"),
])
def test_a_bad_record_is_one_line_naming_the_line(capsys, tmp_path, text, fragment):
    with pytest.raises(RecordError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        read_record(text)
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, out, err = run(capsys, "analyse", "connect4", str(path))
    assert_usage_error(code, out, err, fragment)


@pytest.mark.parametrize("argv, fragment", [
    (["connect4", "44x"], "MOVES: move 3 ('x'):"),  # moves with a typo, not a name
    # A name that is neither a file nor an archived game, and no moves either, is said so.
    (["connect4", "nosuchgame"], "error: no file or archived game 'nosuchgame', and not moves: move 1 ('n'): "),
    (["tictactoe", "game.txt"], "error: no file or archived game 'game.txt', and not moves: "),
    (["checkers", "games/old.pdn"], "error: no file or archived game 'games/old.pdn', and not moves: "),
    (["connect4", "12121212"], "MOVES: move 8 ('2'): the game was already over"),
    (["tictactoe", "b2 b2"], "MOVES: move 2 ('b2'):"),
    (["sudoku", "1"], "no analysis for sudoku"),
    (["chess", "e4"], "nothing to analyse in 'chess'"),
    (["connect4", ""], "no moves to analyse"),
    (["connect4", "4", "--size", "4x4"], "--size does not apply to connect4"),
])
def test_bad_input_is_one_line(capsys, argv, fragment):
    assert_usage_error(*run(capsys, "analyse", *argv), fragment)


# -- a game of the archive (the Games screen's), by its name ------------------------------------------


def test_an_archived_game_by_its_name_and_who_began_it(capsys, home):
    from tui_games.games import arena_adapter
    from tui_games.ui.archive import record_text
    from tui_games.userdata.store import Store

    store = Store()
    adapter = arena_adapter("connect4")
    start = adapter.start({})
    position, moves = start.copy(), []
    for text in GAME:
        moves.append(adapter.parse_move(position, text))
        position.push(moves[-1])
    name = store.archive_game(record_text("connect4", start, moves, first="me", second="level5", mode="computer",
                                          you=0))
    code, out, _ = run(capsys, "analyse", "connect4", name, "--json")
    assert code == 0 and [m["ply"] for m in json.loads(out)["moves"] if m["mark"] == "??"] == [3, 6, 7, 8, 9, 10]
    # O began this tic-tac-toe game: the archive says so (StartTurn) and the review's sides follow.
    board = arena_adapter("tictactoe").start({})
    board.turn = 1
    name = store.archive_game(record_text("tictactoe", board, [4, 0], first="O player", second="X player",
                                          mode="two players"))
    code, out, _ = run(capsys, "analyse", "tictactoe", name, "--json")
    assert code == 0 and [m["side"] for m in json.loads(out)["moves"]] == [1, 0]
    assert_usage_error(*run(capsys, "analyse", "connect4", "20991231T000000000000-00.txt"),
                       "cannot read the archived game '20991231T000000000000-00.txt'")
    # A Lab game, kept apart (…-lab.txt), by its name too.
    name = store.archive_game(record_text("connect4", start, moves, first="level1", second="level3", mode="lab"),
                              lab=True)
    assert name.endswith("-lab.txt")
    code, out, _ = run(capsys, "analyse", "connect4", name, "--json")
    assert code == 0 and len(json.loads(out)["moves"]) == len(GAME)
