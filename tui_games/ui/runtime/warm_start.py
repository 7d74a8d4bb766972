"""Start apps fast in a process that starts many: what every app would work out again, once.

The game server's pre-started process (the zygote) forks an app for every login. Whatever the
app would compute the same way for every player is computed before the fork instead, so the
child starts from it, sharing the pages, rather than paying for it on each login:

- **CSS**: Textual parses every stylesheet (the app's, every widget's ``DEFAULT_CSS``) anew for
  each App, and works out a theme's colour variables anew. :class:`SharedStylesheet` keeps the
  parsed rules of this process, per set of variables, and :func:`css_variables` the variables
  of each theme; both are read-only once made (Textual's own per-stylesheet cache shares the
  same rule sets between parses). A theme change parses each source once, not twice (Textual's
  reparse would parse them into a sheet of its own, and the next widget's CSS all again).
- **Everything else a first frame needs**: the zygote builds one app up to its menu, which each
  login's child takes over (:mod:`tui_games.ui.runtime.standby`); this module's caches then serve the
  children that build their own app (a terminal the menu was not prepared for) and a theme
  change. (Keeping the theme's tokens and parsed markup styles once a process too was measured
  in such children and taken out: 54.2 against 54.5 ms of CPU to the menu, median of 30 each.)

Nothing of a player is in any of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.theme import Theme

from tui_games.ui.runtime.textual_compat import OpenStylesheet

if TYPE_CHECKING:
    from textual.app import App

# Parsed CSS sources kept, over every set of variables (a theme's): the app and its widgets
# have about a hundred, so this bounds a process that someone keeps switching themes in.
MAX_PARSED = 2000
_parsed: dict[tuple, list[RuleSet]] = {}
_variables: dict[str, tuple[Theme, dict[str, str]]] = {}


class SharedStylesheet(OpenStylesheet, Stylesheet):
    """A Stylesheet whose parsed rules are shared by every app of this process that uses the
    same CSS variables (see the module)."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._key: tuple | None = None

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._key = None

    def copy(self) -> SharedStylesheet:
        stylesheet = SharedStylesheet(variables=self.variables.copy())
        stylesheet.source = self.source.copy()
        return stylesheet

    def reparse(self) -> None:
        """Textual's ``reparse`` (after a theme change), parsing through the shared rules: it
        parses into a fresh sheet so that an error leaves this one as it was."""
        fresh = SharedStylesheet(variables=self.variables)
        fresh.source = dict(self.source)
        try:
            fresh.parse()
        except Exception:
            self.keep_errors(fresh)
            raise
        self.adopt(fresh)

    def _variables_key(self) -> tuple:
        if self._key is None:
            self._key = tuple(sorted(self.variables.items()))
        return self._key

    def parse_source(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        key = (self._variables_key(), css, read_from, is_default_rules, tie_breaker, scope)
        rules = _parsed.get(key)
        if rules is None:
            rules = super().parse_source(css, read_from, is_default_rules, tie_breaker, scope)
            # Sources with errors are parsed again each time, so they are reported each time.
            if len(_parsed) < MAX_PARSED and not any(rule.errors for rule in rules):
                _parsed[key] = rules
        return rules


def css_variables(app: App, theme: Theme) -> dict[str, str]:
    """``App.get_css_variables`` for ``theme``, worked out once a process (a copy: the caller
    may keep it)."""
    known, variables = _variables.get(theme.name, (None, {}))
    if known is not theme:  # a theme registered again under the same name is worked out again
        variables = {**app.get_theme_variable_defaults(), **theme.to_color_system().generate(), **theme.variables}
        _variables[theme.name] = (theme, variables)
    return dict(variables)

