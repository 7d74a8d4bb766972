"""Runs engine jobs in a thread worker and reports back with messages.

One job at a time: starting a job cancels the one before. Every message carries the
generation it belongs to, so a result that arrives after a cancel (the job finished just
as the user pressed undo) is recognised as stale and ignored. :meth:`EngineRunner.stop` is
the other way to end a job early: it asks the job to wrap up, and what it returns (a
search's best so far, an arena's games so far) still arrives as ``Finished``.

Game screens and the Lab run every engine job through it.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from textual import work
from textual.message import Message
from textual.widget import Widget

# job(stop, on_progress) -> payload; on_progress takes a SearchStats (or whatever the
# screen that started the job expects for that tag).
Job = Callable[[threading.Event, Callable[[Any], None]], Any]


class _Once:
    """A job handed to the worker thread, which takes it out: Textual frees a finished worker
    only at a full collection (the worker and its task's context refer to each other), which a
    long-lived app runs rarely, and a job's closure holds its player (a Connect-4 solver's
    32 MB table, a checkers engine's), so the worker must not keep the job."""

    def __init__(self, job: Job) -> None:
        self._job: Job | None = job

    def take(self) -> Job | None:
        job, self._job = self._job, None
        return job


class EngineRunner(Widget):
    DEFAULT_CSS = "EngineRunner { display: none; }"

    class Progress(Message):
        def __init__(self, generation: int, tag: str, stats: Any) -> None:
            super().__init__()
            self.generation, self.tag, self.stats = generation, tag, stats

        def can_replace(self, message: Message) -> bool:
            # Only the newest progress report matters; older ones still queued are dropped.
            return isinstance(message, EngineRunner.Progress) and message.generation == self.generation

    class Finished(Message):
        def __init__(self, generation: int, tag: str, payload: Any) -> None:
            super().__init__()
            self.generation, self.tag, self.payload = generation, tag, payload

    class Failed(Message):
        def __init__(self, generation: int, tag: str, error: BaseException) -> None:
            super().__init__()
            self.generation, self.tag, self.error = generation, tag, error

    def __init__(self) -> None:
        super().__init__()
        self.generation = 0
        self.tag: str | None = None
        self._stop: threading.Event | None = None

    @property
    def busy(self) -> bool:
        return self.tag is not None

    def start(self, tag: str, job: Job) -> None:
        self.cancel()
        self.generation += 1
        self.tag = tag
        self._stop = threading.Event()
        self._run(self.generation, tag, _Once(job), self._stop)

    def stop(self) -> None:
        """Ask the running job to finish early; its result still counts."""
        if self._stop is not None:
            self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop is not None and self._stop.is_set()

    def cancel(self) -> None:
        """Stop the running job at once; its result, if any still arrives, is stale."""
        if self._stop is not None:
            self._stop.set()
        self.generation += 1
        self.tag = None

    def is_current(self, message: "EngineRunner.Progress | EngineRunner.Finished | EngineRunner.Failed") -> bool:
        return message.generation == self.generation

    def done(self, message: "EngineRunner.Progress | EngineRunner.Finished | EngineRunner.Failed") -> bool:
        """Call from a Finished/Failed handler: True if the message is current (and clears busy)."""
        if self.is_current(message):
            self.tag = None
            return True
        return False

    @work(thread=True, exclusive=True, group="engine", exit_on_error=False)
    def _run(self, generation: int, tag: str, once: _Once, stop: threading.Event) -> None:
        def progress(stats: Any) -> None:
            if not stop.is_set():
                self.post_message(self.Progress(generation, tag, stats))

        job = once.take()
        if job is None:
            return
        try:
            payload = job(stop, progress)
        except Exception as error:  # a bug in a job must reach the screen, not kill the app
            self.post_message(self.Failed(generation, tag, error))
            return
        # After a cancel the generation has moved on and the handler drops this as stale.
        self.post_message(self.Finished(generation, tag, payload))
