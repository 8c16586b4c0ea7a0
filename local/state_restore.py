"""Create again what the local stack kept (local.kept_state), on a fresh moto server.

Tables are created without their stream, filled, then given their stream: the restored items are
not news to the stream consumers (on AWS they were delivered long ago). Secrets get their kept value
instead of a generated one, so the links already sent still verify. Then the own state machines and
the schedules come back, and each execution that was running is started again, by name, with its
input: the same run id and execution ARN. Its interrupt states ask again with the same keys, and the
re-entry keys answer them (docs/durability.md): a key still pending takes the new task token over,
without a second `interrupt.requested` and without notifying anyone, so the old links resolve the
new execution; a key already answered is answered again at once.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from local.data_resources import create_secret, create_table
from local.kept_state import KeptState
from local.resources import Created, Creator, StackContext

logger = logging.getLogger(__name__)
BATCH_SIZE = 25
REATTACH_TIMEOUT_SECONDS = 60
WAITING = "TaskSubmitted"  # the last history event of an execution that waits on its task token


def restoring_creators(kept: KeptState) -> dict[str, Creator]:
    """Table and secret creators that bring the kept items and values back."""

    def table(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
        items = kept.tables.get(logical_id)
        if not items:
            return create_table(context, logical_id, properties)
        stream = properties.get("StreamSpecification")
        unstreamed = {key: value for key, value in properties.items() if key != "StreamSpecification"}
        created = create_table(context, logical_id, unstreamed)
        write_items(context.clients("dynamodb"), str(created.ref), items)
        if stream is not None:
            answer = context.clients("dynamodb").update_table(
                TableName=created.ref, StreamSpecification={**stream, "StreamEnabled": True}
            )
            created.attributes["StreamArn"] = answer["TableDescription"]["LatestStreamArn"]
        return created

    def secret(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
        if logical_id not in kept.secrets:
            return create_secret(context, logical_id, properties)
        kept_value = {key: value for key, value in properties.items() if key != "GenerateSecretString"}
        return create_secret(context, logical_id, {**kept_value, "SecretString": kept.secrets[logical_id]})

    return {"AWS::DynamoDB::Table": table, "AWS::SecretsManager::Secret": secret}


def write_items(dynamodb: Any, table_name: str, items: list[dict[str, Any]]) -> None:
    for start in range(0, len(items), BATCH_SIZE):
        requests = {
            table_name: [{"PutRequest": {"Item": item}} for item in items[start : start + BATCH_SIZE]]
        }
        while requests:
            requests = dynamodb.batch_write_item(RequestItems=requests).get("UnprocessedItems") or {}


def restore_after_resources(context: StackContext, kept: KeptState) -> list[str]:
    """Own state machines, schedules, then the executions started again; their ARNs."""
    sfn, scheduler = context.clients("stepfunctions"), context.clients("scheduler")
    for machine in kept.state_machines:
        sfn.create_state_machine(**machine)
    for schedule in kept.schedules:
        scheduler.create_schedule(**schedule)
    started = []
    for execution in kept.executions:
        started.append(sfn.start_execution(**execution)["executionArn"])
    return started


def wait_until_reattached(context: StackContext, execution_arns: list[str]) -> list[str]:
    """Wait until each re-started execution waits on its task token again (or ended); the ARNs of
    those that did not within REATTACH_TIMEOUT_SECONDS (they go on in the background)."""
    sfn = context.clients("stepfunctions")
    pending = list(execution_arns)
    deadline = time.monotonic() + REATTACH_TIMEOUT_SECONDS
    while pending and time.monotonic() < deadline:
        pending = [arn for arn in pending if not _reattached(sfn, arn)]
        if pending:
            time.sleep(0.1)
    for arn in pending:
        logger.warning("execution %s has not reached its wait again yet", arn.rsplit(":", 1)[-1])
    return pending


def _reattached(sfn: Any, execution_arn: str) -> bool:
    if sfn.describe_execution(executionArn=execution_arn)["status"] != "RUNNING":
        return True
    events = sfn.get_execution_history(executionArn=execution_arn)["events"]  # moto ignores reverseOrder
    return bool(events) and events[-1]["type"] == WAITING
