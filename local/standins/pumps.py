"""Background pumps: what AWS does on its own that moto never does (e.g. firing due schedules).

A pump is a function called on its own thread until the stack stops: every `interval_seconds`, and
at once when something `wake`s it (an execution that ended, say: local.patches.moto_news); a tick may
return how many seconds it wants to wait at most before the next one (until a schedule comes due), and
a pump whose tick waits by itself (an SQS long poll) has an interval of 0. So a pump waits for work
instead of asking for it several times a second. Its `final_tick`, if any, runs once as it stops, so
nothing waiting is left behind. `stop_all` stops a stack's pumps together: every one is told first, then
each is waited for, so stopping takes as long as the slowest tick, not their sum. Add one with a
line in `local.stack.LocalStack._make_pumps` that hands its factory what it reads (a client, the
stack's context, a log), never the stack itself: no stand-in imports `local.stack` (pyproject.toml).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)
JOIN_SECONDS = 10
PAUSE_AFTER_FAILURE_SECONDS = 1.0  # a failing tick that waits for nothing is not retried in a tight loop


@dataclass
class Pump:
    name: str
    tick: Callable[[], float | None]  # returns None, or the most seconds to wait before the next tick
    interval_seconds: float = 1.0
    final_tick: Callable[[], None] | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _wake: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"pump-{self.name}", daemon=True)
        self._thread.start()

    @property
    def stopping(self) -> bool:
        """Told to stop (by `stop` or `stop_all`)."""
        return self._stop.is_set()

    def wake(self) -> None:
        """Tick now, not at the end of the interval (safe from any thread)."""
        self._wake.set()

    def stop(self) -> None:
        stop_all([self])

    def _tell_to_stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def _finish(self) -> None:
        if self._thread is not None:
            self._thread.join(timeout=JOIN_SECONDS)
        if self.final_tick is not None:
            self._tick_once(self.final_tick)

    def _run(self) -> None:
        wait = self.interval_seconds
        while not self._stop.is_set():
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            ticked, soon = self._tick_once(self.tick)
            if not ticked and self.interval_seconds < PAUSE_AFTER_FAILURE_SECONDS:
                self._stop.wait(PAUSE_AFTER_FAILURE_SECONDS)
            wait = self.interval_seconds if soon is None else max(0.0, min(self.interval_seconds, soon))

    def _tick_once(self, tick: Callable[[], float | None]) -> tuple[bool, float | None]:
        """Whether the tick ran without raising, and how soon it wants the next."""
        try:
            return True, tick()
        except Exception as error:
            logger.error("pump %s failed: %s: %s", self.name, type(error).__name__, error)
            logger.debug("pump %s failed", self.name, exc_info=error)
            return False, None


def stop_all(pumps: Iterable[Pump]) -> None:
    """Every pump told to stop, then each one's thread waited for and its final tick run, in order."""
    pumps = list(pumps)
    for pump in pumps:
        pump._tell_to_stop()
    for pump in pumps:
        pump._finish()
