"""`waitgate deliveries list|redrive`: the deliveries the engine refused or found gone, parked by the
outbox or the reconciler (docs/durability.md, "Parked deliveries"), and sending them again.

Without `--table` it works on the running local stack (the moto endpoint, its table, its durable
endpoint); with `--table` (the InterruptsTable) on real AWS with the usual credential chain. A parked
delivery is found in the sparse index's one PARKED partition: one Query, never a Scan.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from local.cli.command_actions import action_parsers
from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

if TYPE_CHECKING:  # the layer and boto3 load when an action runs, not for `--help`
    from waitgate.adapters.dynamodb_store import DynamoDbStore
    from waitgate.run.reconciliation import OutstandingRef

DESCRIPTION = """\
Deliveries the workflow engine would not take: the task (or durable callback) was gone, or the engine
refused the answer (InvalidOutput). They are parked, never retried on their own; the alarm
DeliveriesParkedAlarm fires when one is. `list` shows them, `redrive` sends them again (a success
takes them out; another refusal leaves them parked). Without --table, the running local stack's."""
ACTIONS = {
    "list": ("list the parked deliveries, oldest first", "waitgate deliveries list --table waitgate-Int-ABC"),
    "redrive": (
        "send parked deliveries again (one by its interrupt id, or --all)",
        "waitgate deliveries redrive --interrupt 01JE4ZK0000000000000000000",
    ),
}
LIMIT = 1000


class RedriveRefusedError(Exception):
    """A redrive that names nothing to send: said in one line."""


def add_deliveries_parser(commands: Any) -> None:
    for action, parser in action_parsers(
        commands,
        "deliveries",
        "show and re-drive parked deliveries (the local stack's, or a deployed one's)",
        DESCRIPTION,
        ACTIONS,
        example="list",
    ):
        if action == "list":
            parser.add_argument("--json", action="store_true", help="one JSON object per line")
        if action == "redrive":
            chosen = parser.add_mutually_exclusive_group(required=True)
            chosen.add_argument("--interrupt", help="the interrupt id of the parked delivery")
            chosen.add_argument("--all", action="store_true", help="every parked delivery")
        parser.add_argument("--table", help="a deployed InterruptsTable (real AWS); default: the local stack")
        parser.add_argument("--region", help="with --table: the table's region (default: AWS_REGION)")


def run_deliveries(arguments: argparse.Namespace) -> int:
    from waitgate.adapters.dynamodb_outstanding import DynamoDbOutstanding
    from waitgate.adapters.dynamodb_store import DynamoDbStore
    from waitgate.run.clock import SystemClock
    from waitgate.service.deliver_resolution import DeliveryDependencies, redrive

    clients = _clients(arguments)
    table = arguments.table or clients["table"]
    store = DynamoDbStore(clients["dynamodb"], table)
    parked = DynamoDbOutstanding(clients["dynamodb"], table).parked(LIMIT)
    if arguments.deliveries_action == "list":
        for ref in parked:
            _print(ref, store, arguments.json)
        return 0
    chosen = [ref for ref in parked if arguments.all or ref.interrupt_id == arguments.interrupt]
    if not chosen:
        what = "nothing is parked" if arguments.all else f"no parked delivery of {arguments.interrupt!r}"
        raise RedriveRefusedError(what)
    deps = DeliveryDependencies(store=store, workflow=clients["workflow"], clock=SystemClock())
    failed = 0
    for ref in chosen:
        result = redrive(ref.run, ref.node_id, ref.interrupt_id, deps)
        failed += result != "delivered"
        print(f"{ref.run.tenant_id}/{ref.run.run_id} {ref.node_id} {ref.interrupt_id}: {result}")
    return 1 if failed else 0


def _print(ref: OutstandingRef, store: DynamoDbStore, as_json: bool) -> None:
    record = store.load(ref.run, ref.node_id).interrupt
    outcome = record.delivery_outcome if record else "unknown"
    status = record.status if record else "unknown"
    if as_json:
        document = {
            "tenantId": ref.run.tenant_id,
            "runId": ref.run.run_id,
            "nodeId": ref.node_id,
            "interruptId": ref.interrupt_id,
            "status": status,
            "outcome": outcome,
            "parkedAt": ref.due,
        }
        print(json.dumps(document, separators=(",", ":")))
        return
    where = f"{ref.run.tenant_id}/{ref.run.run_id}  {ref.node_id}  {ref.interrupt_id}"
    print(f"{ref.due}  {outcome:<9}  {status:<8}  {where}")


def _clients(arguments: argparse.Namespace) -> dict[str, Any]:
    import boto3

    from waitgate.adapters.durable_workflow import DurableFunctionsWorkflow
    from waitgate.adapters.sfn_workflow import StepFunctionsWorkflow
    from waitgate.adapters.workflow_engines import WorkflowEngines

    if arguments.table:
        region = {"region_name": arguments.region} if arguments.region else {}
        engines = WorkflowEngines(
            StepFunctionsWorkflow(boto3.client("stepfunctions", **region)),
            lambda: DurableFunctionsWorkflow(boto3.client("lambda", **region)),
        )
        return {"dynamodb": boto3.client("dynamodb", **region), "workflow": engines, "table": arguments.table}
    described = running_stack_description(StateDir.from_environment())
    local = {
        "endpoint_url": described["awsEndpointUrl"],
        "region_name": described.get("region", "us-east-1"),
        "aws_access_key_id": "local",  # moto takes any credentials; these are not secrets
        "aws_secret_access_key": "local",
    }
    durable_url = described.get("durable", {}).get("endpointUrl") or described["awsEndpointUrl"]
    engines = WorkflowEngines(
        StepFunctionsWorkflow(boto3.client("stepfunctions", **local)),
        lambda: DurableFunctionsWorkflow(boto3.client("lambda", **{**local, "endpoint_url": durable_url})),
    )
    return {
        "dynamodb": boto3.client("dynamodb", **local),
        "workflow": engines,
        "table": described["tableNames"]["InterruptsTable"],
    }
