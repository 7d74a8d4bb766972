"""Running the command line in-process, and what every usage error must look like."""

from __future__ import annotations

import io
import sys

from tui_games import cli


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``tui-games ARGV``; ``stdin`` needs ``monkeypatch``."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code: int, out: str, err: str, fragment: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming the problem, no traceback."""
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tui-games: error: "), err
    assert fragment in err
    assert "Traceback" not in err
