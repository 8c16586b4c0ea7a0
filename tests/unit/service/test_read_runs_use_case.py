"""getRun and listRunEvents on in-memory ports: the snapshot, the log in pages and modes, the query's
rules by parameter, and another tenant's run is as absent as one that never was."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.service.world import ACCEPT, APPROVAL, CUSTOM, RUN, World
from waitgate.errors import NotFoundError, ValidationFailedError
from waitgate.run.records import RunRef
from waitgate.service.read_runs import DEFAULT_PAGE, MAX_PAGE, EventsQuery, get_run, list_events
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run

ACME = RunRef("acme", "run-1")


@pytest.fixture
def world() -> World:
    return World()


def events(world: World, run: RunRef = RUN, **query: str) -> dict[str, Any]:
    parsed = EventsQuery.parse(run, query.get("mode"), query.get("after"), query.get("limit"))
    return list_events(parsed, world.store)


def seqs(page: dict[str, Any]) -> list[int]:
    return [event["seq"] for event in page["events"]]


def test_a_waiting_run_names_its_node_and_pending_interrupt(world: World) -> None:
    world.request(APPROVAL)
    assert get_run(RUN, world.store) == {
        "runId": "run-1",
        "tenantId": "default",
        "status": "waiting-approval",
        "currentNodeId": "Gate",
        "pendingInterrupt": {
            "interruptId": world.interrupt().interrupt_id,
            "nodeId": "Gate",
            "kind": "approval",
        },
    }


def test_a_run_that_goes_on_or_ended_names_no_node(world: World) -> None:
    world.request(CUSTOM)
    world.resolve({"label": "ok"})
    assert get_run(RUN, world.store) == {"runId": "run-1", "tenantId": "default", "status": "running"}
    end_run(RUN, "completed", "SUCCEEDED", LifecycleDependencies(world.store, world.index, world.clock))
    assert get_run(RUN, world.store)["status"] == "completed"


def test_a_question_keeps_the_run_waiting_at_its_node(world: World) -> None:
    world.request({**APPROVAL, "data": {**APPROVAL["data"], "actions": ["accept", "ask"]}})
    world.resolve({"action": "ask", "feedback": "Which region?", "decidedAt": "2026-11-30T10:00:00Z"})
    assert get_run(RUN, world.store)["pendingInterrupt"]["nodeId"] == "Gate"


def test_another_tenants_run_and_an_unknown_one_are_404(world: World) -> None:
    world.request(CUSTOM, run=ACME)
    for reader in (lambda: get_run(RUN, world.store), lambda: events(world)):
        with pytest.raises(NotFoundError):
            reader()
    with pytest.raises(NotFoundError):
        get_run(RunRef("acme", "run-2"), world.store)
    assert get_run(ACME, world.store)["tenantId"] == "acme"


def test_the_updates_stream_leaves_out_the_debug_events(world: World) -> None:
    # Given a resolved approval whose log has a delivery-failed event (debug)
    world.request(APPROVAL)
    world.workflow.gone.add("task-1")
    world.resolve(ACCEPT)
    types = world.types()
    assert "interrupt.delivery_failed" in types
    # Then updates shows the durable events, debug all of them, in seq order
    updates = events(world)
    durable = [event_type for event_type in types if event_type != "interrupt.delivery_failed"]
    assert [event["type"] for event in updates["events"]] == durable
    assert seqs(events(world, mode="debug")) == list(range(1, len(types) + 1))
    assert updates["events"][0] == world.log()[0].to_json()


def test_events_are_read_in_pages_with_next(world: World) -> None:
    # Given a run of five events
    world.request(APPROVAL)
    world.resolve(ACCEPT)
    world.request({**CUSTOM, "key": "x"}, node="Next", token="task-2")
    assert len(world.log()) == 5
    # Then pages of two go 1-2, 3-4, 5 with next pointing past each full page
    first = events(world, limit="2")
    assert (seqs(first), first["next"]) == ([1, 2], 2)
    second = events(world, limit="2", after="2")
    assert (seqs(second), second["next"]) == ([3, 4], 4)
    assert events(world, limit="2", after="4") == {"events": [events(world)["events"][4]]}
    assert events(world, after="5") == {"events": []}
    assert events(world, after="999") == {"events": []}


def test_reads_never_write(world: World) -> None:
    world.request(APPROVAL)
    commits = world.store.commits
    get_run(RUN, world.store)
    events(world, mode="debug")
    assert world.store.commits == commits


def test_the_query_defaults(world: World) -> None:
    assert EventsQuery.parse(RUN, None, None, None) == EventsQuery(RUN, "updates", 0, DEFAULT_PAGE)
    assert EventsQuery.parse(RUN, "", "", "") == EventsQuery(RUN, "updates", 0, DEFAULT_PAGE)
    assert EventsQuery.parse(RUN, "debug", "7", str(MAX_PAGE)) == EventsQuery(RUN, "debug", 7, MAX_PAGE)


@pytest.mark.parametrize(
    ("mode", "after", "limit", "path"),
    [
        ("verbose", None, None, "mode"),
        ("UPDATES", None, None, "mode"),
        (None, "-1", None, "after"),
        (None, "x", None, "after"),
        (None, "1.5", None, "after"),
        (None, "١", None, "after"),  # a digit, but not an ASCII one
        (None, "1" * 13, None, "after"),
        (None, None, "0", "limit"),
        (None, None, str(MAX_PAGE + 1), "limit"),
        (None, None, " 5", "limit"),
    ],
)
def test_a_malformed_query_is_400_naming_the_parameter(
    mode: str | None, after: str | None, limit: str | None, path: str
) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        EventsQuery.parse(RUN, mode, after, limit)
    assert refused.value.extensions["path"] == path
