"""What an app no longer works out again in a process that starts many (tui_games.ui.runtime.warm_start):
its CSS, parsed once a process and the same rules Textual parses; its theme's variables, the
same as Textual's; the menu as the first screen, with no blank screen built under it, and not
restyled for widths it looks the same at; and the
server's rehearsal of an app, which draws a menu and leaves nothing of itself behind."""

from __future__ import annotations

import os
import tempfile

import pytest
import textual.css.stylesheet as textual_stylesheet
from textual._compositor import Compositor
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast, ToastRack
from ui_support import SIZE, process_state

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.runtime import rehearsal, warm_start
from tui_games.ui.screens.menu import MenuScreen
from tui_games.userdata.store import Store


def count_parses(monkeypatch) -> list[str]:
    """Every CSS source Textual parses from now on."""
    parsed: list[str] = []
    original = textual_stylesheet.parse

    def counting(scope, css, read_from, *args, **kwargs):
        parsed.append(str(read_from))
        return original(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", counting)
    return parsed


async def test_a_second_app_in_the_process_parses_no_css(home, monkeypatch):
    async with TuiGamesApp().run_test(size=SIZE) as pilot:
        await pilot.pause()
    parsed = count_parses(monkeypatch)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert parsed == []


def described(rules) -> list[tuple]:
    # Values as their reprs: a layout is its own instance in each parse.
    return [(rule.selector_set, {name: repr(value) for name, value in rule.styles.get_rules().items()},
             rule.is_default_rules, rule.tie_breaker) for rule in rules]


async def test_a_theme_change_parses_each_stylesheet_once(home, monkeypatch):
    monkeypatch.setattr(warm_start, "_parsed", {})
    store = Store()
    settings = store.load_settings()
    settings["ui"]["theme"] = "gruvbox"
    store.save_settings(settings)
    parsed: list[tuple] = []
    original = textual_stylesheet.parse

    def counting(scope, css, read_from, *args, variable_tokens=None, **kwargs):
        # Which theme: what $primary stands for.
        primary = "".join(token.value for token in (variable_tokens or {}).get("primary", []))
        parsed.append((scope, read_from, kwargs.get("tie_breaker"), primary))
        return original(scope, css, read_from, *args, variable_tokens=variable_tokens, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", counting)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "gruvbox"
    assert parsed and len(parsed) == len(set(parsed)), [p for p in parsed if parsed.count(p) > 1]


def rules_as_textual_parses_them(app: App) -> list[tuple]:
    plain = Stylesheet(variables=App.get_css_variables(app))
    plain.source = dict(app.stylesheet.source)
    plain.parse()
    return described(plain.rules)


async def test_the_shared_rules_are_the_rules_textual_parses_in_any_theme(home):
    for theme in ("textual-dark", "nord", "textual-light", "ansi-dark"):
        store = Store()
        settings = store.load_settings()
        settings["ui"]["theme"] = theme
        store.save_settings(settings)
        app = TuiGamesApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == theme
            assert described(app.stylesheet.rules) == rules_as_textual_parses_them(app)


async def test_every_themes_variables_are_textuals(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for theme in app.available_themes.values():
            assert warm_start.css_variables(app, theme) == {
                **App.get_theme_variable_defaults(app), **theme.to_color_system().generate(), **theme.variables}
        # Each caller has a copy of its own.
        assert warm_start.css_variables(app, app.current_theme) is not warm_start.css_variables(app, app.current_theme)


async def test_the_menu_is_the_first_screen_with_none_under_it(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack] == [MenuScreen]


async def test_the_menu_is_not_restyled_for_a_width_it_does_not_change_with(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not {"-narrow", "-wide"} & set(app.screen.classes)
        # A game's screen still has its width's class: its panels move under the board.
        await pilot.press("1")
        await pilot.pause()
        assert not isinstance(app.screen, MenuScreen) and "-wide" in app.screen.classes


async def test_the_footer_has_its_keys_in_the_first_frame_and_is_not_composed_again(home, monkeypatch):
    # Issue 27: the menu's footer started empty and was composed three times as the menu
    # settled after a login, each time mounting and styling its keys and drawing a frame.
    made: list[str] = []
    real = FooterKey.__init__
    monkeypatch.setattr(FooterKey, "__init__", lambda key, *args, **kwargs: made.append(args[2]) or real(
        key, *args, **kwargs))
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):  # the focus, the session's notice, the lobby: each said the bindings changed
            await pilot.pause()
        keys = [key.description for key in app.screen.query(FooterKey)]
        assert keys and "Quit" in keys
        assert made == keys
        # A change of the keys shown still shows: a game's screen has its own.
        await pilot.press("1")
        await pilot.pause()
        assert "Quit" not in [key.description for key in app.screen.query(FooterKey)]


async def test_the_menu_is_laid_out_again_only_for_a_new_size(home, monkeypatch):
    # Issue 27: as an app started, Textual laid the menu out five times, three of them after
    # its first frame for the size it had (the driver's start, the screen's own first layout).
    layouts: list[tuple[int, int]] = []
    real = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout", lambda screen, size=None, scroll=False: layouts.append(
        tuple(size or screen.outer_size)) or real(screen, size, scroll))
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert 1 <= len(layouts) <= 2, layouts
        await pilot.resize_terminal(100, 30)
        for _ in range(5):
            await pilot.pause()
        assert layouts[-1] == (100, 30) and app.screen.query_one("#menu-list").region.right <= 100
        assert app.screen.outer_size == (100, 30)


async def test_the_menus_first_frame_is_its_only_one_until_something_changes(home, monkeypatch):
    # Issue 27: after a login's first frame Textual laid the menu out again and drew all of it
    # twice more (a partial update of every widget, then the whole screen), for the sizes and
    # the repaints its widgets had asked for before that frame drew them: 8 ms of the app's CPU
    # and 7 KB over SSH.
    drawn: list[str] = []
    for name in ("render_full_update", "render_partial_update"):
        real = getattr(Compositor, name)
        monkeypatch.setattr(Compositor, name, lambda compositor, *args, _real=real, _name=name, **kwargs: (
            drawn.append(_name), _real(compositor, *args, **kwargs))[1])
    layouts: list[int] = []
    real_layout = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout", lambda screen, size=None, scroll=False: layouts.append(1) or
                        real_layout(screen, size, scroll))
    app = TuiGamesApp()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(8):
            await pilot.pause()
        assert (len(layouts), drawn) == (1, ["render_full_update"])
        menu = app.screen
        shown = app.export_screenshot()
        # Laid out and drawn whole again, by Textual's own path: the same screen.
        menu.refresh(layout=True)
        for node in menu.walk_children():
            node.refresh()
        for _ in range(3):
            await pilot.pause()
        assert len(layouts) == 2 and app.export_screenshot() == shown
        # What changes after the first frame is still drawn: a key moves the highlight.
        await pilot.press("down")
        await pilot.pause()
        assert app.export_screenshot() != shown and len(drawn) >= 2
        assert menu.query_one("#menu-list", OptionList).highlighted == 1


async def test_a_notification_at_start_still_shows_on_the_menu(home):
    # The notifications' rack is laid out shown or hidden with the menu's first frame (Textual
    # hid an empty one just after it, a layout more): one there at start still shows.
    store = Store()
    settings = store.load_settings()
    settings["ui"]["theme"] = "no-such-theme"
    store.save_settings(settings)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(5):
            await pilot.pause()
        rack = app.screen.get_child_by_type(ToastRack)
        toasts = list(rack.query(Toast))
        assert rack.display and toasts and all(toast.region.area > 0 for toast in toasts)
        assert "which this version does not have" in "".join(str(toast.render()) for toast in toasts)
    app = TuiGamesApp()
    store.save_settings({**settings, "ui": {**settings["ui"], "theme": "textual-dark"}})
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert not app.screen.get_child_by_type(ToastRack).display


def styles_of(screen) -> list[tuple[str, dict]]:
    return [(repr(node), {name: repr(value) for name, value in node.styles.get_rules().items()})
            for node in screen.walk_children(with_self=True)]


@pytest.mark.parametrize("theme", [None, "gruvbox"])
async def test_the_menu_is_not_restyled_when_it_first_shows_and_its_styles_are_textuals(home, monkeypatch, theme):
    # Issue 27: Textual restyled the whole menu as it first showed, just after styling it.
    if theme is not None:  # the player's theme is set as the app mounts, the menu's widgets with it
        store = Store()
        settings = store.load_settings()
        settings["ui"]["theme"] = theme
        store.save_settings(settings)
    restyled: list[int] = []
    real = Stylesheet.update_nodes
    monkeypatch.setattr(Stylesheet, "update_nodes", lambda sheet, nodes, animate=False: restyled.append(
        len(nodes := list(nodes))) or real(sheet, nodes, animate))
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert theme is not None or all(count < 5 for count in restyled), restyled
        assert app.theme == (theme or "textual-dark")
        menu = app.screen
        shown = styles_of(menu)
        menu.update_node_styles(animate=False)  # what the skipped restyle would have made
        await pilot.pause()
        assert styles_of(menu) == shown


def open_descriptors() -> set[str]:
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:  # the listing's own descriptor, closed already
            continue
    return found


def test_the_rehearsal_draws_a_menu_and_leaves_nothing_of_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = process_state()
    descriptors = open_descriptors() if os.path.isdir("/proc/self/fd") else set()

    assert rehearsal.rehearse()

    assert list(tmp_path.iterdir()) == []  # its folder, its settings and its session lock are gone
    assert process_state() == before
    if descriptors:
        assert not {path for path in open_descriptors() - descriptors if str(tmp_path) in path}
