"""The one door to the libraries' private names (tui_games.ui.runtime.textual_compat): every
name is still there, a name that goes stops the start-up (or turns its optimisation off), and
nothing else in the package reaches a private name of Textual, asyncio or textual-serve."""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import tui_games
from tui_games.ui.runtime import textual_compat
from tui_games.ui.runtime.textual_compat import PRIVATE_NAMES, Private, TextualCompatError

PACKAGE = Path(tui_games.__file__).parent
COMPAT = PACKAGE / "ui" / "runtime" / "textual_compat.py"
LIBRARIES = ("textual", "textual_serve", "asyncio", "rich", "aiohttp")
# Public names with a leading underscore (namedtuple's methods, os._exit).
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_exit"}

# Every private name the app uses, by owner: a change here is a change to review in the module.
EXPECTED = {
    "textual.driver.Driver": {"_app", "_loop"},
    "textual.message_pump.MessagePump": {"_post_message", "_get_dispatch_methods"},
    "textual.drivers.linux_driver.LinuxDriver": {"_file", "_writer_thread"},
    "textual.drivers._writer_thread.WriterThread": {"_queue"},
    "textual.app.App": {"_driver", "_exit", "_notifications", "_size", "_resize_event", "_on_resize", "_batch_count",
                        "_begin_batch", "_end_batch"},
    "textual.widgets.Input": {"_on_key"},
    "textual.dom.DOMNode": {"_bindings"},
    "asyncio.selector_events.BaseSelectorEventLoop": {"_close_self_pipe", "_make_self_pipe"},
    "textual.css.stylesheet.Stylesheet": {"_parse_rules", "_variables", "_invalid_css", "_rules", "_rules_map",
                                          "_require_parse"},
    "textual._compositor": {"ChopsUpdate"},
    "textual._time": {"get_time"},
    "textual.widgets._toast": {"ToastRack"},
    "textual.widgets._footer": {"FooterKey"},
    "textual.widgets.Footer": {"_bindings_ready"},
    "textual.screen.Screen": {"_refresh_layout", "_compositor", "_dirty_widgets", "_on_resize", "_on_update",
                              "_on_layout", "_on_screen_resume"},
    "textual.widget.Widget": {"_layout_required", "_repaint_required"},
    "textual.widgets.OptionList": {"_line_cache", "_update_lines", "_clear_caches", "_on_resize"},
    "textual_serve.app_service.AppService": {"_build_environment", "_open_app_process", "_stdin", "_task",
                                             "_download_manager"},
}


def test_the_private_names_are_these():
    listed: dict[str, set[str]] = {}
    for private in PRIVATE_NAMES:
        listed.setdefault(private.owner.replace(":", "."), set()).add(private.name)
    assert listed == EXPECTED


@pytest.mark.parametrize("private", PRIVATE_NAMES, ids=str)
def test_each_private_name_is_still_there(private):
    if private.feature == "web":
        pytest.importorskip("textual_serve")
    assert textual_compat.missing([private]) == [], f"{private} is gone from the installed library"


def test_a_gone_method_or_attribute_is_noticed():
    gone = [Private("textual.driver:Driver", "_no_such_attribute", "driver"),
            Private("textual.widgets:Input", "_on_key", "ordered_input", ("self", "event", "extra")),
            Private("textual.no_such_module", "Thing", "partial_updates"),
            Private("textual.app:NoSuchClass", "_driver", "driver")]
    assert textual_compat.missing(gone) == gone


def test_a_required_name_gone_stops_the_start_up():
    with pytest.raises(TextualCompatError, match=r"textual\.driver\.Driver\._no_such_attribute .*terminal driver"):
        textual_compat.check([Private("textual.driver:Driver", "_no_such_attribute", "driver")])


def test_an_optional_name_gone_turns_its_feature_off(monkeypatch):
    monkeypatch.setattr(textual_compat, "_disabled", set())
    textual_compat.check([Private("textual.screen:Screen", "_no_such_layout", "first_frame")])
    assert not textual_compat.enabled("first_frame")
    assert textual_compat.enabled("stylesheet") and textual_compat.enabled("footer")


def test_every_feature_is_on_with_the_pinned_libraries():
    assert all(textual_compat.enabled(feature) for feature, (required, _) in textual_compat.FEATURES.items()
               if not required)


def test_a_forked_loop_gets_a_wakeup_pipe_of_its_own():
    loop = asyncio.SelectorEventLoop()
    try:
        before = loop._ssock.fileno(), loop._csock.fileno()  # (the test may look inside)
        shared = loop._ssock
        textual_compat.own_wakeup_pipe(loop)
        assert shared.fileno() == -1  # the inherited one is closed in this process
        assert loop._ssock.fileno() != -1 and (loop._ssock, loop._csock) != before
        # and the loop still wakes up for a call from another thread
        loop.call_soon_threadsafe(loop.stop)
        loop.run_forever()
    finally:
        loop.close()


# -- nothing else reaches a private name -----------------------------------------------------------


def _library_names(cls: type) -> set[str]:
    """Private names that the library classes among ``cls``'s bases have: defined in them, or
    used on ``self`` in their code."""
    names: set[str] = set()
    for base in cls.__mro__:
        if base.__module__.split(".")[0] in LIBRARIES:
            names.update(vars(base))
            try:
                names.update(re.findall(r"self\.(_[a-z]\w*)", inspect.getsource(base)))
            except (OSError, TypeError):  # a class without source (C): its dict is all it has
                pass
    return {name for name in names if re.fullmatch(r"_[a-z]\w*", name)}


def _our_classes() -> dict[tuple[str, str], type]:
    """Every class of the package, by (file, name) (importable modules only)."""
    classes: dict[tuple[str, str], type] = {}
    for info in pkgutil.walk_packages([str(PACKAGE)], "tui_games."):
        if info.name == "tui_games.__main__":
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:  # an optional extra missing: its file is still read below
            continue
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == info.name:
                classes[(str(Path(module.__file__).resolve()), name)] = value
    return classes


def _defined_by_us() -> set[str]:
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.ImportFrom):
                names.update(alias.asname or alias.name for alias in node.names)
    return names


def private_touches() -> list[str]:
    """``file:line: what`` for each reach into a library's private name outside textual_compat:
    an import from a private module; ``x._name`` where nothing of ours defines ``_name``; and
    ``self._name`` or ``super()._name`` in one of our classes where a library base has it."""
    classes, ours = _our_classes(), _defined_by_us()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.resolve() == COMPAT.resolve():
            continue
        where = path.relative_to(PACKAGE.parent)
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                parts = node.module.split(".")
                if parts[0] in LIBRARIES and any(part.startswith("_") for part in parts):
                    found.append(f"{where}:{node.lineno}: from {node.module} import")
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] in LIBRARIES and any(part.startswith("_") for part in parts):
                        found.append(f"{where}:{node.lineno}: import {alias.name}")
        for klass in [None, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
            body = tree if klass is None else klass
            cls = None if klass is None else classes.get((str(path.resolve()), klass.name))
            theirs = _library_names(cls) if cls is not None else set()
            for node in ast.walk(body):
                if not isinstance(node, ast.Attribute) or not re.fullmatch(r"_[a-z]\w*", node.attr):
                    continue
                if node.attr in PUBLIC_UNDERSCORED:
                    continue
                on_self = (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")) or (
                    isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                    and node.value.func.id == "super")
                if klass is None and on_self:
                    continue  # judged with its class
                if node.attr not in ours or (on_self and node.attr in theirs):
                    found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return sorted(set(found))


def test_no_private_name_of_a_library_outside_the_compat_module():
    assert private_touches() == []


def test_the_search_finds_a_private_touch(tmp_path, monkeypatch):
    """The search above is not blind: a file of the package reaching Textual's privates is found."""
    probe = PACKAGE / "ui" / "_compat_probe_test.py"
    probe.write_text("from textual._time import get_time\nfrom textual.widgets import Input\n\n\n"
                     "class Probe(Input):\n    def go(self, app):\n        self._cursor_visible = True\n"
                     "        return app._driver, super()._on_key\n")
    try:
        found = private_touches()
    finally:
        probe.unlink()
    assert any("_compat_probe_test.py:1: from textual._time" in line for line in found)
    assert any("self._cursor_visible" in line for line in found)
    assert any("super()._on_key" in line for line in found)
