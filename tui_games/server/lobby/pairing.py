"""Tournament pairing and scoring, pure (no server, no storage): Swiss by the FIDE (Dutch)
system's basics, and lichess's arena.

Swiss (FIDE Handbook C.04.1 basic rules, C.04.3 Dutch system):

- players are ranked by score, then pairing number (1 = the highest rated at the start);
- each score group (a bracket: its players and those floated down to it) is split in two, the
  top half S1 against the bottom half S2 in order (1-5, 2-6, 3-7, 4-8 in a bracket of eight);
  when that cannot be (a repeat, two absolute colour preferences alike), S2 is transposed,
  then players float down to the next bracket, the lowest first;
- no two players meet twice; a player's colour difference (whites minus blacks) stays within
  ±2 and nobody has one colour three times running (the absolute preferences, C.04.3 A.6);
- colours (C.04.3 E): both preferences granted if they can be, else the stronger one, else the
  alternation from the last round in which they differed, else the higher ranked player's
  preference, else the initial colour by pairing number (odd: the initial colour);
- an odd number of players: the lowest ranked player of the lowest score group who has had no
  bye is unpaired, and scores a win's point (C.04.1 c, d).

Tiebreaks, in order: Buchholz (the sum of the opponents' scores; a round not played counts as a
virtual opponent who had the player's score before it and drew every round after it, the
FIDE rule for unplayed games), Buchholz cut 1 (without the lowest of those), Sonneborn-Berger
(the scores of the opponents beaten, and half of those drawn), then the pairing number.

Arena (lichess's tournament FAQ): a win scores 2, a draw 1, a loss 0; after two wins in a row
a player is on fire and each game is worth double until one is not won; a berserk player (half
their clock) who wins with at least BERSERK_MOVES moves of their own gets one point more. A
player who finishes a game is paired again with someone waiting, the nearest in the standings,
never their last opponent while another could yet come.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterator, Sequence

WHITE, BLACK = "W", "B"
BERSERK_MOVES = 7
SEARCH_BUDGET = 20_000  # Dutch candidates tried before the plain backtracking search takes over
BACKTRACK_BUDGET = 200_000  # ... and its tries, past which the round is not paired


# -- Swiss ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissPlayer:
    """One player's card before a round: what pairing it needs."""

    name: str
    number: int  # pairing number: 1 is the highest ranked at the start
    score: float = 0.0
    opponents: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()  # W or B of each game played, in order (a bye has none)
    had_bye: bool = False

    @property
    def difference(self) -> int:
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    def preference(self) -> tuple[str | None, int]:
        """(colour wanted, strength): 3 absolute, 2 strong, 1 mild, 0 none (C.04.3 A.6)."""
        if not self.colours:
            return None, 0
        diff, last = self.difference, self.colours[-1]
        other = BLACK if last == WHITE else WHITE
        if diff > 1 or diff < -1:
            return (BLACK if diff > 1 else WHITE), 3
        if len(self.colours) >= 2 and self.colours[-1] == self.colours[-2]:
            return other, 3
        if diff == 1 or diff == -1:
            return (BLACK if diff > 0 else WHITE), 2
        return other, 1


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[str, str], ...]  # (white, black)
    bye: str | None = None


class NoPairing(ValueError):
    """Nobody can be paired without a repeat or a third colour running (the tournament ends)."""


def _compatible(a: SwissPlayer, b: SwissPlayer, colours: bool = True) -> bool:
    if b.name in a.opponents:
        return False
    if not colours:
        return True
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    return not (sa == 3 and sb == 3 and ca == cb)


def _order(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    return sorted(players, key=lambda p: (-p.score, p.number))


def allocate_colours(a: SwissPlayer, b: SwissPlayer, initial: str = WHITE) -> tuple[str, str]:
    """(white, black) of a pair by C.04.3 E.1-E.5."""
    high, low = (a, b) if (-a.score, a.number) <= (-b.score, b.number) else (b, a)
    (ch, sh), (cl, sl) = high.preference(), low.preference()

    def high_gets(colour: str) -> tuple[str, str]:
        return (high.name, low.name) if colour == WHITE else (low.name, high.name)

    if ch and cl and ch != cl:  # E.1 both granted
        return high_gets(ch)
    if ch is None and cl is not None:
        return high_gets(BLACK if cl == WHITE else WHITE)
    if cl is None and ch is not None:
        return high_gets(ch)
    if ch is not None and sh != sl:  # E.2 the stronger
        return high_gets(ch) if sh > sl else high_gets(BLACK if cl == WHITE else WHITE)
    if ch is not None and sh == 3:  # both absolute alike: the wider difference wins it
        if abs(high.difference) != abs(low.difference):
            return high_gets(ch) if abs(high.difference) > abs(low.difference) else \
                high_gets(BLACK if ch == WHITE else WHITE)
    # E.3: alternate from the most recent round in which they had different colours.
    for x, y in zip(reversed(high.colours), reversed(low.colours)):
        if x != y:
            return high_gets(y)
    if ch is not None:  # E.4 the higher ranked player's preference
        return high_gets(ch)
    # E.5: the initial colour to an odd pairing number.
    other = BLACK if initial == WHITE else WHITE
    return high_gets(initial if high.number % 2 else other)


def _bracket_options(bracket: list[SwissPlayer], last: bool, budget: list[int], colours: bool) -> Iterator[tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]]]:
    """The bracket's pairings in the Dutch order of preference: as many pairs as can be, the
    lowest ranked floating down first; S1 (top half) against S2 in order, then S2 transposed."""
    n = len(bracket)
    for pairs_count in range(n // 2, -1, -1):
        floats = n - 2 * pairs_count
        if last and floats:
            return
        # Floaters from the bottom: the combinations of indices, lowest ranked first.
        for floating in itertools.combinations(range(n - 1, -1, -1), floats):
            staying = [p for i, p in enumerate(bracket) if i not in floating]
            s1, s2 = staying[:pairs_count], staying[pairs_count:]
            for perm in itertools.permutations(s2):
                budget[0] -= 1
                if budget[0] < 0:
                    raise _OutOfBudget
                pairs = list(zip(s1, perm))
                if all(_compatible(x, y, colours) for x, y in pairs):
                    yield pairs, [bracket[i] for i in sorted(floating)]


class _OutOfBudget(Exception):
    pass


def _pair_brackets(groups: list[list[SwissPlayer]], floaters: list[SwissPlayer],
                   budget: list[int], colours: bool) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    if not groups:
        return [] if not floaters else None
    bracket = floaters + groups[0]
    for pairs, down in _bracket_options(bracket, len(groups) == 1, budget, colours):
        rest = _pair_brackets(groups[1:], down, budget, colours)
        if rest is not None:
            return pairs + rest
    return None


def _backtrack(players: list[SwissPlayer], colours: bool,
               budget: list[int] | None = None) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """Any pairing honouring the hard rules, nearest in the order first (when the Dutch search
    would take too long); None after BACKTRACK_BUDGET tries too (the server's loop waits on it)."""
    budget = [BACKTRACK_BUDGET] if budget is None else budget
    if not players:
        return []
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if _compatible(first, other, colours):
            found = _backtrack(rest[:i] + rest[i + 1:], colours, budget)
            if found is not None:
                return [(first, other)] + found
    return None


def _pair_all(players: list[SwissPlayer], colours: bool) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    groups = [list(g) for _, g in itertools.groupby(_order(players), key=lambda p: p.score)]
    try:
        return _pair_brackets(groups, [], [SEARCH_BUDGET], colours)
    except _OutOfBudget:
        return _backtrack(_order(players), colours)


def swiss_round(players: Sequence[SwissPlayer], initial: str = WHITE, *, last_round: bool = False) -> SwissRound:
    """The next round's pairings of ``players`` (those still in the tournament). NoPairing if
    the rules leave none (every opponent met). In the ``last_round`` the colour rules give way
    when nothing else pairs (C.04.1 f and g allow that exception), never the repeats."""
    try:
        return _swiss_round(players, initial, colours=True)
    except NoPairing:
        if not last_round:
            raise
    return _swiss_round(players, initial, colours=False)


def _swiss_round(players: Sequence[SwissPlayer], initial: str, colours: bool) -> SwissRound:
    if len(players) < 2:
        raise NoPairing("fewer than two players are left to pair")
    ordered = _order(players)
    candidates: list[SwissPlayer | None] = [None]
    if len(ordered) % 2:
        # The bye: from the bottom, the first who has had none and leaves the rest pairable.
        candidates = [p for p in reversed(ordered) if not p.had_bye] or list(reversed(ordered))
    for bye in candidates:
        rest = [p for p in ordered if p is not bye]
        pairs = _pair_all(rest, colours)
        if pairs is not None:
            return SwissRound(tuple(allocate_colours(a, b, initial) for a, b in pairs),
                              bye.name if bye is not None else None)
    raise NoPairing("no pairing is left without a repeat or a colour given three times running")


@dataclass
class SwissGame:
    white: str
    black: str
    result: float | None  # white's score: 1, 0.5, 0; None while it is played


@dataclass
class SwissHistory:
    """A Swiss tournament so far: its players in pairing-number order and its rounds."""

    players: list[str]
    rounds: list[tuple[list[SwissGame], str | None]] = field(default_factory=list)  # (games, bye)
    withdrawn: set[str] = field(default_factory=set)

    def scores_after(self, rounds: int | None = None) -> dict[str, float]:
        score = dict.fromkeys(self.players, 0.0)
        for games, bye in self.rounds[:rounds]:
            for g in games:
                if g.result is not None:
                    score[g.white] += g.result
                    score[g.black] += 1 - g.result
            if bye is not None:
                score[bye] += 1.0
        return score

    def cards(self) -> list[SwissPlayer]:
        """Every player's card (withdrawn ones too) from the rounds so far."""
        score = self.scores_after()
        opponents: dict[str, list[str]] = {p: [] for p in self.players}
        colours: dict[str, list[str]] = {p: [] for p in self.players}
        byes = {bye for _, bye in self.rounds if bye is not None}
        for games, _ in self.rounds:
            for g in games:
                opponents[g.white].append(g.black)
                opponents[g.black].append(g.white)
                colours[g.white].append(WHITE)
                colours[g.black].append(BLACK)
        return [SwissPlayer(p, i + 1, score[p], tuple(opponents[p]), tuple(colours[p]), p in byes)
                for i, p in enumerate(self.players)]

    def next_round(self, initial: str = WHITE, *, last_round: bool = False) -> SwissRound:
        return swiss_round([c for c in self.cards() if c.name not in self.withdrawn], initial,
                           last_round=last_round)


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    score: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    results: tuple[str, ...]  # per round: "+opp" win, "=opp" draw, "-opp" loss, "bye", "" not played


def swiss_standings(history: SwissHistory, total_rounds: int) -> list[Standing]:
    """The standings with the tiebreaks (module docstring), best first."""
    final = history.scores_after()
    rows = []
    for number, player in enumerate(history.players, start=1):
        opponent_scores: list[float] = []
        sb = 0.0
        marks: list[str] = []
        for index, (games, bye) in enumerate(history.rounds):
            before = history.scores_after(index)[player]
            game = next((g for g in games if player in (g.white, g.black)), None)
            if game is None or game.result is None:
                got = 1.0 if bye == player else 0.0
                if game is None:  # a virtual opponent: our score before, the rest drawn
                    opponent_scores.append(before + (1.0 - got) + 0.5 * (total_rounds - index - 1))
                marks.append("bye" if bye == player else ("*" if game is not None else ""))
                continue
            mine = game.result if game.white == player else 1 - game.result
            opponent = game.black if game.white == player else game.white
            opponent_scores.append(final[opponent])
            sb += final[opponent] * mine
            marks.append({1.0: "+", 0.5: "=", 0.0: "-"}[mine] + opponent)
        bh = sum(opponent_scores)
        cut = bh - min(opponent_scores) if opponent_scores else 0.0
        rows.append((player, number, final[player], bh, cut, sb, tuple(marks)))
    rows.sort(key=lambda r: (-r[2], -r[3], -r[4], -r[5], r[1]))
    return [Standing(i + 1, p, s, bh, cut, sb, marks) for i, (p, _, s, bh, cut, sb, marks) in enumerate(rows)]


# -- Arena ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaGame:
    """One finished game from one player's side."""

    opponent: str
    result: str  # "win", "draw" or "loss"
    berserk: bool = False
    moves: int = 0  # moves the player made in it


def arena_points(games: Sequence[ArenaGame]) -> list[int]:
    """The points each game scored, in order (lichess: 2/1/0, doubled on fire, +1 berserk win)."""
    points = []
    wins_running = 0
    for game in games:
        fire = wins_running >= 2
        base = {"win": 2, "draw": 1, "loss": 0}[game.result]
        score = base * (2 if fire else 1)
        if game.result == "win" and game.berserk and game.moves >= BERSERK_MOVES:
            score += 1
        points.append(score)
        wins_running = wins_running + 1 if game.result == "win" else 0
    return points


def on_fire(games: Sequence[ArenaGame]) -> bool:
    """Whether the next game is worth double (the last two were won)."""
    return len(games) >= 2 and all(g.result == "win" for g in games[-2:])


def arena_pairs(waiting: Sequence[str], rank: dict[str, int], last_opponent: dict[str, str | None],
                playing: int) -> list[tuple[str, str]]:
    """Pairs among ``waiting`` (players free for a game), nearest in ``rank`` (0 best) first.
    Two who have just played each other are paired again only when nobody else can come
    (``playing``: how many other players are in games now)."""
    left = sorted(waiting, key=lambda p: (rank.get(p, len(rank)), p))
    pairs: list[tuple[str, str]] = []
    while len(left) >= 2:
        first = left.pop(0)
        others = [p for p in left if last_opponent.get(first) != p and last_opponent.get(p) != first]
        if others:
            partner = others[0]
        elif playing == 0 and len(left) == 1:
            partner = left[0]
        else:
            continue
        left.remove(partner)
        pairs.append((first, partner))
    return pairs


def arena_colours(a: str, b: str, firsts: dict[str, int], games: dict[str, int]) -> tuple[str, str]:
    """(first, second): the one who has had the first move less often (in proportion) moves first."""
    def share(p: str) -> float:
        return firsts.get(p, 0) - games.get(p, 0) / 2
    return (a, b) if share(a) <= share(b) else (b, a)
