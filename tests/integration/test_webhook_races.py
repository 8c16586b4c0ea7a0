"""Races, with real threads on moto: an event arriving while its wait is being requested is never lost
nor applied twice; a webhook racing a person's resolve gives exactly one resolution."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.integration.kind_steps import KindSteps, types_of
from tests.integration.webhook_steps import WebhookSteps, configure_sources, waiting_for
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.event_schema import problems_of, stored_events

SETTLED = "payment.settled"
ROUNDS = 8


@pytest.fixture
def steps(
    environment: None, dynamodb: Any, table_name: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[WebhookSteps]:
    sources = configure_sources(monkeypatch)
    yield WebhookSteps(KindSteps(WorkflowHarness()), sources)
    assert problems_of(stored_events(dynamodb, table_name)) == []


def at_once(*actions: Callable[[], Any]) -> list[Any]:
    """Run the actions on threads released together; their results in order (an exception re-raised)."""
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run(index: int, action: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            results[index] = action()
        except BaseException as error:  # re-raised on the test's thread
            results[index] = error

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_event_racing_its_wait_resolves_it_exactly_once(steps: WebhookSteps, round_: int) -> None:
    # Given an execution whose task is about to ask for the wait, and the event on its way
    order = f"race-{round_}"
    run = steps.kinds.harness.suspend(waiting_for(SETTLED, {"orderId": order}))
    event = {"type": SETTLED, "data": {"orderId": order, "round": round_}}
    # When the request and the delivery happen at the same time
    requested, (status, _) = at_once(
        lambda: steps.kinds.handler("request_interrupt")(run.task_event),
        lambda: steps.deliver("standard", event),
    )
    # Then the wait was resolved with the event, once: whichever side saw the other
    assert requested["status"] == "requested" and status == 200
    assert steps.kinds.output_of(run) == event
    updates = types_of(steps.kinds.events(run.run_id, "updates"))
    assert updates == ["interrupt.requested", "interrupt.resolved"]
    debug = steps.kinds.events(run.run_id, "debug")
    flags = [e["payload"]["early"] for e in debug if e["type"] == "webhook.matched"]
    assert flags in ([True], [False])
    assert [e["status"] for e in steps.listed("standard")[1]["events"] if e["data"]["orderId"] == order] == [
        "matched"
    ]


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_webhook_racing_a_resolve_gives_exactly_one_resolution(steps: WebhookSteps, round_: int) -> None:
    order = f"duel-{round_}"
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": order}))
    event = {"type": SETTLED, "data": {"orderId": order}}
    by_hand = {"type": SETTLED, "data": {"orderId": order, "by": "hand"}}
    (hook_status, receipt), (resolve_status, _) = at_once(
        lambda: steps.deliver("standard", event),
        lambda: steps.kinds.resolve(run.run_id, "Interrupt", by_hand),
    )
    assert hook_status == 200 and resolve_status in (200, 409)
    output = steps.kinds.output_of(run)
    assert types_of(steps.kinds.events(run.run_id, "updates")).count("interrupt.resolved") == 1
    # Whoever won is what the workflow got; the loser changed nothing
    if resolve_status == 200:
        assert (output, receipt["status"]) == (by_hand, "kept")
    else:
        assert (output, receipt["status"]) == (event, "matched")
