"""Deliver "Durable Execution Status Change" events, as EventBridge would, to the targets of the
stack's rules that match them (source aws.lambda).

The runner emits no events: every tick reads each execution the durable endpoint started and, once
it reached a terminal status, sends the event AWS sends (docs/durable-functions.md) to the target
functions of every matching rule, then never again.
"""

from __future__ import annotations

import json
import logging
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from local.patches import faults
from local.standins.pumps import Pump
from local.template.event_patterns import matches
from waitgate.adapters.dynamodb_keys import execution_pk
from waitgate.run.resume_handles import handle_kind

if TYPE_CHECKING:
    from local.standins.durable_endpoint import DurableEndpoint
    from local.template.resources import StackContext

logger = logging.getLogger(__name__)
DETAIL_TYPE = "Durable Execution Status Change"
TERMINAL = frozenset({"SUCCEEDED", "FAILED", "TIMED_OUT", "STOPPED"})
INTERVAL_SECONDS = 0.25
EXECUTION_PREFIX = execution_pk("")


def status_change_event(execution: dict[str, Any], region: str, account: str) -> dict[str, Any]:
    """The EventBridge event AWS sends for a durable execution's new status."""
    arn = str(execution["DurableExecutionArn"])
    detail: dict[str, Any] = {
        "durableExecutionArn": arn,
        "durableExecutionName": execution["DurableExecutionName"],
        "functionArn": arn.split("/durable-execution/", 1)[0],
        "status": execution["Status"],
        "startTimestamp": _timestamp(execution.get("StartTimestamp")),
    }
    if execution.get("EndTimestamp") is not None:
        detail["endTimestamp"] = _timestamp(execution["EndTimestamp"])
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": DETAIL_TYPE,
        "source": "aws.lambda",
        "account": account,
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": region,
        "resources": [],
        "detail": detail,
    }


def _timestamp(value: Any) -> str | None:
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return None if value is None else str(value)


class DurableEventPump:
    def __init__(self, endpoint: DurableEndpoint, clients: Any, region: str, account: str) -> None:
        self._endpoint, self._clients = endpoint, clients
        self._region, self._account = region, account
        self._announced: set[str] = set()

    def tick(self) -> None:
        for aws_arn, runner_arn in self._endpoint.names.started():
            if aws_arn in self._announced:
                continue
            execution = self._endpoint.runner_get(runner_arn)
            if execution.get("Status") not in TERMINAL:
                continue
            name, status = execution.get("DurableExecutionName"), execution.get("Status")
            if faults.strikes("end_event", execution=name, status=status):
                self._announced.add(aws_arn)  # lost on its way (WAITGATE_FAULTS end_event)
                continue
            self.announce(status_change_event(execution, self._region, self._account))

    def announce(self, event: dict[str, Any]) -> None:
        """Send `event` to the targets of every rule it matches (once it reached them all, never again)."""
        payload = json.dumps(event).encode("utf-8")
        for function in self._targets(event):  # a rule's Lambda target: asynchronous, as on AWS
            self._clients("lambda").invoke(FunctionName=function, InvocationType="Event", Payload=payload)
        self._announced.add(event["detail"]["durableExecutionArn"])
        detail = event["detail"]
        logger.info("durable execution %s %s", detail["durableExecutionName"], detail["status"])

    def _targets(self, event: dict[str, Any]) -> list[str]:
        events = self._clients("events")
        found = []
        for rule in events.list_rules()["Rules"]:
            pattern = json.loads(rule.get("EventPattern") or "{}")
            if pattern.get("source") == ["aws.lambda"] and matches(pattern, event):
                targets = events.list_targets_by_rule(Rule=rule["Name"])["Targets"]
                found += [str(target["Arn"]).split(":function:")[-1] for target in targets]
        return found


def forgotten_executions(kept_items: list[dict[str, Any]]) -> dict[str, str]:
    """The durable executions a restart forgot, from the interrupts table as it was kept: those whose
    run waits on a durable callback (name → ARN, which the run's link holds: the durable helper sends
    it). The testing SDK's runner keeps its executions in memory only, so after a restart nothing waits
    on those callbacks."""
    waiting = {
        (item["tenantId"]["S"], item["runId"]["S"])
        for item in kept_items
        if item.get("status", {}).get("S") == "pending"
        and handle_kind(item.get("taskToken", {}).get("S", "")) == "durable-callback"
        and "tenantId" in item
        and "runId" in item
    }
    return {
        item["pk"]["S"].removeprefix(EXECUTION_PREFIX): item["executionArn"]["S"]
        for item in kept_items
        if item["pk"]["S"].startswith(EXECUTION_PREFIX)
        and "executionArn" in item
        and (item.get("tenantId", {}).get("S"), item.get("runId", {}).get("S")) in waiting
    }


def end_forgotten_runs(
    endpoint: DurableEndpoint, context: StackContext, kept_items: list[dict[str, Any]]
) -> list[str]:
    """After a restart, every run whose durable execution the runner forgot is ended as failed — its
    execution's FAILED status change, sent to the run lifecycle as the pump would — so no page says the
    run goes on and nothing waits for good. The names of those executions."""
    pump = DurableEventPump(endpoint, context.clients, context.region, context.account_id)
    forgotten = forgotten_executions(kept_items)
    for name, arn in sorted(forgotten.items()):
        execution = {"DurableExecutionArn": arn, "DurableExecutionName": name, "Status": "FAILED"}
        logger.warning(
            "durable execution %s was not kept across the restart (the local runner keeps none): "
            "its run is ended as failed",
            name,
        )
        pump.announce(status_change_event(execution, context.region, context.account_id))
    return sorted(forgotten)


def durable_event_pump(endpoint: DurableEndpoint, context: StackContext) -> Pump:
    pump = DurableEventPump(endpoint, context.clients, context.region, context.account_id)
    return Pump("durable-events", pump.tick, INTERVAL_SECONDS)
