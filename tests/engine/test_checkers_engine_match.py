"""scripts/checkers_engine_match.py's summary of games written by several runs."""

from __future__ import annotations

import json

from checkers_support import load_script


def game(number: int, ballot: str, ours_black: bool, score: float) -> str:
    return json.dumps({"game": number, "ballot": ballot.split(), "ours_black": ours_black, "score": score,
                       "reason": "test", "moves": [], "log": []}) + "\n"


def test_the_summary_counts_every_game_of_runs_that_share_ballots(tmp_path, capsys):
    # Two seeds' matches draw some of the same ballots: the summary kept one game per ballot
    # and colour, so 374 games of four seeds were summed as 236.
    script = load_script("checkers_engine_match")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(game(1, "9-14 22-17 11-15", True, 1.0) + game(2, "9-14 22-17 11-15", False, 0.5)
                 + game(3, "11-15 23-19 9-14", True, 0.0))
    b.write_text(game(1, "9-14 22-17 11-15", True, 1.0) + game(2, "9-14 22-17 11-15", False, 1.0))
    assert script.main(["--summary", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "| 9-14 22-17 11-15 | W, W | D, W |" in out
    assert "| 11-15 23-19 9-14 | L | – |" in out
    assert "tui-games 3-1-1 vs the opponent: score 70.0% ± " in out and "(5 games)" in out


def test_the_score_line_gives_the_elo_interval():
    script = load_script("checkers_engine_match")
    line = script.score_line([1.0] * 63 + [0.5] * 120 + [0.0] * 17, "main")
    assert line == "tui-games 63-120-17 vs main: score 61.5% ± 4.1 (200 games), Elo +81 (+52 … +112)"
    assert script.score_line([], "x") == "tui-games 0-0-0 vs x: no games"
    assert "Elo +inf" in script.score_line([1.0, 1.0], "x")
