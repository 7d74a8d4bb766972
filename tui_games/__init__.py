"""tui-games: terminal games with engines you can watch think."""

__version__ = "0.1.0"
