"""The Lab: bot against bot (the arena) and the algorithm comparison, for every game.

Arena tab: choose the variant, players A and B (the game's opponents, as on the command line:
``perfect``, ``level5``, ``level6:aware``, ``strong@1`` …), games and seed; ``r`` (or Enter in
a field) runs it in a thread worker. The progress bar advances game by game; ``x`` or Escape
cancels, keeping the games already finished. Then the results table and the list of games:
Enter on a game replays it move by move. A finished run goes to the data directory
(``arena.json``, listed in Scores); ``e`` writes the run as CSV.

Compare tab: on the game's current position (opened from a game with ``L``) or one of the
library's, every search configuration at depths 1..D: states, cutoffs, time and the root
value, and a bar per configuration on one (log) scale; after each depth MCTS with as many
playouts as + deepening had states, its move marked ✓ or ✗ where the sweep or the game's
judge (Connect-4's solver) knows the value (whether the move keeps it).

Both run on the screen's :class:`~tui_games.ui.widgets.engine_runner.EngineRunner`, as a game
screen's searches do: progress comes back at most ten times a second (only the newest report
is kept, and each carries everything so far), ``x`` or Escape stops a run early and keeps what it did,
leaving the screen cancels it.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timezone
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.suggester import SuggestFromList
from textual.widgets import (
    DataTable,
    Header,
    Input,
    Label,
    ProgressBar,
    Select,
    Static,
    TabbedContent,
    TabPane,
    Tabs,
)

from tui_games.bots import player_factory
from tui_games.data.resources import read_puzzles
from tui_games.engine.adapter import GameAdapter, find_position
from tui_games.engine.arena import (
    ArenaConfig,
    ArenaResult,
    GameRecord,
    TournamentResult,
    run_arena,
    tournament_configs,
)
from tui_games.engine.compare import (
    CONFIGS,
    DEFAULT_NODE_LIMIT,
    MCTS_CONFIG,
    SweepCell,
    best_mark,
    cell_value_words,
    sweep,
    values_agree,
)
from tui_games.games import arena_adapter, arena_specs
from tui_games.ui.app_base import UsesApp
from tui_games.ui.archive import archive_arena_games
from tui_games.ui.screens.file_dialogs import ask_to_save
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.text import count, score_text, short_count
from tui_games.ui.widgets.boards import side_labels
from tui_games.ui.widgets.engine_runner import EngineRunner
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.ordered_input import OrderedInput
from tui_games.ui.widgets.sweep_chart import SweepChart

PROGRESS_INTERVAL = 0.1
MAX_GAMES = 10_000
# The Tournament tab's players, and how many of them still get the crosstable's columns at 80×24.
MAX_TOURNAMENT_PLAYERS = 16
TOURNAMENT_CROSS = 6
MAX_SWEEP_DEPTH = 12
# CPU seconds the game's judge may take a position when it marks the Compare tab's MCTS moves.
JUDGE_SECONDS = 0.2
RESULT_WORDS = {"a": "A wins", "b": "B wins", None: "draw"}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


class LabScreen(UsesApp, Screen):
    TITLE = "Lab"
    BINDINGS = [
        # While a run goes on Escape stops it (as x does) and the key bar says Cancel; else Back.
        Binding("escape", "cancel", "Cancel"),
        Binding("escape", "back", "Back"),
        Binding("r", "run", "Run"),
        Binding("x", "cancel", "Cancel", show=False),
        Binding("e", "export", "CSV"),
        Binding("a", "tab('arena')", "Arena", show=False),
        Binding("c", "tab('compare')", "Compare", show=False),
        Binding("t", "tab('tournament')", "Tournament", show=False),
        Binding("question_mark", "app.help", "Help"),
    ]

    DEFAULT_CSS = """
    LabScreen #lab-top { height: 1; padding: 0 1; }
    LabScreen #lab-top Label { width: 6; }
    LabScreen #lab-game { width: 20; }
    LabScreen #lab-top-hint { width: 1fr; padding-left: 2; color: $text-muted; }
    LabScreen TabbedContent { height: 1fr; }
    LabScreen TabPane { padding: 0 1; }
    LabScreen #arena-form {
        grid-size: 6; grid-columns: 9 1fr 9 1fr 7 10; grid-rows: 1; height: auto; grid-gutter: 0 1;
    }
    LabScreen #arena-hint, LabScreen #compare-note { height: 1; color: $text-muted; }
    LabScreen #arena-progress-row { height: 1; }
    LabScreen #arena-progress { width: auto; padding-right: 1; }
    LabScreen #arena-progress Bar { width: 20; }
    LabScreen #arena-status, LabScreen #compare-status { width: 1fr; height: 1; }
    LabScreen #arena-results { height: 3; }
    LabScreen #arena-list { height: 1fr; }
    LabScreen #compare-form { height: 1; }
    LabScreen #compare-form Label { width: 9; }
    LabScreen #compare-position { width: 1fr; }
    LabScreen #compare-depth { width: 8; }
    LabScreen #compare-table { height: 1fr; }
    LabScreen #tournament-form { grid-size: 6; grid-columns: 8 1fr 6 6 5 8; grid-rows: 1; height: auto;
                                 grid-gutter: 0 1; }
    LabScreen #tournament-hint { height: 2; color: $text-muted; }
    LabScreen #tournament-progress-row { height: 1; }
    LabScreen #tournament-progress { width: auto; padding-right: 1; }
    LabScreen #tournament-progress Bar { width: 20; }
    LabScreen #tournament-status { width: 1fr; height: 1; }
    LabScreen #tournament-table { height: 1fr; }
    LabScreen #tournament-notes { height: auto; max-height: 3; color: $text-muted; }
    """

    def __init__(self, game: str | None = None, position: Any = None) -> None:
        super().__init__()
        names = [spec.key for spec in arena_specs()]
        self.game_name = game if game in names else names[0]
        # The position of the game screen the Lab was opened from, for the Compare tab.
        self.current = position.copy() if position is not None and game in names else None
        self.current_game = game if self.current is not None else None
        self.variants: list[tuple[str, dict]] = []
        self.result: ArenaResult | None = None
        self.cells: list[SweepCell] = []
        self.sweep_top = 0
        self.sweep_position: Any = None
        self.sweep_game: Any = None
        self.runner = EngineRunner()
        self._shown_games = 0
        self.tournament: TournamentResult | None = None

    # -- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="lab-top"):
            yield Label("Game")
            yield Select([(spec.title, spec.key) for spec in arena_specs()], value=self.game_name,
                         allow_blank=False, compact=True, id="lab-game")
            yield Static("", id="lab-top-hint")
        with TabbedContent(initial="arena", id="lab-tabs"):
            with TabPane("Arena", id="arena"):
                with Grid(id="arena-form"):
                    yield Label("Variant")
                    yield Select([("-", "-")], value="-", allow_blank=False, compact=True, id="arena-variant")
                    yield Label("Games")
                    yield OrderedInput("20", type="integer", compact=True, id="arena-count")
                    yield Label("Seed")
                    yield OrderedInput("1", type="integer", compact=True, id="arena-seed")
                    yield Label("Player A")
                    yield OrderedInput("", compact=True, id="arena-a")
                    yield Label("Player B")
                    yield OrderedInput("", compact=True, id="arena-b")
                    yield Label("s/move")
                    yield OrderedInput("", type="number", compact=True, id="arena-seconds", placeholder="default")
                yield Static("", id="arena-hint")
                with Horizontal(id="arena-progress-row"):
                    yield ProgressBar(total=1, show_eta=False, id="arena-progress")
                    yield Static("r runs · Enter on a game replays it", id="arena-status")
                yield DataTable(id="arena-results", show_cursor=False, zebra_stripes=True)
                yield DataTable(id="arena-list", cursor_type="row", zebra_stripes=True)
            with TabPane("Compare", id="compare"):
                with Horizontal(id="compare-form"):
                    yield Label("Position")
                    yield Select([("empty", "empty")], value="empty", allow_blank=False, compact=True,
                                 id="compare-position")
                    yield Label(" Depth")
                    yield OrderedInput("6", type="integer", compact=True, id="compare-depth")
                yield Static("", id="compare-note")
                yield Static("r runs every algorithm at depths 1..D · x or Esc cancels", id="compare-status")
                yield SweepChart(id="compare-chart")
                yield DataTable(id="compare-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Tournament", id="tournament"):
                with Grid(id="tournament-form"):
                    yield Label("Players")
                    yield OrderedInput("", compact=True, id="tournament-players")
                    yield Label("Games")
                    yield OrderedInput("2", type="integer", compact=True, id="tournament-games")
                    yield Label("Seed")
                    yield OrderedInput("1", type="integer", compact=True, id="tournament-seed")
                yield Static("every pair plays the games a pair, sides swapped (the Arena tab's variant); "
                             "players: the game's names or bot files, separated by spaces", id="tournament-hint")
                with Horizontal(id="tournament-progress-row"):
                    yield ProgressBar(total=1, show_eta=False, id="tournament-progress")
                    yield Static("r runs the round robin · x or Esc cancels", id="tournament-status")
                yield DataTable(id="tournament-table", show_cursor=False, zebra_stripes=True)
                yield Static("", id="tournament-notes")
        yield self.runner
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        for field in self.query(Input):
            field.cursor_blink = False  # nothing animates while idle (a blink costs bytes over SSH)
        results = self.query_one("#arena-results", DataTable)
        results.can_focus = False  # two rows to read, nothing to choose
        results.add_columns("player", "wins", "draws", "losses", "W 1st", "W 2nd", "moves", "ms/move", "nodes/move")
        games = self.query_one("#arena-list", DataTable)
        games.add_columns("#", "A plays", "result", "how", "plies", "opening / moves")
        compare = self.query_one("#compare-table", DataTable)
        compare.add_columns("depth", "algorithm", "states", "cutoffs", "TT hits", "time", "value", "move")
        self._set_game(self.game_name)
        self.query_one("#compare-chart", SweepChart).show([], 0)

    # -- the game and its choices -----------------------------------------------------------------

    @property
    def game(self) -> GameAdapter:
        return arena_adapter(self.game_name)

    @property
    def running(self) -> str | None:
        """"arena" or "compare" while a run goes on."""
        return self.runner.tag

    def _set_game(self, name: str) -> None:
        self.game_name = name
        game = self.game
        self.variants = list(game.variants)
        if self.current is not None and self.current_game == name:
            # The game the Lab came from comes first, added if it is none of the presets.
            mine = game.check_variant(game.variant_of(self.current))
            if all(game.check_variant(v) != mine for _, v in self.variants):
                self.variants.insert(0, (f"this game's: {game.variant_label(mine)}", mine))
            else:
                self.variants.sort(key=lambda lv: game.check_variant(lv[1]) != mine)
        variant = self.query_one("#arena-variant", Select)
        # Values differ from game to game, so the Select shows the new label even for the first.
        variant.set_options([(label, f"{name}:{i}") for i, (label, _) in enumerate(self.variants)])
        variant.value = f"{name}:0"
        a, b, n = game.lab_defaults
        self.query_one("#arena-a", Input).value = a
        self.query_one("#arena-b", Input).value = b
        self.query_one("#arena-count", Input).value = str(n)
        self._update_players()
        positions = []
        if self.current is not None and self.current_game == name:
            positions.append(("the game's current position", "current"))
        positions += [(e.key, e.key) for e in game.positions]
        chooser = self.query_one("#compare-position", Select)
        chooser.set_options(positions)
        chooser.value = positions[0][1]
        self._position_chosen()

    def _variant(self) -> dict:
        value = self.query_one("#arena-variant", Select).value
        try:
            return dict(self.variants[int(str(value).rpartition(":")[2])][1])
        except (TypeError, ValueError, IndexError):
            return dict(self.variants[0][1])

    def _update_players(self) -> None:
        names = self.game.spec_names(self._variant())
        for field in ("#arena-a", "#arena-b"):
            # The classic tic-tac-toe players only play 3x3: on another board, random instead.
            box = self.query_one(field, Input)
            if box.value.strip().lower() in ("rule-based", "magic-square") and box.value.strip().lower() not in names:
                box.value = "random"
        for field in ("#arena-a", "#arena-b"):
            self.query_one(field, Input).suggester = SuggestFromList(names, case_sensitive=False)
        shown = " ".join(n for n in names if not n.startswith("level") or n == "level1")
        levels = [n for n in names if n.startswith("level")]
        if levels:
            shown = shown.replace("level1", f"level1-{levels[-1].removeprefix('level')}")
        self.query_one("#arena-hint", Static).update(f"{shown}, bot.py; {self.game.spec_help}")
        first = self._sides(self.game_name, self.game.side_names)[0]
        self.query_one("#lab-top-hint", Static).update(f"{first} moves first; sides alternate")

    def _sides(self, game: str, engine_names: tuple[str, str]) -> tuple[str, str]:
        """The sides as ``game``'s own screen names them (Connect-4's discs)."""
        return side_labels(game, self.app.store.load_settings(), engine_names)

    @on(Select.Changed, "#lab-game")
    def _game_changed(self, event: Select.Changed) -> None:
        if event.value != self.game_name and isinstance(event.value, str):
            self._set_game(event.value)
            # The last run's tables were another game's: a fresh start, not a stale table.
            self.result = None
            self._shown_games = 0
            for table in ("#arena-list", "#arena-results", "#compare-table"):
                self.query_one(table, DataTable).clear()
            self.cells = []
            self.query_one("#compare-chart", SweepChart).show([], 0)
            self.query_one("#arena-progress", ProgressBar).update(total=1, progress=0)
            self.query_one("#arena-status", Static).update("r runs · Enter on a game replays it")

    @on(Select.Changed, "#arena-variant")
    def _variant_changed(self) -> None:
        self._update_players()

    @on(Select.Changed, "#compare-position")
    def _position_chosen(self) -> None:
        key = self.query_one("#compare-position", Select).value
        if key == "current":
            note = "the position on the board of the game you came from"
            depth = self.game.sweep_depth(self.current)
        else:
            entry = find_position(self.game, str(key))
            if entry is None:
                return
            note, depth = entry.note, entry.depth
        self.query_one("#compare-note", Static).update(note)
        self.query_one("#compare-depth", Input).value = str(depth)

    def _compare_position(self) -> Any:
        key = self.query_one("#compare-position", Select).value
        if key == "current" and self.current is not None:
            return self.current.copy()
        entry = find_position(self.game, str(key)) or self.game.positions[0]
        return self.game.library_position(entry)

    # -- actions ----------------------------------------------------------------------------------

    def action_tab(self, tab: str) -> None:
        tabs = self.query_one(TabbedContent)
        # Focus leaves the old pane first: a focused widget in a pane being hidden would hand
        # focus to its neighbour there, and TabbedContent follows focus back to that pane.
        tabs.query_one(Tabs).focus()
        tabs.active = tab
        target = {"compare": "#compare-position", "tournament": "#tournament-players"}.get(tab, "#arena-list")
        self.call_after_refresh(self.query_one(target).focus)

    @on(Input.Submitted)
    def action_run(self) -> None:
        if self.running:
            self.notify("A run is going: x or Escape cancels it.", timeout=3)
            return
        active = self.query_one(TabbedContent).active
        if active == "compare":
            self._start_sweep()
        elif active == "tournament":
            self._start_tournament()
        else:
            self._start_arena()

    def _lock_form(self, running: bool, focus: str | None = None) -> None:
        """While a run goes on its fields are read-only and focus is on its results: keys the
        screen names (x cancels) then reach the screen, not a field ("level6x")."""
        for field in self.query("#lab-top Select, #arena-form Input, #arena-form Select, #compare-form Input, "
                                "#compare-form Select, #tournament-form Input"):
            field.disabled = running
        if focus is not None:
            self.query_one(focus).focus()

    def action_cancel(self) -> None:
        if self.running:
            self.runner.stop()
            self.query_one(f"#{self.running}-status", Static).update("cancelling…")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return bool(self.running)
        if action == "back":
            return not self.running
        return True

    def action_back(self) -> None:
        if self.running:
            self.action_cancel()
            return
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.runner.cancel()

    def on_engine_runner_progress(self, message: EngineRunner.Progress) -> None:
        if not self.runner.is_current(message):
            return
        if message.tag == "arena":
            self._arena_progress(*message.stats)
        elif message.tag == "tournament":
            self._tournament_progress(*message.stats)
        else:
            self._sweep_progress(message.stats)

    def on_engine_runner_finished(self, message: EngineRunner.Finished) -> None:
        stopped = self.runner.stopping
        if not self.runner.done(message):
            return
        self._lock_form(False)
        self.refresh_bindings()
        if message.tag == "arena":
            self._arena_done(message.payload)
        elif message.tag == "tournament":
            self._tournament_done(message.payload)
        else:
            self._sweep_done(message.payload, stopped)

    def on_engine_runner_failed(self, message: EngineRunner.Failed) -> None:
        if not self.runner.done(message):
            return
        self._lock_form(False)
        self.refresh_bindings()
        what = "sweep" if message.tag == "compare" else "run"
        self.query_one(f"#{message.tag}-status", Static).update(f"the {what} failed")
        self.notify(f"{what.capitalize()} error: {message.error}", severity="error")

    # -- the arena ------------------------------------------------------------------------------

    def _arena_config(self) -> tuple[ArenaConfig, dict[str, str]] | None:
        """The run the form describes and the players' names, or None (with a notice naming
        the bad field)."""
        game = self.game
        variant = self._variant()

        def number(field: str, kind: type, low: float, high: float, name: str) -> Any:
            text = self.query_one(field, Input).value.strip()
            try:
                value = kind(text)
            except ValueError:
                raise ValueError(f"{name} {text!r} is not a number") from None
            if not low <= value <= high:
                raise ValueError(f"{name} must be from {low:g} to {high:g}")
            return value

        try:
            games = number("#arena-count", int, 1, MAX_GAMES, "games")
            seed = number("#arena-seed", int, -2**31, 2**31, "seed")
            seconds_text = self.query_one("#arena-seconds", Input).value.strip()
            seconds = number("#arena-seconds", float, 0.05, 600, "s/move") if seconds_text else None
            specs, names = {}, {}
            for who in ("a", "b"):
                spec = self.query_one(f"#arena-{who}", Input).value.strip()
                try:
                    player = player_factory(game)(spec, seed=0, seconds=seconds, variant=variant)
                    names[who] = player.name
                    player.close()
                except ValueError as error:
                    raise ValueError(f"player {who.upper()} {spec!r}: {error}") from None
                specs[who] = spec
        except ValueError as error:
            self.notify(str(error), severity="error", timeout=6)
            return None
        return ArenaConfig(game.name, specs["a"], specs["b"], games, True, seed, seconds, variant), names

    def _start_arena(self) -> None:
        chosen = self._arena_config()
        if chosen is None:
            return
        config, names = chosen
        game = self.game
        openings = None
        if game.openings_file is not None:
            try:
                openings = game.parse_openings(read_puzzles(game.openings_file))
            except (OSError, ValueError) as error:
                self.notify(f"No openings: {error}", severity="error")
                return
        # The games so far, as a result: the table and the replay work while the run goes on.
        self.result = ArenaResult(config, game.title, (game.side_names[0], game.side_names[1]), names["a"], names["b"],
                                  config.seed or 0)
        self._shown_games = 0
        self.query_one("#arena-list", DataTable).clear()
        self.query_one("#arena-results", DataTable).clear()
        self.query_one("#arena-progress", ProgressBar).update(total=config.games, progress=0)
        self.query_one("#arena-status", Static).update(f"game 1/{config.games}…")
        self.runner.start("arena", self._arena_job(game, config, openings))
        self._lock_form(True, "#arena-list")
        self.refresh_bindings()

    @staticmethod
    def _arena_job(game: GameAdapter, config: ArenaConfig, openings: list | None):
        def job(stop: threading.Event, progress) -> ArenaResult:
            last = 0.0
            done = 0
            records: list[GameRecord] = []

            def report(playing: int, plies: int) -> None:
                nonlocal last
                now = time.monotonic()
                if now - last >= PROGRESS_INTERVAL:
                    last = now
                    progress((done, config.games, playing, plies, list(records)))

            def on_game(record: GameRecord, so_far: ArenaResult) -> None:
                nonlocal done
                done = len(so_far.records)
                records.append(record)
                report(record.number + 1, 0)

            return run_arena(game, config, openings=openings, stop=stop, on_game=on_game,
                             on_move=lambda number, plies: report(number, plies), make_player=player_factory(game))

        return job

    def _arena_progress(self, done: int, total: int, playing: int, plies: int, records: list[GameRecord]) -> None:
        self.query_one("#arena-progress", ProgressBar).update(total=total, progress=done)
        playing = min(playing, total)
        ply = f", ply {plies}" if plies else ""
        self.query_one("#arena-status", Static).update(f"game {playing}/{total}{ply}… x or Esc cancels")
        if self.result is not None and len(records) > len(self.result.records):
            self.result.records = records
            self._add_games(records)
            self._fill_results(self.result)

    def _add_games(self, records: list[GameRecord]) -> None:
        table = self.query_one("#arena-list", DataTable)
        # The run's own game: the Game choice may have changed since it started.
        if self.result is not None:
            sides = self._sides(self.result.config.game, self.result.side_names)
        else:
            sides = self._sides(self.game_name, self.game.side_names)
        for record in records[self._shown_games:]:
            detail = record.forfeit or record.opening or " ".join(record.moves)
            table.add_row(str(record.number), sides[record.a_side], RESULT_WORDS[record.winner], record.reason,
                          str(record.plies), detail[:60], key=str(record.number))
        self._shown_games = max(self._shown_games, len(records))

    def _arena_done(self, result: ArenaResult) -> None:
        self.result = result
        self._add_games(result.records)
        self.query_one("#arena-progress", ProgressBar).update(total=result.config.games, progress=result.games)
        self._fill_results(result)
        status = (f"cancelled after {result.games} of {result.config.games} games" if result.cancelled
                  else f"done: {result.games} games in {result.seconds:.1f} s")
        # A run cut short is kept too, marked so (Scores lists it "cancelled after N of M"):
        # its games were played.
        if result.records:
            if self.app.store.record_arena_run(result.to_dict(with_notes=False)):
                status += ", saved"
            self._archive([result], "Lab game {number}")
            for warning in self.app.store.take_warnings():
                self.notify(warning, title="Data file problem", severity="warning", timeout=10)
        self.query_one("#arena-status", Static).update(status + (" · Enter replays" if result.records else ""))
        if result.records:
            self.query_one("#arena-list", DataTable).focus()

    def _fill_results(self, result: ArenaResult) -> None:
        table = self.query_one("#arena-results", DataTable)
        table.clear()
        for who, name in (("a", result.a_name), ("b", result.b_name)):
            s = result.side(who)
            table.add_row(f"{who.upper()} {name}", str(s.wins), str(s.draws), str(s.losses), str(s.wins_first),
                          str(s.wins_second), f"{s.moves_per_game:.1f}", _ms(s.seconds_per_move),
                          count(s.nodes_per_move))

    @on(DataTable.RowSelected, "#arena-list")
    def _replay(self, event: DataTable.RowSelected) -> None:
        result = self.result
        number = int(event.row_key.value or 0)
        if result is None:
            return
        record = next((r for r in result.records if r.number == number), None)
        if record is None:
            return
        try:
            self.app.push_screen(ReplayScreen(result, record))
        except ValueError as error:
            self.notify(f"Cannot replay game {number}: {error}", severity="error")

    def action_export(self) -> None:
        result = self.result
        if result is None or not result.records:
            self.notify("Run the arena first: e writes its games as CSV.", timeout=3)
            return
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        ask_to_save(self, "Export CSV", f"arena-{result.config.game}-{stamp}.csv", result.csv_text,
                    lambda shown: self.notify(f"Wrote {len(result.records)} games to {shown}", timeout=6),
                    local_folder=self.app.store.root)

    # -- the tournament ------------------------------------------------------------------------------

    def _start_tournament(self) -> None:
        game = self.game
        variant = self._variant()
        specs = self.query_one("#tournament-players", Input).value.split()
        try:
            if len(specs) < 2:
                raise ValueError("a tournament needs at least two players, separated by spaces")
            if len(specs) > MAX_TOURNAMENT_PLAYERS:
                raise ValueError(f"at most {MAX_TOURNAMENT_PLAYERS} players here (the command line takes more)")
            games, seed = (int(self.query_one(f"#tournament-{f}", Input).value.strip() or "x") for f in ("games", "seed"))
            if not 1 <= games <= MAX_GAMES:
                raise ValueError(f"games must be from 1 to {MAX_GAMES}")
            make = player_factory(game)
            for n, spec in enumerate(specs, 1):
                try:
                    make(spec, seed=0, seconds=None, variant=variant).close()
                except ValueError as error:
                    raise ValueError(f"player {n} {spec!r}: {error}") from None
        except ValueError as error:
            self.notify(str(error) if "invalid literal" not in str(error) else "games and seed are whole numbers",
                        severity="error", timeout=6)
            return
        configs = tournament_configs(game.name, specs, games, seed, variant=variant)
        openings = None
        if game.openings_file is not None:
            try:
                openings = game.parse_openings(read_puzzles(game.openings_file))
            except (OSError, ValueError) as error:
                self.notify(f"No openings: {error}", severity="error")
                return
        self.tournament = TournamentResult(game.name, game.title, specs, games, seed)
        self.query_one("#tournament-table", DataTable).clear(columns=True)
        self.query_one("#tournament-notes", Static).update("")
        self.query_one("#tournament-progress", ProgressBar).update(total=games * len(configs), progress=0)
        self.query_one("#tournament-status", Static).update("game 1…")
        self.runner.start("tournament", self._tournament_job(game, configs, openings, self.tournament))
        self._lock_form(True, "#tournament-table")
        self.refresh_bindings()

    @staticmethod
    def _tournament_job(game: GameAdapter, configs: list[ArenaConfig], openings: list | None,
                        shell: TournamentResult):
        def job(stop: threading.Event, progress) -> tuple[TournamentResult, bool]:
            began = time.perf_counter()
            done = 0
            series: list[ArenaResult] = []
            last = 0.0

            def on_game(record: GameRecord, so_far: ArenaResult) -> None:
                nonlocal done, last
                done += 1
                now = time.monotonic()
                if now - last >= PROGRESS_INTERVAL:
                    last = now
                    progress((done, list(series)))

            for config in configs:
                result = run_arena(game, config, openings=openings, stop=stop, on_game=on_game,
                                   make_player=player_factory(game))
                if result.cancelled or stop.is_set():
                    break
                series.append(result)
                progress((done, list(series)))
            tournament = TournamentResult(shell.game, shell.title, shell.specs, shell.games_per_pair, shell.seed,
                                          series, time.perf_counter() - began,
                                          datetime.now(timezone.utc).isoformat(timespec="seconds"))
            return tournament, len(series) < len(configs)

        return job

    def _tournament_progress(self, done: int, series: list[ArenaResult]) -> None:
        self.query_one("#tournament-progress", ProgressBar).update(progress=done)
        self.query_one("#tournament-status", Static).update(f"{done} games… x or Esc cancels")

    def _tournament_done(self, payload: tuple[TournamentResult, bool]) -> None:
        result, cancelled = payload
        self.tournament = result
        total = len(result.series) * result.games_per_pair
        if cancelled:
            status = f"cancelled after {len(result.series)} series"
        else:
            status = f"done: {total} games in {result.seconds:.1f} s"
            saved = [self.app.store.record_arena_run(run) for run in result.saved_runs()]
            if saved and all(saved):
                status += ", saved with the arena runs"
            for warning in self.app.store.take_warnings():
                self.notify(warning, title="Data file problem", severity="warning", timeout=10)
        # A cancelled tournament's finished series were played to the end: their games are kept.
        if result.series:
            self._archive(result.series, "Lab tournament game {number}")
        self.query_one("#tournament-status", Static).update(status)
        if not cancelled:
            self._fill_tournament(result)

    def _archive(self, runs: list[ArenaResult], event: str) -> None:
        """Keep the runs' games in the archive's Lab part (the Games screen's Lab games): ~12 ms
        a game to write (an fsync each), so in a thread, not between the run's end and the next key."""
        store = self.app.store
        self.app.run_worker(lambda: archive_arena_games(store, runs, event), thread=True, group="archive",
                            exit_on_error=False)

    def _fill_tournament(self, result: TournamentResult) -> None:
        table = self.query_one("#tournament-table", DataTable)
        table.clear(columns=True)
        headers, rows = result.rows(cross=len(result.specs) <= TOURNAMENT_CROSS)
        table.add_columns(*headers)
        for row in rows:
            table.add_row(*row)
        self.query_one("#tournament-notes", Static).update("\n".join(result.forfeit_notes()))

    # -- the comparison -------------------------------------------------------------------------------

    def _start_sweep(self) -> None:
        text = self.query_one("#compare-depth", Input).value.strip()
        try:
            top = int(text)
        except ValueError:
            top = 0
        if not 1 <= top <= MAX_SWEEP_DEPTH:
            self.notify(f"Depth must be from 1 to {MAX_SWEEP_DEPTH}.", severity="error", timeout=4)
            return
        position = self._compare_position()
        self.cells = []
        self.sweep_top = top
        # Kept for naming the moves: the Game choice may change while the sweep runs.
        self.sweep_position, self.sweep_game = position.copy(), self.game
        self.query_one("#compare-table", DataTable).clear()
        self.query_one("#compare-chart", SweepChart).show([], top)
        self.query_one("#compare-status", Static).update(f"depth 1: {CONFIGS[0].label}… x or Esc cancels")
        self.runner.start("compare", self._sweep_job(position, top, self.game))
        self._lock_form(True, "#compare-table")
        self.refresh_bindings()

    @staticmethod
    def _sweep_job(position: Any, top: int, game: Any):
        def job(stop: threading.Event, progress) -> list[SweepCell]:
            done: list[SweepCell] = []
            # The game's judge marks MCTS's moves where no depth solves the position: exact
            # for Connect-4 (its solver) and checkers endgames (the databases); elsewhere a
            # short engine verdict that is seldom exact, so it is given little time.
            judge = game.judge(game.variant_of(position), seconds=JUDGE_SECONDS)

            def on_cell(cell: SweepCell) -> None:
                # Each report carries every cell so far: only the newest need reach the screen.
                done.append(cell)
                progress(list(done))

            return sweep(position, range(1, top + 1), node_limit=DEFAULT_NODE_LIMIT, stop=stop, on_cell=on_cell,
                         mcts=True, judge=judge)

        return job

    def _sweep_progress(self, cells: list[SweepCell]) -> None:
        for cell in cells[len(self.cells):]:
            self._show_cell(cell)

    def _show_cell(self, cell: SweepCell) -> None:
        self.cells.append(cell)
        self.query_one("#compare-table", DataTable).add_row(*self._cell_row(cell))
        self.query_one("#compare-chart", SweepChart).show(self.cells, self.sweep_top)
        # Each depth runs every configuration, then MCTS at + deepening's budget.
        order = (*CONFIGS, MCTS_CONFIG)
        index = order.index(cell.config) + 1
        depth, nxt = (cell.depth, order[index]) if index < len(order) else (cell.depth + 1, order[0])
        if depth <= self.sweep_top:
            self.query_one("#compare-status", Static).update(f"depth {depth}: {nxt.label}… x or Esc cancels")

    def _cell_row(self, cell: SweepCell) -> list[str]:
        if cell.skipped:
            cells = ["skipped", "-", "-", "-", "-", "-"]
        else:
            move = self.sweep_game.move_text(self.sweep_position, cell.move) if cell.move is not None else "-"
            mcts = cell.config is MCTS_CONFIG
            if cell.stopped:
                value = "node limit"
            else:
                value = cell_value_words(cell) if mcts else score_text(cell.score, proven=cell.exact)
            if mcts and cell.best is not None:
                move = f"{move} {best_mark(cell)}"
            cells = [short_count(cell.nodes), "-" if mcts else short_count(cell.cutoffs),
                     "-" if mcts else short_count(cell.tt_hits), f"{cell.seconds * 1000:.0f} ms", value, move]
        return [str(cell.depth), cell.config.label, *cells]

    def _sweep_done(self, cells: list[SweepCell], cancelled: bool) -> None:
        self._sweep_progress(cells)
        # MCTS moves shown before a deeper search solved the position are judged now.
        table = self.query_one("#compare-table", DataTable)
        for row, cell in enumerate(cells):
            if cell.config is MCTS_CONFIG and cell.best is not None:
                table.update_cell_at(Coordinate(row, 7), self._cell_row(cell)[7])
        self.query_one("#compare-chart", SweepChart).show(self.cells, self.sweep_top)
        differ = [d for d, ok in values_agree(cells).items() if not ok]
        status = "cancelled" if cancelled else f"done, depths 1-{self.sweep_top}"
        status += (" · root values agree at every depth" if not differ
                   else f" · values DIFFER at depth {', '.join(map(str, differ))}")
        self.query_one("#compare-status", Static).update(status)
