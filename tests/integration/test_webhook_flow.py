"""Webhooks in, on moto (docs/webhooks.md): real executions suspend on external-event waits, signed
deliveries go through receive_webhook, and what they do shows in the runs, their logs and the
source's listing. Every event stored is checked against the event payload schemas."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.kind_steps import KindSteps, types_of
from tests.integration.webhook_steps import WebhookSteps, configure_sources, waiting_for
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.event_schema import problems_of, stored_events
from tests.support.webhook_senders import signed_delivery, stripe_event

SETTLED = "payment.settled"


@pytest.fixture
def steps(
    environment: None, dynamodb: Any, table_name: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[WebhookSteps]:
    sources = configure_sources(monkeypatch)
    yield WebhookSteps(KindSteps(WorkflowHarness()), sources)
    assert problems_of(stored_events(dynamodb, table_name)) == []


def items_with_prefix(dynamodb: Any, table_name: str, prefix: str) -> list[dict[str, Any]]:
    """The table's items whose pk starts with `prefix` (a Scan: fine for a test table)."""
    found = dynamodb.scan(TableName=table_name)["Items"]
    return [item for item in found if item["pk"]["S"].startswith(prefix)]


def test_a_standard_webhooks_event_resolves_the_wait_its_data_correlates_with(steps: WebhookSteps) -> None:
    # Given a run waiting for payment.settled of order o-1
    run, outcome = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-1"}))
    assert outcome["status"] == "requested"
    # When the source delivers that event, its data holding more than the correlation
    event = {"type": SETTLED, "data": {"orderId": "o-1", "amount": 1999}}
    status, receipt = steps.deliver("standard", event)
    # Then it is matched, and the workflow goes on with the body
    assert (status, receipt["status"], receipt["resolved"]) == (200, "matched", 1)
    assert steps.kinds.output_of(run) == event
    assert types_of(steps.kinds.events(run.run_id, "updates")) == [
        "interrupt.requested",
        "interrupt.resolved",
    ]
    matched = [e for e in steps.kinds.events(run.run_id, "debug") if e["type"] == "webhook.matched"]
    assert [m["payload"]["early"] for m in matched] == [False]


def test_a_stripe_event_resumes_with_its_object_and_github_numbers_correlate(steps: WebhookSteps) -> None:
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-1"}))
    event = stripe_event(SETTLED, {"orderId": "o-1"})
    assert steps.deliver("stripe", event)[1]["status"] == "matched"
    assert steps.kinds.output_of(run) == event["data"]["object"]
    # And a GitHub pull request, by its number (an integer) and action, from the header's event type
    pull, _ = steps.kinds.suspend(waiting_for("pull_request", {"number": "42", "action": "closed"}, key="pr"))
    merged = {"action": "closed", "number": 42, "pull_request": {"merged": True}}
    status, receipt = steps.deliver("github", merged, event_type="pull_request")
    assert (status, receipt["status"]) == (200, "matched")
    assert steps.kinds.output_of(pull) == merged


def test_an_event_for_another_order_resolves_nothing_and_is_listed_unmatched(steps: WebhookSteps) -> None:
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-1"}))
    status, receipt = steps.deliver("standard", {"type": SETTLED, "data": {"orderId": "o-2"}})
    assert (status, receipt["status"]) == (200, "kept")
    assert steps.kinds.snapshot(run.run_id)[1]["status"] == "waiting-external"
    status, listed = steps.listed("standard", status="unmatched")
    assert status == 200
    assert [(e["type"], e["data"], e["status"]) for e in listed["events"]] == [
        (SETTLED, {"orderId": "o-2"}, "unmatched")
    ]
    # And another tenant lists nothing of this source
    assert steps.listed("standard", tenant="acme")[1]["events"] == []


def test_an_event_that_came_early_resolves_the_wait_the_moment_it_is_asked(
    steps: WebhookSteps, dynamodb: Any, table_name: str
) -> None:
    # Given the event delivered before anything waits for it
    event = {"type": SETTLED, "data": {"orderId": "o-early"}}
    assert steps.deliver("standard", event)[1]["status"] == "kept"
    # When a run asks for it (a plain-string correlation names the member "id")
    run, outcome = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-early"}))
    # Then the run goes on at once with the event: requested, then resolved; the debug log says early
    assert outcome["status"] == "requested"
    assert steps.kinds.output_of(run) == event
    assert types_of(steps.kinds.events(run.run_id, "updates")) == [
        "interrupt.requested",
        "interrupt.resolved",
    ]
    matched = [e for e in steps.kinds.events(run.run_id, "debug") if e["type"] == "webhook.matched"]
    assert [m["payload"]["early"] for m in matched] == [True]
    # And the event satisfied that one wait only: a second wait for it keeps waiting
    second, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-early"}))
    assert steps.kinds.snapshot(second.run_id)[1]["status"] == "waiting-external"
    assert [e["status"] for e in steps.listed("standard")[1]["events"]] == ["matched"]
    # And no wait's correlation entry is left behind by the ended one
    waiting = items_with_prefix(dynamodb, table_name, "WAIT#")
    assert [item["runId"]["S"] for item in waiting] == [second.run_id]


def test_a_plain_string_correlation_is_the_member_id(steps: WebhookSteps) -> None:
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, "ord_7"))
    requested = steps.kinds.events(run.run_id, "updates")[0]
    assert requested["payload"]["data"]["correlation"] == {"id": "ord_7"}
    assert steps.deliver("hmac", {"type": SETTLED, "data": {"id": "ord_7"}})[1]["status"] == "matched"
    assert steps.kinds.output_of(run)["data"] == {"id": "ord_7"}


def test_the_same_event_delivered_three_times_resolves_once(steps: WebhookSteps) -> None:
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-3"}))
    event = {"type": SETTLED, "data": {"orderId": "o-3"}}
    raw, headers = signed_delivery(steps.sources["standard"], event, delivery_id="msg_same")
    receipts = [steps.post("standard", raw, headers) for _ in range(3)]
    assert [(status, body["status"]) for status, body in receipts] == [
        (200, "matched"),
        (200, "duplicate"),
        (200, "duplicate"),
    ]
    assert types_of(steps.kinds.events(run.run_id, "updates")).count("interrupt.resolved") == 1


def test_forged_stale_wrong_secret_and_unknown_source_get_one_401_and_store_nothing(
    steps: WebhookSteps, dynamodb: Any, table_name: str
) -> None:
    event = {"type": SETTLED, "data": {"orderId": "o-4"}}
    before = dynamodb.scan(TableName=table_name)["Count"]
    refusals = [
        steps.deliver("standard", event, secret="whsec_" + "d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA=="),
        steps.deliver("standard", event, timestamp=int(time.time()) - 3600),
        steps.deliver("stripe", stripe_event(SETTLED, {"orderId": "o-4"}), secret="whsec_wrong"),
        steps.deliver("stripe", stripe_event(SETTLED, {"orderId": "o-4"}), timestamp=int(time.time()) - 301),
        steps.deliver("github", event, secret="not-it"),
        steps.deliver("hmac", event, secret="not-it"),
        steps.post("nobody", *signed_delivery(steps.sources["hmac"], event)),
        steps.post("standard", json.dumps(event).encode(), {"webhook-id": "x", "webhook-timestamp": "1"}),
    ]
    assert {status for status, _ in refusals} == {401}
    assert len({json.dumps(body) for _, body in refusals}) == 1
    assert dynamodb.scan(TableName=table_name)["Count"] == before


def test_during_a_rotation_either_secret_signs(steps: WebhookSteps, monkeypatch: pytest.MonkeyPatch) -> None:
    import boto3

    from waitgate.adapters.webhook_sources import WebhookSourceStore
    from waitgate.webhooks.sources import parse_source

    dynamodb, secrets = boto3.client("dynamodb"), boto3.client("secretsmanager")
    store = WebhookSourceStore(
        lambda: dynamodb, lambda: secrets, "waitgate-directory-test", "waitgate-test/webhooks/"
    )
    store.put(
        parse_source({"name": "github", "scheme": "github", "typePath": "type"}),
        ("new-secret", "github-test-secret"),
    )
    steps.kinds.handlers.pop("receive_webhook", None)  # a new Lambda instance reads the secrets again
    from waitgate.wiring import webhook_composition

    webhook_composition.webhook_sources.cache_clear()
    for secret in ("new-secret", "github-test-secret"):
        status, _ = steps.deliver("github", {"type": "push", "ref": secret}, secret=secret)
        assert status == 200
    assert steps.deliver("github", {"type": "push"}, secret="old-secret")[0] == 401


def test_a_value_the_resume_schema_refuses_is_recorded_and_the_wait_stays(steps: WebhookSteps) -> None:
    schema = {"type": "object", "required": ["data"], "properties": {"data": {"required": ["amount"]}}}
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-5"}, resumeSchema=schema))
    status, receipt = steps.deliver("standard", {"type": SETTLED, "data": {"orderId": "o-5"}})
    assert (status, receipt["status"]) == (200, "kept")
    assert steps.kinds.snapshot(run.run_id)[1]["status"] == "waiting-external"
    (listed,) = steps.listed("standard", status="unmatched")[1]["events"]
    assert (listed["refusal"]["runId"], listed["refusal"]["code"]) == (run.run_id, "validation_error")
    # And a later event that fits resolves it
    good = {"type": SETTLED, "data": {"orderId": "o-5", "amount": 10}}
    assert steps.deliver("standard", good)[1]["status"] == "matched"
    assert steps.kinds.output_of(run) == good


def test_one_event_resolves_the_first_wait_unless_the_source_says_many(steps: WebhookSteps) -> None:
    first, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-6"}))
    second, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-6"}))
    assert steps.deliver("standard", {"type": SETTLED, "data": {"orderId": "o-6"}})[1]["resolved"] == 1
    steps.kinds.output_of(first)
    assert steps.kinds.snapshot(second.run_id)[1]["status"] == "waiting-external"
    # And a source whose events may satisfy several resolves every wait, later ones too
    waits = [steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-7"}))[0] for _ in range(2)]
    assert steps.deliver("many", {"type": SETTLED, "data": {"orderId": "o-7"}})[1]["resolved"] == 2
    later, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-7"}))
    for run in [*waits, later]:
        assert steps.kinds.output_of(run)["data"] == {"orderId": "o-7"}


def test_events_of_another_tenants_source_never_resolve_this_tenants_waits(steps: WebhookSteps) -> None:
    run, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-8"}))
    assert steps.deliver("other-tenant", {"type": SETTLED, "data": {"orderId": "o-8"}})[1]["status"] == "kept"
    assert steps.kinds.snapshot(run.run_id)[1]["status"] == "waiting-external"
    theirs, _ = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-8"}), tenant="acme")
    assert steps.kinds.output_of(theirs)["data"] == {"orderId": "o-8"}


def test_a_verified_body_that_is_not_an_event_is_400_and_stores_nothing(
    steps: WebhookSteps, dynamodb: Any, table_name: str
) -> None:
    before = dynamodb.scan(TableName=table_name)["Count"]
    for body in (b"not json", b"[1, 2]", json.dumps({"data": {"orderId": "x"}}).encode()):
        status, problem = steps.deliver("hmac", body)
        assert (status, problem["code"]) == (400, "validation_error")
    assert dynamodb.scan(TableName=table_name)["Count"] == before


def test_an_expired_wait_leaves_the_correlation_index_and_its_event_stays_kept(
    steps: WebhookSteps, dynamodb: Any, table_name: str
) -> None:
    # Given a wait with a deadline, indexed by its correlation
    run, outcome = steps.kinds.suspend(waiting_for(SETTLED, {"orderId": "o-9"}, timeoutMs=1000))
    assert len(items_with_prefix(dynamodb, table_name, "WAIT#")) == 1
    # When its deadline passes (the schedule invokes expire_interrupt)
    time.sleep(1.1)
    event = {
        "tenantId": "default",
        "runId": run.run_id,
        "nodeId": "Interrupt",
        "interruptId": outcome["interruptId"],
    }
    assert steps.kinds.handler("expire_interrupt")(event)["result"] == "expired"
    # Then the index entry went with it, and a late event is kept, not applied to the ended wait
    assert items_with_prefix(dynamodb, table_name, "WAIT#") == []
    assert steps.deliver("standard", {"type": SETTLED, "data": {"orderId": "o-9"}})[1]["status"] == "kept"
