"""The one part of the build pyproject.toml cannot declare: the compiled extensions.

Each extension is optional: where there is no C compiler (or no Python headers), setuptools
reports that it could not build it and installs the package without it, and the engine
runs in pure Python (the same scores and node counts, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tui_games.engine.connect4._c4solve",
            ["tui_games/engine/connect4/_c4solve.c"],
            optional=True,
        ),
        # The checkers search core (core.py is the twin). Both checkers modules include
        # the one move generator, ckmoves.h.
        Extension(
            "tui_games.engine.checkers._ckcore",
            ["tui_games/engine/checkers/_ckcore.c"],
            depends=["tui_games/engine/checkers/ckmoves.h"],
            optional=True,
        ),
        # Checkers endgame databases: the retrograde builder and the probe (egdb.py is the twin).
        Extension(
            "tui_games.engine.checkers._egdb",
            ["tui_games/engine/checkers/_egdb.c"],
            depends=["tui_games/engine/checkers/ckmoves.h"],
            optional=True,
        ),
        # The Franken and mutant fish search of one digit (complex_fish.py has the twin).
        Extension(
            "tui_games.engine.sudoku._fishcore",
            ["tui_games/engine/sudoku/_fishcore.c"],
            optional=True,
        ),
    ]
)
