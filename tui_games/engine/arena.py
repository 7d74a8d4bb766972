"""The arena: two players play a series of games of one game, and we count.

Game-agnostic: what a game must offer (how to set up its start, build a player from a spec,
name a move) is its :class:`~tui_games.engine.contracts.ArenaGame`, the adapter each game's package holds;
the game table (``tui_games.games``) says which games have one. :func:`play_game` is the move
loop (the checkers match runner uses it too), :func:`run_arena` the series.

Sides: side 0 moves first in every game (X, Connect-4's first player, checkers' Black). With
``swap`` (the default) the two players change sides after every game, and each pair of games
shares its opening — in checkers one three-move ballot, drawn at random (seeded), played once
with each colour — so neither player is favoured by the start it was dealt. Without ``swap``
player A always plays side 0.

A player is built once per side for the whole series, the way a person plays a match: what a
search keeps between moves (a transposition table, the Connect-4 solver's table) carries from
game to game. With a fixed seed and players whose limits are depths, not seconds, a series is
reproducible move for move; a time budget makes the depth reached depend on the machine.
"""

from __future__ import annotations

import csv
import io
import math
import random
import threading
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Sequence

from tui_games.engine.adapter import Variant
from tui_games.engine.contracts import ArenaGame
from tui_games.engine.game import Outcome
from tui_games.engine.players import Decision, Player, PlayerFailed
from tui_games.engine.tree import TreeRecorder

__all__ = [
    "ArenaConfig",
    "ArenaResult",
    "GameRecord",
    "GameStopped",
    "IllegalMove",
    "PlayedGame",
    "SideStats",
    "Standing",
    "TournamentResult",
    "elo_estimates",
    "pair_seed",
    "play_game",
    "round_robin",
    "tournament_configs",
    "run_arena",
]

ADJUDICATED = "adjudicated"
# How a game ends when a player could not give a move (PlayerFailed): it loses.
FORFEIT = "forfeit"

# Builds a player from a spec, as ArenaGame.make_player does (the bots package's factory also
# takes files: tui_games.bots.player_factory).
PlayerFactory = Callable[..., Player]


class GameStopped(Exception):
    """The stop flag was set during a game."""


class IllegalMove(ValueError):
    """A player chose a move that is not legal (a bug in that player)."""


# -- one game -----------------------------------------------------------------------------------------


@dataclass
class PlayedGame:
    """A game played out: the final position, and per move its maker's time, nodes and note."""

    position: Any
    moves: list[Any]
    # None when the game was adjudicated at the ply limit.
    outcome: Outcome | None
    move_seconds: list[float] = field(default_factory=list)
    move_nodes: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Why the loser forfeited (PlayerFailed's one line), when it did.
    forfeit: str | None = None

    @property
    def reason(self) -> str:
        return ADJUDICATED if self.outcome is None else self.outcome.reason

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner


def play_game(players: Sequence[Player], start: Any, *, max_plies: int | None = None,
              stop: threading.Event | None = None,
              on_move: Callable[[Any, Any], None] | None = None,
              on_tree: Callable[[Any, Player, Decision, TreeRecorder], None] | None = None) -> PlayedGame:
    """Play from ``start`` (not changed) until the rules end the game or it has ``max_plies``
    plies in its history; ``players[side]`` moves for ``side``.

    A stop flag set before a move, or while a player thinks (its search returns at once with
    a move it did not finish choosing), raises :class:`GameStopped`: a game cut short is no
    result. ``on_move(position, move)`` runs after each move. A player that raises
    :class:`PlayerFailed` loses the game (``reason`` "forfeit", ``forfeit`` its line).
    ``on_tree(position before, player, decision, recorder)``, if given, gets each move's
    recorded search tree (``arena --tree``); without it no player records anything.
    """
    pos = start.copy()
    played = PlayedGame(pos, [], None)
    while True:
        outcome = pos.outcome()
        if outcome is not None:
            played.outcome = outcome
            return played
        if max_plies is not None and len(pos.history) >= max_plies:
            return played
        if stop is not None and stop.is_set():
            raise GameStopped
        player = players[pos.turn]
        began = time.perf_counter()
        recorder = TreeRecorder() if on_tree is not None else None
        try:
            decision = player.choose(pos, stop=stop, recorder=recorder)
        except PlayerFailed as failed:
            if stop is not None and stop.is_set():
                raise GameStopped from None
            played.outcome = Outcome(1 - pos.turn, FORFEIT)
            played.forfeit = str(failed)
            return played
        seconds = time.perf_counter() - began
        if stop is not None and stop.is_set():
            raise GameStopped
        if decision.move is None or decision.move not in pos.legal_moves():
            raise IllegalMove(f"{player.name} chose {decision.move} in {pos}, not a legal move")
        if on_tree is not None and recorder is not None:
            on_tree(pos.copy(), player, decision, recorder)
        pos.push(decision.move)
        played.moves.append(decision.move)
        played.move_seconds.append(seconds)
        played.move_nodes.append(decision.result.stats.nodes if decision.result is not None else 0)
        played.notes.append(decision.note)
        if on_move is not None:
            on_move(pos, decision.move)


# -- a series ---------------------------------------------------------------------------------------


@dataclass
class ArenaConfig:
    """What to play: ``games`` games of ``game`` between the player specs ``a`` and ``b``.

    ``seconds`` is the budget per move of the players that take one (perfect, strong) unless
    a spec names its own (``perfect@1``); ``variant`` the game's options (board size, rules);
    ``start`` a position in the game's notation to play every game from, instead of the
    game's usual start (checkers: the ballots).
    """

    game: str
    a: str
    b: str
    games: int
    swap: bool = True
    seed: int | None = None
    seconds: float | None = None
    variant: Variant = field(default_factory=dict)
    start: str | None = None

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")


@dataclass
class GameRecord:
    """One finished game of a series, in the game's own notation (JSON-ready)."""

    number: int  # 1-based
    a_side: int  # the side player A played: 0 moves first
    opening: str  # where the game began ("ballot 012 (…)"), "" for the usual start
    start: str  # the start position in the game's notation
    start_turn: int  # the side to move at the start
    moves: list[str]
    winner: str | None  # "a", "b" or None for a draw
    reason: str  # how the game ended ("adjudicated" at the ply limit)
    seconds: float
    move_seconds: list[float]
    move_nodes: list[int]
    notes: list[str]
    # The loser's reason when it forfeited (a bot file that failed), else None.
    forfeit: str | None = None

    @property
    def plies(self) -> int:
        return len(self.moves)

    def mover(self, ply: int) -> str:
        """"a" or "b": who made move ``ply`` (0-based); the sides alternate in every game here."""
        side = (self.start_turn + ply) % 2
        return "a" if side == self.a_side else "b"

    def side_moves(self, who: str) -> list[int]:
        """The indices of the moves ``who`` ("a" or "b") made."""
        return [i for i in range(len(self.moves)) if self.mover(i) == who]

    @property
    def result(self) -> str:
        """From A's side: "win", "draw" or "loss"."""
        return {"a": "win", "b": "loss", None: "draw"}[self.winner]

    def to_dict(self, *, with_notes: bool = True) -> dict[str, Any]:
        data = asdict(self)
        if not with_notes:
            data["notes"] = []
        data["plies"] = self.plies
        data["move_seconds"] = [round(s, 6) for s in self.move_seconds]
        data["seconds"] = round(self.seconds, 6)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameRecord":
        fields = {k: data[k] for k in cls.__dataclass_fields__ if k not in ("notes", "forfeit")}
        return cls(**fields, notes=list(data.get("notes") or []), forfeit=data.get("forfeit"))


@dataclass
class SideStats:
    """One player's tally over a series."""

    games: int = 0
    first: int = 0  # games played as side 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_first: int = 0
    wins_second: int = 0
    moves: int = 0
    seconds: float = 0.0
    nodes: int = 0

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0

    @property
    def nodes_per_move(self) -> float:
        return self.nodes / self.moves if self.moves else 0.0

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games if self.games else 0.0


@dataclass
class ArenaResult:
    """A series played (or cut short: ``cancelled``), with everything needed to replay it."""

    config: ArenaConfig
    game_title: str
    side_names: tuple[str, str]
    a_name: str
    b_name: str
    # The seed actually used (drawn at random when the config has none), so any run repeats.
    seed: int
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False
    finished_at: str = ""

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def a_wins(self) -> int:
        return sum(r.winner == "a" for r in self.records)

    @property
    def b_wins(self) -> int:
        return sum(r.winner == "b" for r in self.records)

    @property
    def draws(self) -> int:
        return sum(r.winner is None for r in self.records)

    @property
    def adjudicated(self) -> int:
        return sum(r.reason == ADJUDICATED for r in self.records)

    @property
    def forfeits(self) -> list[GameRecord]:
        """The games a player lost by failing to give a move (a bot file)."""
        return [r for r in self.records if r.forfeit is not None]

    @property
    def average_plies(self) -> float:
        return sum(r.plies for r in self.records) / len(self.records) if self.records else 0.0

    def side(self, who: str) -> SideStats:
        """The tally of player ``who`` ("a" or "b")."""
        stats = SideStats()
        for record in self.records:
            side = record.a_side if who == "a" else 1 - record.a_side
            stats.games += 1
            stats.first += side == 0
            if record.winner == who:
                stats.wins += 1
                if side == 0:
                    stats.wins_first += 1
                else:
                    stats.wins_second += 1
            elif record.winner is None:
                stats.draws += 1
            else:
                stats.losses += 1
            for i in record.side_moves(who):
                stats.moves += 1
                stats.seconds += record.move_seconds[i]
                stats.nodes += record.move_nodes[i]
        return stats

    def summary(self) -> str:
        text = (f"{self.a_name} (A) vs {self.b_name} (B): A won {self.a_wins}, drew {self.draws}, "
                f"B won {self.b_wins} of {self.games} games")
        if self.cancelled:
            text += f" (cancelled after {self.games} of {self.config.games})"
        return text

    def to_dict(self, *, with_games: bool = True, with_notes: bool = True) -> dict[str, Any]:
        """The JSON form (``tui-games arena --json``, the store's ``arena.json``, which leaves
        out the players' notes: a line a move would make the file grow fast)."""
        a, b = self.side("a"), self.side("b")
        data: dict[str, Any] = {
            "game": self.config.game,
            "title": self.game_title,
            "variant": dict(self.config.variant),
            "a": self.config.a,
            "b": self.config.b,
            "a_name": self.a_name,
            "b_name": self.b_name,
            "games": self.games,
            "a_wins": self.a_wins,
            "draws": self.draws,
            "b_wins": self.b_wins,
            "seconds": round(self.seconds, 3),
            "requested": self.config.games,
            "cancelled": self.cancelled,
            "seed": self.seed,
            "swap": self.config.swap,
            "seconds_per_move_limit": self.config.seconds,
            "start": self.config.start,
            "side_names": list(self.side_names),
            "adjudicated": self.adjudicated,
            "forfeits": len(self.forfeits),
            "average_plies": round(self.average_plies, 2),
            "a_seconds_per_move": round(a.seconds_per_move, 6),
            "b_seconds_per_move": round(b.seconds_per_move, 6),
            "a_nodes_per_move": round(a.nodes_per_move, 1),
            "b_nodes_per_move": round(b.nodes_per_move, 1),
            "finished_at": self.finished_at,
        }
        if with_games:
            data["game_list"] = [r.to_dict(with_notes=with_notes) for r in self.records]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ArenaResult":
        """Back from :meth:`to_dict` (KeyError/TypeError/ValueError if it is not one)."""
        config = ArenaConfig(data["game"], data["a"], data["b"], max(1, int(data.get("requested", data["games"]))),
                             bool(data.get("swap", True)), data.get("seed"), data.get("seconds_per_move_limit"),
                             dict(data.get("variant") or {}), data.get("start"))
        result = cls(config, data.get("title", data["game"]), tuple(data.get("side_names", ("first", "second"))),
                     data["a_name"], data["b_name"], int(data.get("seed") or 0),
                     [GameRecord.from_dict(g) for g in data.get("game_list", [])], float(data["seconds"]),
                     bool(data.get("cancelled", False)), str(data.get("finished_at", "")))
        return result

    def csv_text(self) -> str:
        """One line per game: who played which side, the result, length, time and nodes per
        move of each player, and the moves."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["game", "number", "a", "b", "a_side", "opening", "start", "result", "winner", "reason",
                         "plies", "seconds", "a_moves", "a_seconds_per_move", "a_nodes_per_move", "b_moves",
                         "b_seconds_per_move", "b_nodes_per_move", "moves"])
        for r in self.records:
            row = [self.config.game, r.number, self.a_name, self.b_name, self.side_names[r.a_side], r.opening,
                   r.start, r.result, {"a": "A", "b": "B", None: "draw"}[r.winner], r.reason, r.plies,
                   f"{r.seconds:.4f}"]
            for who in ("a", "b"):
                idx = r.side_moves(who)
                secs = sum(r.move_seconds[i] for i in idx)
                nodes = sum(r.move_nodes[i] for i in idx)
                row += [len(idx), f"{secs / len(idx):.6f}" if idx else "", f"{nodes / len(idx):.1f}" if idx else ""]
            row.append(" ".join(r.moves))
            writer.writerow(row)
        return out.getvalue()


def _seed_for(rng: random.Random) -> int:
    return rng.randrange(2**32)


def run_arena(game: ArenaGame, config: ArenaConfig, *, openings: Sequence[tuple[str, Any]] | None = None,
              stop: threading.Event | None = None,
              on_game: Callable[[GameRecord, ArenaResult], None] | None = None,
              on_move: Callable[[int, int], None] | None = None,
              make_player: PlayerFactory | None = None,
              on_tree: Callable[[Any, Player, Decision, TreeRecorder], None] | None = None) -> ArenaResult:
    """Play the series ``config`` asks for and return the result.

    ``openings``: (label, position) starts to draw from (checkers: the ballots), one per pair
    of games with ``swap``, one per game without; ignored when the config names a ``start``.
    ``stop`` ends the series at once: the game in progress is dropped and the result, marked
    ``cancelled``, holds the games finished. ``on_game(record, result so far)`` runs after
    every game, ``on_move(game number, plies so far)`` after every move, ``on_tree`` as
    :func:`play_game`'s (each move's search tree). A bad spec, variant or start raises
    ValueError before the first move. ``make_player`` builds the players
    (``game.make_player`` by default; ``tui_games.bots.player_factory`` adds bot files);
    each is closed when the series ends.
    """
    seed = config.seed if config.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    factory = make_player if make_player is not None else game.make_player
    players: dict[str, Player] = {}
    try:
        for who, spec in (("a", config.a), ("b", config.b)):
            players[who] = factory(spec, seed=_seed_for(rng), seconds=config.seconds, variant=config.variant)
        return _play_series(game, config, seed, rng, players, openings, stop, on_game, on_move, on_tree)
    finally:
        for player in players.values():
            player.close()


def _play_series(game: ArenaGame, config: ArenaConfig, seed: int, rng: random.Random, players: dict[str, Player],
                 openings: Sequence[tuple[str, Any]] | None, stop: threading.Event | None,
                 on_game: Callable[[GameRecord, ArenaResult], None] | None,
                 on_move: Callable[[int, int], None] | None,
                 on_tree: Callable[[Any, Player, Decision, TreeRecorder], None] | None) -> ArenaResult:
    fixed = game.start(config.variant, config.start)
    deck: list[tuple[str, Any]] = []
    if config.start is None and openings:
        deck = list(openings)
        rng.shuffle(deck)
    result = ArenaResult(config, game.title, game.side_names, players["a"].name, players["b"].name, seed)
    began = time.perf_counter()
    opening, start = "", fixed
    for index in range(config.games):
        pair, second_of_pair = divmod(index, 2) if config.swap else (index, 0)
        if deck and not second_of_pair:
            # Cycle through the shuffled deck: every opening once before any comes back.
            opening, start = deck[pair % len(deck)]
        a_side = second_of_pair if config.swap else 0
        by_side = (players["a"], players["b"]) if a_side == 0 else (players["b"], players["a"])
        number = index + 1

        def moved(pos: Any, move: Any, number: int = number, before: int = len(start.history)) -> None:
            assert on_move is not None  # only passed on when there is one
            on_move(number, len(pos.history) - before)

        began_game = time.perf_counter()
        try:
            played = play_game(by_side, start, max_plies=game.max_plies, stop=stop,
                               on_move=moved if on_move is not None else None, on_tree=on_tree)
        except GameStopped:
            result.cancelled = True
            break
        texts = _move_texts(game, start, played.moves)
        winner = None if played.winner is None else ("a" if played.winner == a_side else "b")
        record = GameRecord(number, a_side, opening, game.format(start), start.turn, texts, winner, played.reason,
                            time.perf_counter() - began_game, played.move_seconds, played.move_nodes, played.notes,
                            played.forfeit)
        result.records.append(record)
        result.seconds = time.perf_counter() - began
        if on_game is not None:
            on_game(record, result)
        if stop is not None and stop.is_set() and index + 1 < config.games:
            result.cancelled = True
            break
    result.seconds = time.perf_counter() - began
    result.finished_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return result


def _move_texts(game: ArenaGame, start: Any, moves: list[Any]) -> list[str]:
    """Each move named in the game's notation, in the position it was played from."""
    pos = start.copy()
    texts = []
    for move in moves:
        texts.append(game.move_text(pos, move))
        pos.push(move)
    return texts


def replay_positions(game: ArenaGame, record: GameRecord, variant: Variant) -> list[Any]:
    """The position before the first move and after every move of ``record`` (ValueError if
    a move does not parse: a record edited by hand, or from another version)."""
    pos = game.start(variant, record.start)
    if pos.turn != record.start_turn:  # tic-tac-toe's notation does not say who moves
        pos.turn = record.start_turn
    positions = [pos.copy()]
    for text in record.moves:
        pos.push(game.parse_move(pos, text))
        positions.append(pos.copy())
    return positions


# -- a round robin -------------------------------------------------------------------------------------

# Elo's scale: 400 points are a factor of ten in the odds.
ELO_SCALE = 400 / math.log(10)
# The Elo estimate's prior: each player is given this many virtual draws against an average
# player (rating 0), so that a player who won or lost everything still has a finite estimate.
PRIOR_DRAWS = 1.0


def round_robin(count: int) -> list[tuple[int, int]]:
    """Every pair (i, j), i < j, of ``count`` players, in a fixed order."""
    return [(i, j) for i in range(count) for j in range(i + 1, count)]


def pair_seed(seed: int, pair: int) -> int:
    """The seed of the ``pair``-th series of a tournament seeded ``seed`` (the same whichever
    process plays it)."""
    return random.Random(seed * 1_000_003 + pair).randrange(2**31)


@dataclass
class Standing:
    """One player's line of a tournament's table."""

    spec: str
    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    elo: float = 0.0
    elo_error: float = 0.0

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec, "name": self.name, "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "forfeits": self.forfeits, "score": self.score, "elo": round(self.elo, 1),
                "elo_error": round(self.elo_error, 1)}


def elo_estimates(count: int, results: Sequence[tuple[int, int, float]]) -> list[tuple[float, float]]:
    """(Elo, its standard error) of each of ``count`` players from ``results``: (player, other,
    score of player: 1, 0.5, 0) for every game. The maximum-likelihood ratings of the logistic
    (Bradley-Terry) model with draws as half a win, with :data:`PRIOR_DRAWS` virtual draws
    against an average player each, centred on 0; the error is one standard error from the
    curvature of the likelihood at the estimate."""
    ratings = [0.0] * count
    games: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    for i, j, score in results:
        games[i].append((j, score))
        games[j].append((i, 1 - score))
    curvature = [0.0] * count
    for _ in range(200):
        change = 0.0
        for i in range(count):
            expected = 1 / (1 + math.exp(-ratings[i]))  # against the prior's average player
            gradient = PRIOR_DRAWS * (0.5 - expected)
            hessian = PRIOR_DRAWS * expected * (1 - expected)
            for j, score in games[i]:
                expected = 1 / (1 + math.exp(ratings[j] - ratings[i]))
                gradient += score - expected
                hessian += expected * (1 - expected)
            step = gradient / hessian
            ratings[i] += step
            curvature[i] = hessian
            change = max(change, abs(step))
        if change < 1e-9:
            break
    mean = sum(ratings) / count if count else 0.0
    return [((r - mean) * ELO_SCALE, ELO_SCALE / math.sqrt(h)) for r, h in zip(ratings, curvature)]


@dataclass
class TournamentResult:
    """A round robin played: each pair's series (``ArenaResult``), in :func:`round_robin`'s order."""

    game: str
    title: str
    specs: list[str]
    games_per_pair: int
    seed: int
    series: list[ArenaResult] = field(default_factory=list)
    seconds: float = 0.0
    finished_at: str = ""

    def names(self) -> list[str]:
        names = list(self.specs)
        for (i, j), result in zip(round_robin(len(self.specs)), self.series):
            names[i], names[j] = result.a_name, result.b_name
        return names

    def standings(self) -> list[Standing]:
        """Each player's W/D/L, score and Elo estimate, in the order the players were given."""
        table = [Standing(spec, name) for spec, name in zip(self.specs, self.names())]
        scores: list[tuple[int, int, float]] = []
        for (i, j), result in zip(round_robin(len(self.specs)), self.series):
            for record in result.records:
                score = {"a": 1.0, "b": 0.0, None: 0.5}[record.winner]
                scores.append((i, j, score))
                for who, index in ((i, score), (j, 1 - score)):
                    line = table[who]
                    line.games += 1
                    line.wins += index == 1
                    line.draws += index == 0.5
                    line.losses += index == 0
                if record.forfeit is not None:
                    table[j if record.winner == "a" else i].forfeits += 1
        for line, (elo, error) in zip(table, elo_estimates(len(table), scores)):
            line.elo, line.elo_error = elo, error
        return table

    def cross(self) -> list[list[float | None]]:
        """cross[i][j]: player i's score against player j (None on the diagonal)."""
        count = len(self.specs)
        cells: list[list[float | None]] = [[None if i == j else 0.0 for j in range(count)] for i in range(count)]
        for (i, j), result in zip(round_robin(count), self.series):
            a = result.a_wins + result.draws / 2
            cells[i][j] = a
            cells[j][i] = result.games - a
        return cells

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``tui-games tournament --json``): ``players`` and ``pairs``."""
        pairs = []
        for (i, j), result in zip(round_robin(len(self.specs)), self.series):
            pairs.append({"a": self.specs[i], "b": self.specs[j], "a_name": result.a_name, "b_name": result.b_name,
                          "games": result.games, "a_wins": result.a_wins, "draws": result.draws,
                          "b_wins": result.b_wins, "seed": result.seed,
                          "forfeits": [r.forfeit for r in result.records if r.forfeit is not None],
                          "moves": [r.moves for r in result.records]})
        return {"game": self.game, "title": self.title, "games_per_pair": self.games_per_pair, "seed": self.seed,
                "seconds": round(self.seconds, 3), "finished_at": self.finished_at,
                "players": [line.to_dict() for line in self.standings()], "pairs": pairs}

    def rows(self, *, cross: bool = True) -> tuple[list[str], list[list[str]]]:
        """The table the command line and the Lab show: headers, and a row a player (number,
        name, the crosstable's cells when ``cross``, W, D, L, score, Elo, its error)."""
        standings = self.standings()
        cells = self.cross() if cross else None
        headers = ["#", "player"]
        if cells is not None:
            headers += [str(n) for n in range(1, len(standings) + 1)]
        headers += ["W", "D", "L", "score", "Elo", "±"]
        rows = []
        for n, line in enumerate(standings):
            row = [str(n + 1), line.name]
            if cells is not None:
                row += ["·" if cell is None else f"{cell:g}" for cell in cells[n]]
            row += [str(line.wins), str(line.draws), str(line.losses), f"{line.score:g}", f"{line.elo:+.0f}",
                    f"{line.elo_error:.0f}"]
            rows.append(row)
        return headers, rows

    def forfeit_notes(self) -> list[str]:
        """A line for each player who forfeited games: how many, and the first reason."""
        standings = self.standings()
        first: dict[int, str] = {}
        for (i, j), series in zip(round_robin(len(self.specs)), self.series):
            for record in series.records:
                if record.forfeit is not None:
                    first.setdefault(j if record.winner == "a" else i, record.forfeit)
        notes = []
        for n, reason in sorted(first.items()):
            games = standings[n].forfeits
            notes.append(f"{standings[n].name} forfeited {games} game{'s' if games != 1 else ''}; the first: {reason}")
        return notes

    def saved_runs(self) -> list[dict[str, Any]]:
        """Each series as an arena run (``arena.json``), marked with this tournament."""
        runs = []
        for index, series in enumerate(self.series):
            run = series.to_dict(with_notes=False)
            run["tournament"] = {"seed": self.seed, "players": list(self.specs), "pair": index + 1,
                                 "pairs": len(round_robin(len(self.specs))), "finished_at": self.finished_at}
            runs.append(run)
        return runs


def tournament_configs(game: str, specs: Sequence[str], games: int, seed: int, *, seconds: float | None = None,
                       variant: Variant | None = None) -> list[ArenaConfig]:
    """The series of a round robin of ``specs``, in :func:`round_robin`'s order, each seeded by
    its place (:func:`pair_seed`), sides swapped game by game."""
    return [ArenaConfig(game, specs[i], specs[j], games, True, pair_seed(seed, index), seconds, dict(variant or {}))
            for index, (i, j) in enumerate(round_robin(len(specs)))]
