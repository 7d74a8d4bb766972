#!/usr/bin/env python3
"""Fit the checkers evaluation with pattern tables to the engine's own games.

The tool is tui_games/training/checkers_train_patterns.py (other tools import it); this runs it.
"""

import sys

from tui_games.training.checkers_train_patterns import main

if __name__ == "__main__":
    sys.exit(main())
