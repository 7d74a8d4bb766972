"""``sudoku solve --variant killer|jigsaw`` with both solvers, --stats, --json, --dimacs and
--smt2 files, a bad line named by its line, Z3 missing as one line naming the extra; generate
and bench for the variants."""

from __future__ import annotations

import builtins
import json

import pycosat
import pytest
from cli_support import assert_usage_error, run

from tui_games.commands import sudoku as sudoku_commands
from tui_games.engine.sudoku import smt

pytestmark = pytest.mark.usefixtures("home")

WIKIPEDIA = ("AABBBCDEFGGHHCCDEFGGIICJKKFLMMINJKOFLPPQNJOORSPTQNUVVRSTTQWUUXXSYZWWaaXXSYZWbbbcc "
             "3,15,22,4,16,15,25,17,9,8,20,6,14,17,17,13,20,12,27,6,20,6,10,14,8,16,15,13,17")
SOLUTION = "215647398368952174794381652586274931142593867973816425821739546659428713437165289"
BOXES = "".join(str((r // 3) * 3 + c // 3 + 1) for r in range(9) for c in range(9))
needs_z3 = pytest.mark.skipif(not smt.available(), reason="Z3 (the optional extra 'smt') is not installed")


@pytest.fixture
def killers(tmp_path):
    path = tmp_path / "killers.txt"
    bad_sum = WIKIPEDIA.replace(" 3,", " 2,", 1)
    path.write_text(f"# Wikipedia's, then two bad lines\n{WIKIPEDIA}\n{bad_sum}\n{WIKIPEDIA.split()[0]}\n")
    return path


def test_solve_killer_prints_the_solution_and_names_each_bad_line(capsys, killers):
    code, out, err = run(capsys, "sudoku", "solve", "--variant", "killer", str(killers))
    assert code == 1
    assert out.splitlines() == [
        SOLUTION,
        "# line 3: cage 'A' sums to 2, impossible for 2 cells (different digits make 3 to 17)",
        "# line 4: expected 81 cage labels, a space, then the cage sums, got 1 field",
    ]


@needs_z3
@pytest.mark.parametrize("solver", ["sat", "smt", "auto"])
def test_solve_killer_json_with_each_solver(capsys, monkeypatch, solver):
    code, out, err = run(capsys, "sudoku", "solve", "--variant", "killer", "--solver", solver, "--json", "--stats",
                         "-", stdin=WIKIPEDIA + "\n", monkeypatch=monkeypatch)
    assert code == 0
    record = json.loads(out)
    chosen = "sat" if solver == "auto" else solver
    assert record["solution"] == SOLUTION and record["status"] == "unique" and record["solver"] == chosen
    assert record["variant"] == "killer" and record["puzzle"] == WIKIPEDIA
    if chosen == "smt":
        assert record["assertions"] == 81 + 27 + 2 * 29 and "clauses" not in record
        assert err.startswith("line 1: smt, ") and "81 variables, 166 assertions" in err
    else:
        assert "clauses" in record and err.startswith("line 1: sat, ") and " clauses, " in err


def test_solve_jigsaw_from_stdin(capsys, monkeypatch):
    givens = "." * 81
    code, out, _ = run(capsys, "sudoku", "solve", "--variant", "jigsaw", "--first", "-",
                       stdin=f"{BOXES} {givens}\n{BOXES[:80]}0 {givens}\n", monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert code == 1 and len(lines[0]) == 81 and lines[0].isdigit()
    assert lines[1] == "# line 2: '0' at column 81 is no region digit (1-9)"


def test_dimacs_file_read_back_gives_the_solution(capsys, tmp_path, monkeypatch):
    # A classic puzzle too: --dimacs writes every variant's CNF.
    line = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    cnf = tmp_path / "p.cnf"
    code, out, _ = run(capsys, "sudoku", "solve", "--dimacs", str(cnf), "-", stdin=line + "\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    text = cnf.read_text()
    header = next(row for row in text.splitlines() if row.startswith("p cnf"))
    clauses = [[int(x) for x in row.split()[:-1]] for row in text.splitlines() if row and row[0] not in "cp"]
    assert int(header.split()[3]) == len(clauses) > 0
    model = pycosat.solve(clauses)
    table = {int(v): (name, int(d)) for _, _, v, name, d in
             (row.split() for row in text.splitlines() if row.startswith("c var "))}
    values = {name: int(d) for _, _, name, d in (row.split() for row in text.splitlines() if row.startswith("c fixed "))}
    values.update(table[lit] for lit in model if lit > 0 and lit in table)
    assert "".join(str(values[f"r{r}c{c}"]) for r in range(1, 10) for c in range(1, 10)) == out.strip()


@needs_z3
def test_several_puzzles_write_one_file_each(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{WIKIPEDIA}\n\n{WIKIPEDIA}\n")
    code, _, _ = run(capsys, "sudoku", "solve", "--variant", "killer", "--dimacs", str(tmp_path / "k.cnf"),
                     "--smt2", str(tmp_path / "k.smt2"), str(path))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "two.txt") == [
        "k.line1.cnf", "k.line1.smt2", "k.line3.cnf", "k.line3.smt2"]
    assert "(set-logic QF_LIA)" in (tmp_path / "k.line1.smt2").read_text()


def test_without_z3_the_smt_solver_is_one_line_naming_the_extra(capsys, monkeypatch):
    real_import = builtins.__import__

    def no_z3(name, *args, **kwargs):
        if name == "z3":
            raise ImportError("No module named 'z3'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_z3)
    code, out, err = run(capsys, "sudoku", "solve", "--variant", "killer", "--solver", "smt", "-",
                         stdin=WIKIPEDIA + "\n", monkeypatch=monkeypatch)
    assert_usage_error(code, out, err, "pip install 'tui-games[smt]'")
    # auto falls back to SAT without a word.
    code, out, _ = run(capsys, "sudoku", "solve", "--variant", "killer", "-", stdin=WIKIPEDIA + "\n",
                       monkeypatch=monkeypatch)
    assert code == 0 and out.strip() == SOLUTION


@needs_z3
def test_auto_takes_z3_where_the_table_says_it_is_faster(capsys, monkeypatch):
    """No variant is Z3's today (FASTER); the path is kept for a bench that finds otherwise."""
    monkeypatch.setitem(sudoku_commands.FASTER, "killer", "smt")
    code, out, _ = run(capsys, "sudoku", "solve", "--variant", "killer", "--json", "-", stdin=WIKIPEDIA + "\n",
                       monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["solver"] == "smt" and json.loads(out)["solution"] == SOLUTION
    monkeypatch.setattr(smt, "available", lambda: False)  # and SAT where Z3 is not installed
    code, out, _ = run(capsys, "sudoku", "solve", "--variant", "killer", "--json", "-", stdin=WIKIPEDIA + "\n",
                       monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["solver"] == "sat"


@pytest.mark.parametrize("option", [["--smt2", "k.smt2"], ["--solver", "smt"]])
def test_without_z3_an_smt_option_fails_before_any_output(capsys, monkeypatch, tmp_path, option):
    """A bad line first, a good one after: without Z3 nothing is printed (not the bad line's
    comment nor the first puzzle's solution) nor written before the one-line error."""
    monkeypatch.setattr(smt, "available", lambda: False)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "sudoku", "solve", "--variant", "killer", *option, "-",
                         stdin=f"{WIKIPEDIA.split()[0]}\n{WIKIPEDIA}\n", monkeypatch=monkeypatch)
    assert_usage_error(code, out, err, "pip install 'tui-games[smt]'")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("limit, fragment", [("-1", "'-1': give 0 (all) or a positive number of puzzles"),
                                             ("many", "'many' is not a whole number")])
def test_bench_refuses_a_bad_smt_limit_before_it_starts(capsys, limit, fragment):
    code, out, err = run(capsys, "bench", "sudoku", "--variant", "killer", "--quick", "--smt-limit", limit)
    assert_usage_error(code, out, err, fragment)


def test_diagonal_is_no_killer_option(capsys, killers):
    code, out, err = run(capsys, "sudoku", "solve", "--variant", "killer", "--diagonal", str(killers))
    assert_usage_error(code, out, err, "--diagonal is for the classic grid")


@pytest.mark.parametrize("variant", ["killer", "jigsaw"])
def test_generate_a_variant_then_solve_it(capsys, monkeypatch, variant):
    code, out, err = run(capsys, "sudoku", "generate", "--variant", variant, "--grade", "basic", "--seed", "1",
                         "--stats")
    assert code == 0 and err.startswith("basic ")
    line = out.strip()
    code, solved, _ = run(capsys, "sudoku", "solve", "--variant", variant, "-", stdin=line + "\n",
                          monkeypatch=monkeypatch)
    assert code == 0 and len(solved.strip()) == 81


def test_bench_killer_quick(capsys, monkeypatch):
    monkeypatch.setattr("tui_games.bench.sudoku_variants.QUICK_COUNT", 4)
    code, out, _ = run(capsys, "bench", "sudoku", "--variant", "killer", "--quick", "--smt-limit", "2")
    assert code == 0
    assert "Killer Sudoku: 4 puzzles made from seed 0" in out
    rows = {line.split()[0] + " " + line.split()[1]: line.split() for line in out.splitlines()
            if line.startswith(("sat (", "smt ("))}
    assert rows["sat (combinations)"][2:4] == ["4", "4"] and rows["sat (sums)"][2:4] == ["4", "4"]
    if smt.available():
        assert rows["smt (z3)"][2:4] == ["2", "2"]
    assert "faster: " in out


def test_bench_killer_z3_on_every_puzzle_by_default(capsys, monkeypatch):
    monkeypatch.setattr("tui_games.bench.sudoku_variants.QUICK_COUNT", 3)
    code, out, _ = run(capsys, "bench", "sudoku", "--variant", "killer", "--quick")
    assert code == 0
    if smt.available():
        row = next(line.split() for line in out.splitlines() if line.startswith("smt (z3)"))
        assert row[2:4] == ["3", "3"]


def test_grade_a_killer_with_the_grade_its_collection_has(capsys, monkeypatch):
    from pathlib import Path

    collection = Path(__file__).parents[2] / "puzzles" / "killer_basic.txt"
    line = next(row for row in collection.read_text().splitlines() if row and not row.startswith("#"))
    code, out, _ = run(capsys, "sudoku", "grade", "--variant", "killer", "--json", "-", stdin=line + "\n",
                       monkeypatch=monkeypatch)
    record = json.loads(out)
    assert code == 0 and record["level"] == "basic" and record["puzzle"] == line
