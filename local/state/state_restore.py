"""Create again what the local stack kept (local.state.kept_state), on a fresh moto server.

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
from collections.abc import Callable
from functools import partial
from typing import Any

from botocore.exceptions import ClientError

from local.state.kept_state import KeptState
from local.template.data_resources import create_secret, create_table
from local.template.resources import Created, Creator, StackContext
from waitgate.adapters.aws_errors import error_code
from waitgate.adapters.dynamodb_items import outstanding_index_keys, pending_index_keys

logger = logging.getLogger(__name__)
BATCH_SIZE = 25
REATTACH_TIMEOUT_SECONDS = 60
WAITING = "TaskSubmitted"  # the last history event of an execution that waits on its task token


class Restore:
    """Brings the kept state back; a part that does not fit any more (the template changed, say) is
    skipped and said, never fatal, and `problems` lists what was skipped."""

    def __init__(self, kept: KeptState) -> None:
        self.kept = kept
        self.problems: list[str] = []

    def creators(self) -> dict[str, Creator]:
        """Table and secret creators that bring the kept items and values back."""
        return {"AWS::DynamoDB::Table": self._table, "AWS::SecretsManager::Secret": self._secret}

    def after_resources(self, context: StackContext) -> list[str]:
        """Own state machines, schedules, then the executions started again; their ARNs."""
        sfn, scheduler = context.clients("stepfunctions"), context.clients("scheduler")
        for machine in self.kept.state_machines:
            self._attempt(f"state machine {machine['name']}", partial(sfn.create_state_machine, **machine))
        for schedule in self.kept.schedules:
            self._attempt(f"schedule {schedule['Name']}", partial(scheduler.create_schedule, **schedule))
        started = [
            self._attempt(f"execution {execution['name']}", partial(sfn.start_execution, **execution))
            for execution in self.kept.executions
        ]
        return [answer["executionArn"] for answer in started if answer is not None]

    def _table(self, context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
        items = self.kept.tables.get(logical_id)
        if not items:
            return create_table(context, logical_id, properties)
        stream = properties.get("StreamSpecification")
        unstreamed = {key: value for key, value in properties.items() if key != "StreamSpecification"}
        created = create_table(context, logical_id, unstreamed)
        dynamodb = context.clients("dynamodb")
        # kept by a stack from before the inbox's (or the reconciler's) index: its interrupts get their keys
        items = [{**item, **pending_index_keys(item), **outstanding_index_keys(item)} for item in items]
        self._attempt(f"the items of {logical_id}", partial(write_items, dynamodb, str(created.ref), items))
        if stream is not None:
            answer = dynamodb.update_table(
                TableName=created.ref, StreamSpecification={**stream, "StreamEnabled": True}
            )
            created.attributes["StreamArn"] = answer["TableDescription"]["LatestStreamArn"]
        return created

    def _secret(self, context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
        if logical_id not in self.kept.secrets:
            return create_secret(context, logical_id, properties)
        kept_value = {key: value for key, value in properties.items() if key != "GenerateSecretString"}
        return create_secret(
            context, logical_id, {**kept_value, "SecretString": self.kept.secrets[logical_id]}
        )

    def _attempt(self, what: str, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except ClientError as error:
            problem = (
                f"{what} not restored: {error_code(error)}: {error.response.get('Error', {}).get('Message')}"
            )
            logger.warning("%s", problem)
            self.problems.append(problem)
            return None


def write_items(dynamodb: Any, table_name: str, items: list[dict[str, Any]]) -> None:
    for start in range(0, len(items), BATCH_SIZE):
        requests = {
            table_name: [{"PutRequest": {"Item": item}} for item in items[start : start + BATCH_SIZE]]
        }
        while requests:
            requests = dynamodb.batch_write_item(RequestItems=requests).get("UnprocessedItems") or {}


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
