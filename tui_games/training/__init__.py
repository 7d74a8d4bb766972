"""The tools that fit the checkers engine's evaluations and read game records for them (run
from scripts/: each has a ``main``). They read and write files, so they are not in the engine;
the fits need NumPy (and the network's PyTorch), imported only when a fit runs
(:func:`fit_modules`), not project dependencies."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType


def fit_modules(tool: str, *names: str) -> list[ModuleType] | None:
    """The modules a fit needs (``"numpy"``, ``"torch"``), or None after one line on stderr
    naming the first that is missing (the tool then exits with 2)."""
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError:
            print(f"{tool}: error: the fit needs {' and '.join(names)} (pip install {' '.join(names)}); "
                  f"{name} is not installed", file=sys.stderr)
            return None
    return modules
