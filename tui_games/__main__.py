import sys

from tui_games.cli import main

sys.exit(main())
