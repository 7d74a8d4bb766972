#!/usr/bin/env python3
"""Label positions by the engine's search, and fit the checkers evaluation's small network.

The tool is tui_games/training/checkers_train_net.py (other tools import it); this runs it.
"""

import sys

from tui_games.training.checkers_train_net import main

if __name__ == "__main__":
    sys.exit(main())
