#!/usr/bin/env python3
"""Fit the checkers evaluation to the engine's own games; measure the gain.

The tool is tui_games/training/checkers_tune.py (other tools import it); this runs it.
"""

import sys

from tui_games.training.checkers_tune import main

if __name__ == "__main__":
    sys.exit(main())
