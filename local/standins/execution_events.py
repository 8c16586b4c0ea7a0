"""Deliver "Step Functions Execution Status Change" events, as EventBridge would, to the functions the
template subscribes to them (an EventBridgeRule event with source aws.states).

moto runs executions but emits no events: a tick lists the executions of the stack's state machines
and, for each that reached a terminal status since the last tick, invokes the subscribed functions
asynchronously, as a rule's Lambda target is, with a realistic event. The pump ticks as soon as an
execution ends (`local.patches.moto_news` wakes it) and, in case it missed news, every
INTERVAL_SECONDS.
"""

from __future__ import annotations

import json
import logging
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from local.patches import faults, moto_news
from local.standins.pumps import Pump
from local.template.sam_template import load_template

if TYPE_CHECKING:
    from local.template.resources import StackContext

logger = logging.getLogger(__name__)
DETAIL_TYPE = "Step Functions Execution Status Change"
TERMINAL = frozenset({"SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"})
INTERVAL_SECONDS = 30.0  # between ticks that no ended execution asked for
CAUSE_LINE_LIMIT = 300


def subscribed_functions(sam_template: dict[str, Any]) -> list[str]:
    """Logical ids of the functions with an EventBridgeRule event on source aws.states."""
    found = []
    for logical_id, resource in sam_template.get("Resources", {}).items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        for event in resource.get("Properties", {}).get("Events", {}).values():
            pattern = event.get("Properties", {}).get("Pattern", {})
            if event.get("Type") == "EventBridgeRule" and "aws.states" in pattern.get("source", []):
                found.append(logical_id)
                break
    return found


def status_change_event(execution: dict[str, Any], region: str, account: str) -> dict[str, Any]:
    """The EventBridge event AWS sends for an execution's new status."""
    stop = execution.get("stopDate") or datetime.now(UTC)
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": DETAIL_TYPE,
        "source": "aws.states",
        "account": account,
        "time": stop.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": region,
        "resources": [execution["executionArn"]],
        "detail": {
            "executionArn": execution["executionArn"],
            "stateMachineArn": execution["stateMachineArn"],
            "name": execution["name"],
            "status": execution["status"],
            "startDate": int(execution["startDate"].timestamp() * 1000),
            "stopDate": int(stop.timestamp() * 1000),
            "input": None,
            "output": None,
        },
    }


class ExecutionEventPump:
    def __init__(self, clients: Any, machines: list[str], functions: list[str], region: str, account: str):
        self._clients = clients
        self._machines = machines
        self._functions = functions
        self._region, self._account = region, account
        self._announced: set[str] = set()

    def tick(self) -> None:
        sfn = self._clients("stepfunctions")
        for machine in self._machines:
            for page in sfn.get_paginator("list_executions").paginate(stateMachineArn=machine):
                for execution in page["executions"]:
                    if execution["status"] in TERMINAL and execution["executionArn"] not in self._announced:
                        self._announce(execution)

    def _announce(self, execution: dict[str, Any]) -> None:
        """Each subscribed function gets the event asynchronously, as an EventBridge rule's target: a
        run that fails is Lambda's to retry, twice, and then its OnFailure destination's
        (local.patches.async_invocations)."""
        if faults.strikes("end_event", execution=execution["name"], status=execution["status"]):
            self._announced.add(execution["executionArn"])  # lost on its way (WAITGATE_FAULTS end_event)
            return
        event = json.dumps(status_change_event(execution, self._region, self._account), default=str)
        for function in self._functions:
            self._clients("lambda").invoke(
                FunctionName=function, InvocationType="Event", Payload=event.encode("utf-8")
            )
        self._announced.add(execution["executionArn"])
        logger.info("execution %s", ended_line(self._clients("stepfunctions"), execution))


def ended_line(sfn: Any, execution: dict[str, Any]) -> str:
    """`release-42 SUCCEEDED`, or `bad-1 FAILED InterruptPayloadInvalid: data.title: Field required`."""
    line = f"{execution['name']} {execution['status']}"
    if execution["status"] == "SUCCEEDED":
        return line
    described = sfn.describe_execution(executionArn=execution["executionArn"])
    error, cause = described.get("error"), described.get("cause")
    if error:
        line += f" {error}"
    if cause:
        line += f": {_readable_cause(cause)}"
    return line


def _readable_cause(cause: str) -> str:
    """A Lambda error's cause is its JSON error payload: its errorMessage says what happened."""
    try:
        document = json.loads(cause)
    except ValueError:
        document = None
    text = str(document.get("errorMessage", cause)) if isinstance(document, dict) else cause
    text = " ".join(text.split())
    return text if len(text) <= CAUSE_LINE_LIMIT else text[:CAUSE_LINE_LIMIT] + " …"


def execution_event_pump(context: StackContext) -> Pump:
    functions = [str(context.physical_ids[f].ref) for f in subscribed_functions(load_template())]
    machines = [str(c.ref) for c in context.physical_ids.values() if ":stateMachine:" in str(c.ref)]
    pump = ExecutionEventPump(context.clients, machines, functions, context.region, context.account_id)
    running = Pump("execution-events", pump.tick, INTERVAL_SECONDS)
    running.final_tick = moto_news.listen(moto_news.EXECUTION_ENDED, running.wake)  # as it stops
    return running
