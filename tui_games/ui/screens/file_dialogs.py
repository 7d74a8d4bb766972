"""The file dialogs every screen uses: name a file to save or load, through the one place that
decides where a player's files may be (``tui_games.server.paths``).

Saving never replaces an existing file without asking; a name that is refused (under the server:
anything but a plain name in the player's own folder) is said under the field at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from textual.screen import Screen

from tui_games.server import paths
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.input_dialog import InputDialog


def ask_to_save(screen: Screen, title: str, default_name: str, content: Callable[[], str],
                saved: Callable[[str], None], local_folder: Path | None = None) -> None:
    """Ask for a file name, confirm an overwrite, write ``content()``; ``saved(shown name)``.
    Locally the dialog proposes ``default_name`` in ``local_folder`` (default: home)."""

    def write(name: str, overwrite: bool) -> None:
        try:
            shown = paths.write_text(name, content(), overwrite=overwrite)
        except paths.FileExists:
            screen.app.push_screen(
                ConfirmDialog("Replace the file?", f"{paths.label(name)} exists already. Replace it?",
                              yes="Replace"),
                lambda yes: write(name, True) if yes else None)
            return
        except paths.FileRefused as refused:
            screen.notify(f"Not saved: {refused}", severity="error", timeout=8)
            return
        saved(shown)

    def chosen(name: str | None) -> None:
        if name is not None:
            write(name, False)

    screen.app.push_screen(
        InputDialog(title, f"File to write. {paths.where()}", paths.suggest(default_name, local_folder), check=paths.write_refusal),
        chosen)


def ask_to_load(screen: Screen, title: str, prompt: str, parse: Callable[[str, str], object],
                loaded: Callable[[object, str], None]) -> None:
    """Ask for a file, read and ``parse(text, shown name)`` it while the dialog is open (a
    problem stays under the field), then ``loaded(parsed, shown name)``.

    ``parse`` raises ValueError with a one-line message for content it cannot use."""
    results: dict[str, object] = {}

    def check(name: str) -> str | None:
        try:
            text = paths.read_text(name)
            results[name] = parse(text, paths.label(name))
        except paths.FileRefused as refused:
            return str(refused)
        except ValueError as error:
            return f"{paths.label(name)}: {error}"
        return None

    def chosen(name: str | None) -> None:
        if name is not None and name in results:
            loaded(results[name], paths.label(name))

    screen.app.push_screen(InputDialog(title, f"{prompt} {paths.where()}", check=check), chosen)
