#!/usr/bin/env python3
"""Turn a collection of played checkers games into training positions for the evaluation.

The tool is tui_games/training/checkers_import_games.py (other tools import it); this runs it.
"""

import sys

from tui_games.training.checkers_import_games import main

if __name__ == "__main__":
    sys.exit(main())
