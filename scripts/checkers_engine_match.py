"""A match of tui-games' checkers engine mode against an outside engine speaking the same lines.

    python scripts/checkers_engine_match.py --opponent PATH/TO/ENGINE --ballots FILE
        [--games 24] [--seconds 0.5] [--seed 1] [--max-plies 200] [--out games.jsonl] [--shard K/N]
    python scripts/checkers_engine_match.py --summary games.jsonl [more.jsonl ...]

Both sides are long-lived processes speaking one command a line (``new FEN``, ``move PATH``,
``moves``, ``go SECONDS`` -> ``bestmove M eval E depth D seldepth S nodes N cpu C``, ``fen``,
``result``, ``quit``): tui-games through ``tui-games checkers engine`` (so its table and history carry
from move to move), the opponent as given (it runs in its own folder). Each side counts
``--seconds`` in CPU seconds of its own search; they never think at the same time.

The ballots: ``--games / 2`` drawn at random (seeded, Python's ``random.sample``) from the
``standard`` lines of FILE (``NUMBER MOVE MOVE MOVE standard``), each played with colours
swapped. A game ends when the side to move has no move (it loses), at a threefold
repetition or by the 40-move rule (draws), when the opponent reports a found win or loss (eval beyond ±1800), or at
``--max-plies``, where a lead of 2 or more (men 1, kings 1.5) wins and less draws. Every move
must be legal for both sides (a disagreement stops the match).

Prints a line per game, a table per ballot, nodes per CPU second and the median depth of
both engines, and the score. ``--shard K/N`` plays only the ballots K, K+N, K+2N, … (from 0)
of the same draw, so N processes can share a match (``--only I,J`` plays just those, ``--colour
white`` only the games where tui-games is White);
``--summary`` prints the table of the games files they wrote.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import statistics
import subprocess
import sys

START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
FOUND = 1800


class LineEngine:
    """A process speaking the line protocol."""

    def __init__(self, command: list[str], cwd: str | None = None) -> None:
        self.name = os.path.basename(command[0])
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().strip()
        if not reply:
            raise SystemExit(f"{self.name} gave no answer to {line!r}")
        return reply

    def moves(self) -> list[str]:
        return self.ask("moves").split()[1:]

    def play(self, move: str) -> None:
        if self.ask("move " + move) != "ok":
            raise SystemExit(f"{self.name} refuses {move}")

    def go(self, seconds: float) -> dict:
        words = self.ask(f"go {seconds}").split()
        info = dict(zip(words[2::2], words[3::2]))
        return {"move": words[1], "eval": int(info.get("eval", 0)), "depth": int(info.get("depth", 0)),
                "nodes": int(info.get("nodes", 0)), "cpu": float(info.get("cpu", 0))}

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        self.proc.wait(10)


def ends_of(path: str) -> tuple[int, int]:
    squares = [int(x) for x in path.replace("x", "-").split("-")]
    return squares[0], squares[-1]


def material_lead(fen: str, black: bool) -> float:
    side = {"B": 0.0, "W": 0.0}
    for part in fen.rstrip(".").split(":")[1:]:
        for sq in filter(None, part[1:].split(",")):
            side[part[0]] += 1.5 if sq.startswith("K") else 1.0
    return side["B"] - side["W"] if black else side["W"] - side["B"]


def play_game(ours: LineEngine, theirs: LineEngine, ballot: list[str], ours_black: bool, seconds: float,
              max_plies: int) -> tuple[float, str, list[str], list[dict]]:
    for engine in (ours, theirs):
        if engine.ask("new " + START) != "ok":
            raise SystemExit(f"{engine.name} refuses the start position")
    moves: list[str] = []
    for text in ballot:  # a ballot may write a capture by its two ends: take the legal path
        path = next((m for m in theirs.moves() if ends_of(m) == ends_of(text)), None)
        if path is None:
            raise SystemExit(f"ballot move {text} is not legal")
        ours.play(path)
        theirs.play(path)
        moves.append(path)
    seen: dict[str, int] = {}
    log: list[dict] = []
    while True:
        fen = theirs.ask("fen").split(" ", 1)[1].rstrip(".")
        seen[fen] = seen.get(fen, 0) + 1
        if seen[fen] >= 3:
            return 0.5, "repetition", moves, log
        black_to_move = fen.startswith("B")
        ours_to_move = black_to_move == ours_black
        legal = theirs.moves()
        our_legal = ours.moves()
        if legal and not our_legal:
            # tui-games' rules also end a game by the 40-move rule (40 moves each without a
            # capture or a man's move, as the ACF's), which the opponent may not know: ours
            # says how it ended.
            words = ours.ask("result").split(maxsplit=2)
            if len(words) < 3 or words[0] != "result" or words[1] != "draw":
                raise SystemExit(f"{ours.name} has no move at {fen} but says {' '.join(words)!r}")
            return 0.5, words[2], moves, log
        if sorted(legal) != sorted(our_legal):
            raise SystemExit(f"the engines disagree on the legal moves at {fen}")
        if not legal:
            return (0.0 if ours_to_move else 1.0), "no moves", moves, log
        if len(moves) >= max_plies:
            lead = material_lead(fen, ours_black)
            return (1.0 if lead >= 2 else 0.0 if lead <= -2 else 0.5), f"adjudicated (lead {lead:+.1f})", moves, log
        reply = (ours if ours_to_move else theirs).go(seconds)
        reply["side"] = "tui-games" if ours_to_move else "opponent"
        log.append(reply)
        if reply["move"] not in legal:
            raise SystemExit(f"{reply['side']} played {reply['move']} at {fen}; legal: {' '.join(legal)}")
        if not ours_to_move and reply["eval"] >= FOUND:
            return 0.0, "opponent found a win", moves + [reply["move"]], log
        if not ours_to_move and reply["eval"] <= -FOUND:
            return 1.0, "opponent found a loss", moves + [reply["move"]], log
        ours.play(reply["move"])
        theirs.play(reply["move"])
        moves.append(reply["move"])


def speed(log: list[dict], side: str) -> tuple[float, float]:
    """Nodes per CPU second and the median depth of one side's searched moves (not the
    forced or instant ones: 10,000 nodes or more)."""
    rows = [r for r in log if r["side"] == side and r["nodes"] >= 10_000]
    cpu = sum(r["cpu"] for r in rows)
    nodes = sum(r["nodes"] for r in rows)
    return (nodes / cpu if cpu else 0.0), (statistics.median(r["depth"] for r in rows) if rows else 0.0)


def score_line(scores: list[float], opponent: str) -> str:
    """W-D-L, the score with its 95% interval (1.96 standard errors of the mean game score)
    and the Elo difference it stands for."""
    n = len(scores)
    w, d, lost = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    line = f"tui-games {w}-{d}-{lost} vs {opponent}"
    if not n:
        return line + ": no games"
    mean = sum(scores) / n
    half = 1.96 * math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)

    def elo(p: float) -> str:
        return "+inf" if p >= 1 else "-inf" if p <= 0 else f"{-400 * math.log10(1 / p - 1):+.0f}"

    return (f"{line}: score {100 * mean:.1f}% ± {100 * half:.1f} ({n} games), "
            f"Elo {elo(mean)} ({elo(mean - half)} … {elo(mean + half)})")


def summarize(per_ballot: dict[str, dict[bool, list[float]]], logs: list[dict], opponent: str) -> None:
    """The table per ballot (tui-games Black, then White; a ballot played more than once, as
    matches of several seeds do, shows each result), speeds and the score of every game."""
    print("\n| ballot | tui-games Black | tui-games White |\n|---|---|---|")
    words = {1.0: "W", 0.5: "D", 0.0: "L"}
    for ballot, scores in per_ballot.items():
        cells = [", ".join(words[s] for s in scores.get(black, [])) or "–" for black in (True, False)]
        print(f"| {ballot} | {cells[0]} | {cells[1]} |")
    for side in ("tui-games", "opponent"):
        nps, depth = speed(logs, side)
        print(f"{side}: {nps / 1e6:.2f} M nodes per CPU second, median depth {depth:g} (moves searched)")
    print(score_line([s for scores in per_ballot.values() for side in scores.values() for s in side], opponent))


def summary_of(paths: list[str]) -> int:
    games = [json.loads(line) for path in paths for line in open(path) if line.strip()]
    games.sort(key=lambda g: g["game"])
    per_ballot: dict[str, dict[bool, list[float]]] = {}
    logs: list[dict] = []
    for g in games:
        per_ballot.setdefault(" ".join(g["ballot"]), {}).setdefault(g["ours_black"], []).append(g["score"])
        logs.extend(g["log"])
    summarize(per_ballot, logs, "the opponent")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--summary":
        return summary_of(argv[1:])
    parser.add_argument("--opponent", required=True, help="the outside engine's program (runs in its folder)")
    parser.add_argument("--ours", default="tui-games checkers engine", help="our engine's command line")
    parser.add_argument("--ballots", required=True, help="the ballot list (NUMBER MOVE MOVE MOVE DECK)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--out", help="write every game (moves, result, each move's numbers) here, JSON lines")
    parser.add_argument("--shard", default="0/1", help="K/N: play only the ballots K, K+N, … of the draw")
    parser.add_argument("--only", default=None, help="I,J,…: play only these ballots of the draw (from 0)")
    parser.add_argument("--colour", choices=("both", "black", "white"), default="both",
                        help="play only the games where tui-games has this colour")
    args = parser.parse_args(argv)
    try:
        shard, shards = (int(x) for x in args.shard.split("/"))
        assert 0 <= shard < shards
    except (ValueError, AssertionError):
        parser.error("--shard is K/N with 0 <= K < N")
    try:
        only = {int(x) for x in args.only.split(",")} if args.only else None
    except ValueError:
        parser.error("--only is a list of ballot numbers in the draw: 0,4,8")
    with open(args.ballots) as f:
        lines = [line.split() for line in f if line.strip() and not line.startswith("#")]
    standard = [words[1:4] for words in lines if words[-1] == "standard"]
    chosen = random.Random(args.seed).sample(standard, (args.games + 1) // 2)
    ours = LineEngine(shlex.split(args.ours))
    opponent_path = os.path.abspath(args.opponent)
    theirs = LineEngine([opponent_path], cwd=os.path.dirname(opponent_path))
    out = open(args.out, "w") if args.out else None
    per_ballot: dict[str, dict[bool, list[float]]] = {}
    logs: list[dict] = []
    try:
        for i in range(args.games):
            if (i // 2) % shards != shard or (only is not None and i // 2 not in only):
                continue
            ballot, ours_black = chosen[i // 2], i % 2 == 0
            if args.colour != "both" and ours_black != (args.colour == "black"):
                continue
            score, reason, moves, log = play_game(ours, theirs, ballot, ours_black, args.seconds, args.max_plies)
            per_ballot.setdefault(" ".join(ballot), {}).setdefault(ours_black, []).append(score)
            logs.extend(log)
            word = {1.0: "win", 0.5: "draw", 0.0: "loss"}[score]
            print(f"game {i + 1}: {' '.join(ballot)}, tui-games {'Black' if ours_black else 'White'}: {word} "
                  f"({reason}, {len(moves)} plies)", flush=True)
            if out:
                out.write(json.dumps({"game": i + 1, "ballot": ballot, "ours_black": ours_black, "score": score,
                                      "reason": reason, "moves": moves, "log": log}) + "\n")
                out.flush()
    finally:
        ours.close()
        theirs.close()
        if out:
            out.close()
    summarize(per_ballot, logs, theirs.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
