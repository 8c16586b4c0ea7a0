"""Every non-approval kind on the local stack through its sample workflow (statemachines/), over HTTP:
suspend, the snapshot's status, resolve (invalid, then valid), the execution's output, the events in
both modes, and every event validated against schemas/v2/run-event-payloads.schema.json."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.waiting import wait_for
from tests.support.event_schema import problems_of

pytestmark = pytest.mark.e2e


_tokens: dict[tuple[str, str, str, str | None], str] = {}
# The outbox's records of a delivery (debug mode only). Whether one is written, and whether before or
# after the run's end, depends on which of the two senders reached Step Functions first (the resolver
# right after its commit, or the stream consumer): docs/durability.md promises no order between them.
DELIVERY_RECORDS = frozenset({"interrupt.delivered", "interrupt.delivery_failed"})
# The channels' records of each notice (docs/channels.md) come after the request they announce, in
# whatever order the deliverers' writes land.
NOTIFICATION_RECORDS = frozenset({"notification.sent", "notification.failed", "notification.skipped"})


def token_for(stack: LocalStackHandle, sub: str, scopes: str, tenant: str | None = None) -> str:
    """`waitgate dev-jwt` is a subprocess: one token per caller and stack is enough."""
    key = (stack.api_url, sub, scopes, tenant)
    if key not in _tokens:
        _tokens[key] = stack.jwt(sub, scopes, tenant=tenant)
    return _tokens[key]


def new_run_id(machine: str) -> str:
    return f"{machine}-{uuid.uuid4().hex[:12]}"


class SampleRun:
    """One execution of a sample workflow, read and resolved over the stack's HTTP API."""

    def __init__(
        self, stack: LocalStackHandle, machine: str, run_input: dict[str, Any], run_id: str | None = None
    ) -> None:
        self.stack = stack
        self.run_id = run_id or new_run_id(machine)
        self.execution_arn = stack.sfn.start_execution(
            stateMachineArn=stack.state_machines[machine], name=self.run_id, input=json.dumps(run_input)
        )["executionArn"]

    def snapshot(self, tenant: str | None = None) -> tuple[int, Any]:
        answer = self.stack.http.get(
            f"/runs/{self.run_id}", token=token_for(self.stack, "reader", "runs:read", tenant)
        )
        return answer.status, answer.json()

    def suspended_at(self, node_id: str) -> dict[str, Any]:
        """The snapshot once the run waits at `node_id`."""

        def waiting() -> dict[str, Any] | None:
            status, body = self.snapshot()
            pending = body.get("pendingInterrupt", {}) if status == 200 else {}
            return body if pending.get("nodeId") == node_id else None

        snapshot: dict[str, Any] = wait_for(waiting)
        return snapshot

    def resolve(self, node_id: str, resume_value: Any) -> tuple[int, Any]:
        answer = self.stack.http.post(
            f"/runs/{self.run_id}/interrupts/{node_id}",
            {"resumeValue": resume_value},
            token=token_for(self.stack, "alice", "approvals:respond"),
        )
        return answer.status, answer.json()

    def events(self, mode: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        after = 0
        while True:
            answer = self.stack.http.get(
                f"/runs/{self.run_id}/events?mode={mode}&after={after}&limit=2",
                token=token_for(self.stack, "reader", "runs:read"),
            )
            assert answer.status == 200, answer.body
            page = answer.json()
            found += page["events"]
            if "next" not in page:
                return found
            after = page["next"]

    def types(self, mode: str) -> list[str]:
        return [event["type"] for event in self.events(mode)]

    def what_happened(self) -> str:
        """The end of the execution's history and the run's debug events: what a timeout reports."""
        return (
            f"the end of run {self.run_id}: execution's last events "
            f"{self.stack.history_end(self.execution_arn)}, the run's debug events {self.types('debug')}"
        )

    def output(self) -> Any:
        def finished() -> dict[str, Any] | None:
            execution: dict[str, Any] = self.stack.sfn.describe_execution(executionArn=self.execution_arn)
            return None if execution["status"] == "RUNNING" else execution

        execution = wait_for(finished, what=self.what_happened)
        assert execution["status"] == "SUCCEEDED", execution

        def completed() -> bool | None:  # the run's end reaches us as an event, a moment later
            status, body = self.snapshot()
            return True if status == 200 and body["status"] == "completed" else None

        wait_for(completed)
        return json.loads(execution["output"])

    def assert_debug_adds_only_deliveries(self) -> None:
        """Then debug mode holds every update event in the same order, plus at most the outbox's
        delivery records, each after the resolution it delivers (wherever it landed otherwise), and
        the notifications' records, each after a request."""
        debug = self.types("debug")
        records = DELIVERY_RECORDS | NOTIFICATION_RECORDS
        assert [kind for kind in debug if kind not in records] == self.types("updates")
        for position, kind in enumerate(debug):
            if kind in DELIVERY_RECORDS:
                assert "interrupt.resolved" in debug[:position], debug
            if kind in NOTIFICATION_RECORDS:
                assert "interrupt.requested" in debug[:position], debug

    def assert_events_valid(self) -> None:
        """Then every event this run stored (debug: all of them) is valid against the schemas."""
        assert problems_of(self.events("debug")) == []


def test_clarification_sample(local_stack: LocalStackHandle) -> None:
    # Given the clarification sample, suspended at AskDeployment
    run = SampleRun(local_stack, "clarification", {})
    snapshot = run.suspended_at("AskDeployment")
    assert (snapshot["status"], snapshot["currentNodeId"]) == ("waiting-input", "AskDeployment")
    assert snapshot["pendingInterrupt"]["kind"] == "clarification"
    # When an answer is missing, Then 400 names the question
    status, problem = run.resolve("AskDeployment", {"answers": {"region": "eu-west-1", "notes": "-"}})
    assert (status, problem["code"], problem["path"]) == (
        400,
        "validation_error",
        "resumeValue.answers.replicas",
    )
    # When an answer fails its schema, Then 400 names that question
    status, problem = run.resolve(
        "AskDeployment", {"answers": {"region": "eu-west-1", "replicas": 0, "notes": "-"}}
    )
    assert (status, problem["path"]) == (400, "resumeValue.answers.replicas")
    # When all are answered, Then 200 and the execution's output is the answers
    answers = {"answers": {"region": "eu-west-1", "replicas": 3, "notes": "after 18:00"}}
    assert run.resolve("AskDeployment", answers)[0] == 200
    assert run.output() == answers
    expected = [
        "interrupt.requested",
        "clarification.requested",
        "interrupt.resolved",
        "clarification.resolved",
        "run.status_changed",
    ]
    assert run.types("updates") == expected
    run.assert_debug_adds_only_deliveries()
    run.assert_events_valid()


def test_external_event_sample_over_the_run_surface(local_stack: LocalStackHandle) -> None:
    # Given the payment sample waiting for order ord_7
    run = SampleRun(local_stack, "externalEvent", {"orderId": "ord_7"})
    snapshot = run.suspended_at("AwaitPayment")
    assert snapshot["status"] == "waiting-external"
    requested = run.events("updates")[0]
    assert requested["payload"]["data"] == {
        "eventType": "payment.succeeded",
        "correlation": {"orderId": "ord_7"},
    }
    # When the event fails the declared resumeSchema, Then 400 with the failing path
    status, problem = run.resolve("AwaitPayment", {"paymentId": "pay_1", "amount": 4200, "currency": "euro"})
    assert (status, problem["path"]) == (400, "resumeValue.currency")
    # When the payment is reported, Then the execution goes on with it
    payment = {"paymentId": "pay_1", "amount": 4200, "currency": "EUR"}
    assert run.resolve("AwaitPayment", payment)[0] == 200
    assert run.output() == payment
    assert run.types("updates") == ["interrupt.requested", "interrupt.resolved", "run.status_changed"]
    run.assert_debug_adds_only_deliveries()
    run.assert_events_valid()


def test_custom_sample(local_stack: LocalStackHandle) -> None:
    run = SampleRun(local_stack, "custom", {})
    assert run.suspended_at("PrintLabel")["status"] == "waiting-input"
    assert run.events("updates")[0]["payload"]["data"]["customKind"] == "acme.shipping-label"
    # When the body is not {resumeValue}, Then 400
    answer = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/PrintLabel",
        {"value": 1},
        token=token_for(local_stack, "alice", "approvals:respond"),
    )
    assert (answer.status, answer.json()["code"]) == (400, "validation_error")
    # When any value answers it, Then it is the output
    assert run.resolve("PrintLabel", {"printed": True, "tracking": "JD0142"})[0] == 200
    assert run.output() == {"printed": True, "tracking": "JD0142"}
    assert run.types("updates") == ["interrupt.requested", "interrupt.resolved", "run.status_changed"]
    run.assert_debug_adds_only_deliveries()
    run.assert_events_valid()


def test_conversation_sample_start_two_exchanges_close(local_stack: LocalStackHandle) -> None:
    conversation_id = f"conv-{uuid.uuid4().hex[:8]}"
    run = SampleRun(local_stack, "conversation", {"conversationId": conversation_id})
    # Given the conversation started
    assert run.suspended_at("Start")["status"] == "waiting-input"
    assert run.resolve("Start", {"joined": ["alice"]})[0] == 200
    # When the first exchange is answered outside its outcomeSchema, Then 400 with the path
    assert run.suspended_at("AskScope")["pendingInterrupt"]["kind"] == "conversation.exchange"
    status, problem = run.resolve("AskScope", {"services": []})
    assert (status, problem["path"]) == (400, "resumeValue.services")
    assert run.resolve("AskScope", {"services": ["api", "web"]})[0] == 200
    run.suspended_at("AskWindow")
    assert run.resolve("AskWindow", {"window": "Tuesday 18:00"})[0] == 200
    assert run.suspended_at("Close")["pendingInterrupt"]["kind"] == "conversation.close"
    assert run.resolve("Close", {"summary": "planned"})[0] == 200
    # Then the output is the plan (the state kept only what it needs), and the log every turn's
    # request and resolution in order
    assert run.output() == {"services": ["api", "web"], "window": "Tuesday 18:00"}
    assert run.types("updates") == ["interrupt.requested", "interrupt.resolved"] * 4 + ["run.status_changed"]
    run.assert_debug_adds_only_deliveries()
    run.assert_events_valid()
    # And the conversation is closed: starting it again in another run fails that run's task
    again = SampleRun(local_stack, "conversation", {"conversationId": conversation_id})
    history = wait_for(lambda: _failed(local_stack, again.execution_arn))
    assert history == "ConversationAlreadyStarted"


def _failed(stack: LocalStackHandle, execution_arn: str) -> str | None:
    execution = stack.sfn.describe_execution(executionArn=execution_arn)
    if execution["status"] == "RUNNING":
        return None
    events = stack.sfn.get_execution_history(executionArn=execution_arn)["events"]
    failures = [e for e in events if e["type"] in {"TaskFailed", "ExecutionFailed"}]
    details = failures[-1].get("executionFailedEventDetails") or failures[-1]["taskFailedEventDetails"]
    return str(details["error"])


def test_low_confidence_sample_escalates_below_the_threshold(local_stack: LocalStackHandle) -> None:
    # Given an agent decision at 0.3 in a run whose threshold is 0.6
    decision = {"agentId": "triage-agent", "confidence": 0.3, "label": "refund"}
    run = SampleRun(
        local_stack,
        "lowConfidence",
        {"decision": decision, "configurable": {"run": {"escalationThreshold": 0.6}}},
    )
    # Then the run waits for approval at Escalate, after agent.decided and node.suspended
    snapshot = run.suspended_at("Escalate")
    assert (snapshot["status"], snapshot["pendingInterrupt"]["kind"]) == (
        "waiting-approval",
        "low-confidence",
    )
    assert run.types("updates") == ["agent.decided", "node.suspended", "interrupt.requested"]
    requested = run.events("updates")[2]["payload"]
    assert {k: requested["data"][k] for k in ("agentId", "threshold", "observed")} == {
        "agentId": "triage-agent",
        "threshold": 0.6,
        "observed": 0.3,
    }
    # When a reviewer answers, Then the execution goes on with the review
    assert run.resolve("Escalate", {"label": "chargeback"})[0] == 200
    assert run.output() == {"escalated": True, "decision": decision, "review": {"label": "chargeback"}}
    assert run.types("updates") == [
        "agent.decided",
        "node.suspended",
        "interrupt.requested",
        "interrupt.resolved",
        "run.status_changed",
    ]
    run.assert_debug_adds_only_deliveries()
    run.assert_events_valid()


def test_low_confidence_sample_goes_on_at_the_host_threshold(local_stack: LocalStackHandle) -> None:
    # Given a decision exactly at the host default (EscalationThreshold 0.7) / Then nothing waits
    decision = {"agentId": "triage-agent", "confidence": 0.7}
    run = SampleRun(local_stack, "lowConfidence", {"decision": decision})
    assert run.output() == {"escalated": False, "decision": decision}
    assert run.types("updates") == run.types("debug") == ["agent.decided", "run.status_changed"]
    assert run.snapshot()[1]["status"] in {"running", "completed"}
    run.assert_events_valid()


def test_another_tenant_cannot_read_the_run(local_stack: LocalStackHandle) -> None:
    run = SampleRun(local_stack, "custom", {})
    run.suspended_at("PrintLabel")
    status, problem = run.snapshot(tenant="globex")
    assert (status, problem["code"]) == (404, "not_found")
    answer = local_stack.http.get(
        f"/runs/{run.run_id}/events", token=token_for(local_stack, "reader", "runs:read", "globex")
    )
    assert answer.status == 404


def test_payment_webhook_resolves_through_a_minted_token_url(local_stack: LocalStackHandle) -> None:
    """docs/payment-webhook.md, step by step."""
    # Given the payment sample waiting for order ord_9, and a webhook URL minted for it
    run = SampleRun(local_stack, "externalEvent", {"orderId": "ord_9"})
    run.suspended_at("AwaitPayment")
    minted = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/AwaitPayment/tokens",
        {"intent": "resolve", "sub": "payment-provider", "ttlSeconds": 900},
        token=token_for(local_stack, "shop-backend", "interrupts:mint"),
    )
    assert minted.status == 201, minted.body
    token = minted.json()["token"]
    assert minted.json()["url"].endswith(f"/interrupts/{token}")
    # When the provider posts a malformed event to the URL (no JWT: the token is the credential)
    bad = local_stack.http.post(f"/interrupts/{token}", {"resumeValue": {"paymentId": "pay_9"}})
    assert (bad.status, bad.json()["code"]) == (400, "validation_error")
    # When it posts the real event, Then the run goes on with it, and the URL is spent
    payment = {"paymentId": "pay_9", "amount": 1999, "currency": "EUR"}
    assert local_stack.http.post(f"/interrupts/{token}", {"resumeValue": payment}).status == 200
    assert run.output() == payment
    again = local_stack.http.post(f"/interrupts/{token}", {"resumeValue": payment})
    assert (again.status, again.json()["code"]) == (409, "interrupt_already_resolved")
    run.assert_events_valid()
