"""Callbacks handed to a compiled search that keeps them between calls.

A compiled core (checkers' ``Core``, Connect-4's ``Search``) holds the callbacks it was given
(the stop check, a database probe). A bound method there ties the core to the object that
owns the core: a reference cycle that only a full collection frees, and CPython runs one
rarely in a long-lived program, so every finished game's engine waited with its table (tens
of MB each) in a player's app and in the lobby's house worker. Handed through
:func:`weak_method`, the core holds nothing that leads back, and each engine goes with its
last reference.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable


def weak_method(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` (a bound method), called while its object lives; None once it is gone."""
    ref = weakref.WeakMethod(method)

    def call(*args: Any) -> Any:
        bound = ref()
        return None if bound is None else bound(*args)

    return call
