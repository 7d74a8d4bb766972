"""The file dialogs every screen uses: name a file to save or load, through the one place that
decides where a player's files may be (``tui_games.userdata.player_files``).

Saving never replaces an existing file without asking; a name that is refused (under the server:
anything but a plain name in the player's own folder) is said under the field at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from textual.screen import Screen

from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.userdata import player_files


def ask_to_save(screen: Screen, title: str, default_name: str, content: Callable[[], str],
                saved: Callable[[str], None], local_folder: Path | None = None, *,
                named_content: Callable[[str], str] | None = None,
                check: Callable[[str], str | None] | None = None) -> None:
    """Ask for a file name, confirm an overwrite, write ``content()``; ``saved(shown name)``.
    Locally the dialog proposes ``default_name`` in ``local_folder`` (default: home).
    ``named_content(name)``, if given, makes the content from the name (its ending chooses
    a format); ``check(name)`` is a further refusal said under the field."""

    def refusal(name: str) -> str | None:
        return player_files.write_refusal(name) or (check(name) if check is not None else None)

    def write(name: str, overwrite: bool) -> None:
        try:
            text = named_content(name) if named_content is not None else content()
            shown = player_files.write_text(name, text, overwrite=overwrite)
        except player_files.FileExists:
            screen.app.push_screen(
                ConfirmDialog("Replace the file?", f"{player_files.label(name)} exists already. Replace it?",
                              yes="Replace"),
                lambda yes: write(name, True) if yes else None)
            return
        except player_files.FileRefused as refused:
            screen.notify(f"Not saved: {refused}", severity="error", timeout=8)
            return
        saved(shown)

    def chosen(name: str | None) -> None:
        if name is not None:
            write(name, False)

    screen.app.push_screen(
        InputDialog(title, f"File to write. {player_files.where()}", player_files.suggest(default_name, local_folder),
                    check=refusal),
        chosen)


def ask_to_load(screen: Screen, title: str, prompt: str, parse: Callable[[str, str], object],
                loaded: Callable[[object, str], None]) -> None:
    """Ask for a file, read and ``parse(text, shown name)`` it while the dialog is open (a
    problem stays under the field), then ``loaded(parsed, shown name)``.

    ``parse`` raises ValueError with a one-line message for content it cannot use."""
    results: dict[str, object] = {}

    def check(name: str) -> str | None:
        try:
            text = player_files.read_text(name)
            results[name] = parse(text, player_files.label(name))
        except player_files.FileRefused as refused:
            return str(refused)
        except ValueError as error:
            return f"{player_files.label(name)}: {error}"
        return None

    def chosen(name: str | None) -> None:
        if name is not None and name in results:
            loaded(results[name], player_files.label(name))

    screen.app.push_screen(InputDialog(title, f"{prompt} {player_files.where()}", check=check), chosen)
