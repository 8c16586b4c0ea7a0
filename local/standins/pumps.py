"""Background pumps: what AWS does on its own that moto never does (e.g. firing due schedules).

A pump is a function called every `interval_seconds` on its own thread until the stack stops (and
its `final_tick`, if any, once as it stops, so nothing waiting is left behind). Add one by appending
a factory to `local.stack.PUMP_FACTORIES`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)


@dataclass
class Pump:
    name: str
    tick: Callable[[], None]
    interval_seconds: float = 1.0
    final_tick: Callable[[], None] | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"pump-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.final_tick is not None:
            self._tick_once(self.final_tick)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_seconds):
            self._tick_once(self.tick)

    def _tick_once(self, tick: Callable[[], None]) -> None:
        try:
            tick()
        except Exception as error:
            logger.error("pump %s failed: %s: %s", self.name, type(error).__name__, error)
            logger.debug("pump %s failed", self.name, exc_info=error)
