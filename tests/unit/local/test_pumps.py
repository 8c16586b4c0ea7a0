"""The stack's pumps: a wake-up ticks at once, and a stack's pumps are stopped together."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from local.standins.pumps import Pump, stop_all

LONG = 3600.0  # an interval no test waits out


def test_a_woken_pump_ticks_without_waiting_out_its_interval() -> None:
    # Given a pump that ticks once an hour
    ticked = threading.Event()
    pump = Pump("woken", ticked.set, interval_seconds=LONG)
    pump.start()
    try:
        # When something wakes it, Then it ticks
        pump.wake()
        assert ticked.wait(timeout=60)
    finally:
        pump.stop()


def test_stop_all_tells_every_pump_before_it_waits_for_any() -> None:
    # Given a pump in a tick that waits (a long poll, say) and a second pump
    release = threading.Event()
    ticking = threading.Event()

    def long_poll() -> None:
        ticking.set()
        release.wait(timeout=60)

    first = Pump("first", long_poll, interval_seconds=0)
    second = Pump("second", lambda: None, interval_seconds=LONG)
    first.start()
    second.start()
    assert ticking.wait(timeout=60)
    # When both are stopped together
    stopper = threading.Thread(target=stop_all, args=([first, second],))
    stopper.start()
    # Then the second is told to stop while the first is still in its tick
    assert wait_until(lambda: second.stopping)
    assert stopper.is_alive()
    # And both end once the first tick returns
    release.set()
    stopper.join(timeout=60)
    assert not stopper.is_alive()


def wait_until(condition: Callable[[], bool], bound_seconds: float = 60) -> bool:
    deadline = time.monotonic() + bound_seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_final_ticks_run_in_the_pumps_order_after_every_thread_ended() -> None:
    # Given three pumps with a final tick each
    order: list[str] = []
    pumps = [
        Pump(name, lambda: None, interval_seconds=LONG, final_tick=lambda name=name: order.append(name))
        for name in ("schedules", "inbox", "autosave")
    ]
    for pump in pumps:
        pump.start()
    # When they stop together, Then the final ticks run once each, the autosave's last
    stop_all(pumps)
    assert order == ["schedules", "inbox", "autosave"]


def test_a_failing_tick_does_not_end_the_pump() -> None:
    # Given a pump whose first tick fails
    calls: list[int] = []

    def tick() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("moto is not up yet")

    pump = Pump("flaky", tick, interval_seconds=LONG)
    pump.start()
    try:
        # When it is woken after the failure, Then it ticks again
        assert wait_until(lambda: bool(pump.wake() or len(calls) >= 2))
    finally:
        pump.stop()


def test_a_tick_that_asks_to_come_back_soon_is_not_kept_to_its_interval() -> None:
    # Given a pump that ticks once an hour, whose first tick asks for the next one at once
    calls: list[int] = []

    def tick() -> float | None:
        calls.append(1)
        return 0.0 if len(calls) == 1 else None

    pump = Pump("due soon", tick, interval_seconds=LONG)
    pump.wake()  # its first tick at once
    pump.start()
    try:
        # Then it ticks a second time with nobody waking it (a schedule came due, say)
        assert wait_until(lambda: len(calls) >= 2)
    finally:
        pump.stop()
    assert len(calls) == 2  # and then keeps to its interval


def test_a_pump_waiting_for_news_stops_at_once() -> None:
    # Given a pump waiting an hour for its next tick (an idle SQS poller, say)
    pump = Pump("idle", lambda: None, interval_seconds=LONG)
    pump.start()
    # When it is stopped / Then its thread ends without waiting out the hour
    stopper = threading.Thread(target=pump.stop)
    stopper.start()
    stopper.join(timeout=60)
    assert not stopper.is_alive()
