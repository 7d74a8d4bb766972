"""splitmix64 (Steele, Lea & Flood 2014): the random numbers of the games' compiled playouts,
drawn the same by their Python twins (Connect-4's and checkers' playouts)."""

from __future__ import annotations

__all__ = ["MASK64", "splitmix64"]

MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """The next state and number of splitmix64."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)
