"""The table stream's one reader on moto, through the real handler: a resolution whose delivery is
throttled is retried by the mapping while the schedules' cleanup, which succeeded on the same record,
is not run again; a cleanup that keeps failing is given up without holding the outbox back."""
# ruff: noqa: F811 (the escalation flow's fixtures, imported by name, are the tests' parameters)

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.durability_faults import TableStream, error_response, hooked
from tests.integration.test_escalation_flow import (  # noqa: F401 (fixtures)
    POLICY,
    approval,
    harness,
    inbox,
    requested,
    scheduler,
    schedules,
    vote,
)
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler


class Calls:
    """Counts a client's calls of one operation; refuses the first `refusals` of them."""

    def __init__(self, code: str = "ThrottlingException", refusals: int = 0) -> None:
        self.made, self.refusals, self.code = 0, refusals, code

    def __call__(self, **_: Any) -> Any:
        self.made += 1
        if self.refusals > 0:
            self.refusals -= 1
            return error_response(self.code)
        return None


def retried_from(records: list[dict[str, Any]], answer: dict[str, Any]) -> list[dict[str, Any]]:
    """What Lambda hands the function next: the batch from the first record it reported failed on."""
    failed = {entry["itemIdentifier"] for entry in answer["batchItemFailures"]}
    numbers = [r["dynamodb"]["SequenceNumber"] for r in records]
    return records[min(numbers.index(n) for n in failed) :] if failed else []


@pytest.fixture
def clients(scheduler: Any) -> Iterator[dict[str, Any]]:
    from waitgate.wiring import composition

    yield {"sfn": composition.aws_client("stepfunctions"), "scheduler": composition.aws_client("scheduler")}


def test_a_throttled_delivery_is_retried_without_running_the_cleanup_again(
    harness: WorkflowHarness, clients: dict[str, Any], table_name: str
) -> None:
    # Given an approval with a deadline and two steps (three schedules), its resolution's inline send
    # and the outbox's first send throttled
    run = requested(harness, {**approval(approversList=["alice"]), "timeoutMs": 3_600_000}, POLICY)
    stream = TableStream(table_name)
    sends, deletes = Calls(refusals=2), Calls()
    with (
        hooked(clients["sfn"], "before-call.sfn.SendTaskSuccess", sends),
        hooked(clients["scheduler"], "before-call.scheduler.DeleteSchedule", deletes),
    ):
        assert vote(run, "alice")[0] == 200
        batch = stream.next_batch()
        reader = Handler("dispatch_stream")
        # When the stream's reader gets the resolving commit, Then that record fails (the outbox)
        first = reader(batch)["batchItemFailures"]
        assert len(first) == 1
        # And the cleanup deleted the three schedules on it
        assert (deletes.made, schedules(clients["scheduler"])) == (3, {})
        # When the mapping retries from that record (another instance), Then it goes through
        retried = retried_from(batch["Records"], {"batchItemFailures": first})
        assert Handler("dispatch_stream")({"Records": retried}) == {"batchItemFailures": []}
    # And the answer reached the workflow once, and the cleanup ran no second time
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"])["action"] == "accept"
    assert (sends.made, deletes.made) == (3, 3)


def test_a_cleanup_that_keeps_failing_is_given_up_and_the_delivery_goes_on(
    harness: WorkflowHarness, clients: dict[str, Any], table_name: str
) -> None:
    # Given every DeleteSchedule throttled, and the inline send too (so the outbox has work)
    run = requested(harness, {**approval(approversList=["alice"]), "timeoutMs": 3_600_000}, POLICY)
    stream = TableStream(table_name)
    sends, deletes = Calls(refusals=1), Calls(refusals=1000)
    with (
        hooked(clients["sfn"], "before-call.sfn.SendTaskSuccess", sends),
        hooked(clients["scheduler"], "before-call.scheduler.DeleteSchedule", deletes),
    ):
        assert vote(run, "alice")[0] == 200
        records = stream.next_batch()["Records"]
        # When the mapping delivers the batch, then retries it from the failed record, as Lambda
        # does (1 + 3 retries: the cleanup's budget)
        answers = []
        for _ in range(4):
            answers.append(Handler("dispatch_stream")({"Records": records}))
            records = retried_from(records, answers[-1])
    # Then the outbox delivered on the first, the cleanup was given up on the fourth
    assert [len(a["batchItemFailures"]) for a in answers] == [1, 1, 1, 0]
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"])["action"] == "accept"
    assert sends.made == 2  # the inline send, and the outbox's once: never again on the retries
