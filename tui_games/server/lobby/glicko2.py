"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), as lichess uses
them: every rated game is a rating period of its own for both players.

A rating is (r, RD, σ): the rating, its deviation (how unsure we are) and its volatility.
New players start at 1500 ± 350 with σ = 0.06; τ = 0.5 constrains how fast σ moves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

SCALE = 173.7178
TAU = 0.5
EPSILON = 1e-6
MIN_RD, MAX_RD = 45.0, 350.0  # lichess's bounds: a rating never looks surer or vaguer than this


class Rating(NamedTuple):
    rating: float = 1500.0
    rd: float = MAX_RD
    volatility: float = 0.06

    def __str__(self) -> str:
        return f"{self.rating:.0f}{'?' if self.rd > 110 else ''}"


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU,
           bounded: bool = True) -> Rating:
    """The player's rating after one rating period of ``results``: (opponent, score) pairs with
    score 1 for a win, 0.5 a draw, 0 a loss. ``bounded`` keeps RD within lichess's bounds."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    games = [((o.rating - 1500) / SCALE, o.rd / SCALE, score) for o, score in results]
    if not games:
        phi_new = math.sqrt(phi * phi + sigma * sigma)
        return _bounded(Rating(player.rating, phi_new * SCALE, sigma), bounded)
    v_inverse = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, score in games:
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inverse
    delta = v * delta_sum
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return _bounded(Rating(1500 + SCALE * mu_new, SCALE * phi_new, sigma_new), bounded)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def _bounded(rating: Rating, bounded: bool) -> Rating:
    if not bounded:
        return rating
    return rating._replace(rd=min(MAX_RD, max(MIN_RD, rating.rd)))


def after_game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game that ``first`` scored ``score`` in."""
    return update(first, [(second, score)]), update(second, [(first, 1 - score)])
