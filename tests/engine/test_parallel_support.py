"""tests/parallel_support.py: the same results as a loop, in order, and a failed check in a
worker fails the test with its message."""

from __future__ import annotations

import pytest
from parallel_support import parallel_map


def _square_unless_seven(x: int) -> int:
    assert x != 7, f"seven is refused ({x})"
    return x * x


def test_results_come_back_in_order_and_a_workers_failure_is_raised_with_its_message():
    assert parallel_map(_square_unless_seven, range(6)) == [0, 1, 4, 9, 16, 25]
    assert parallel_map(_square_unless_seven, []) == []
    with pytest.raises(AssertionError, match=r"seven is refused \(7\)"):
        parallel_map(_square_unless_seven, range(10))
