"""Read what the local stack keeps (local.state.kept_state) out of the running moto server, by its APIs,
and save it whenever it changed."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from local.patches import moto_news
from local.patches.moto_atomicity import table_items as moto_table_items
from local.patches.moto_atomicity import write_count
from local.standins.pumps import Pump
from local.state.kept_state import KeptState
from local.template.resources import StackContext

logger = logging.getLogger(__name__)
AUTOSAVE_SECONDS = 2.0
SAVE_SPACING_FACTOR = 9  # a save's time, nine times over, passes before the next one

SCHEDULE_FIELDS = (
    "Name",
    "GroupName",
    "ScheduleExpression",
    "ScheduleExpressionTimezone",
    "State",
    "Description",
    "FlexibleTimeWindow",
    "Target",
    "ActionAfterCompletion",
)


def capture(context: StackContext, resource_types: dict[str, str]) -> KeptState:
    """The tables, secrets, schedules, own state machines and running executions, now."""
    of_type = {
        kind: [i for i, t in resource_types.items() if t == kind and i in context.physical_ids]
        for kind in ("AWS::DynamoDB::Table", "AWS::SecretsManager::Secret")
    }
    template_machines = {
        str(created.ref) for created in context.physical_ids.values() if ":stateMachine:" in str(created.ref)
    }
    sfn = context.clients("stepfunctions")
    machines = [m["stateMachineArn"] for m in _all(sfn, "list_state_machines", "stateMachines")]
    return KeptState(
        tables={
            i: table_items(context, str(context.physical_ids[i].ref)) for i in of_type["AWS::DynamoDB::Table"]
        },
        secrets={
            i: secret_value(context, str(context.physical_ids[i].ref))
            for i in of_type["AWS::SecretsManager::Secret"]
        },
        schedules=schedules(context),
        state_machines=[own_state_machine(sfn, arn) for arn in machines if arn not in template_machines],
        executions=[execution for arn in machines for execution in running_executions(sfn, arn)],
    )


def table_items(context: StackContext, table_name: str) -> list[dict[str, Any]]:
    return moto_table_items(context.account_id, context.region, table_name)


def secret_value(context: StackContext, secret_id: str) -> str:
    return str(context.clients("secretsmanager").get_secret_value(SecretId=secret_id)["SecretString"])


def schedules(context: StackContext) -> list[dict[str, Any]]:
    scheduler = context.clients("scheduler")
    found = []
    for summary in _all(scheduler, "list_schedules", "Schedules", page_key="NextToken"):
        schedule = scheduler.get_schedule(Name=summary["Name"], GroupName=summary["GroupName"])
        found.append({key: schedule[key] for key in SCHEDULE_FIELDS if key in schedule})
    return found


def own_state_machine(sfn: Any, arn: str) -> dict[str, Any]:
    described = sfn.describe_state_machine(stateMachineArn=arn)
    return {key: described[key] for key in ("name", "definition", "roleArn", "type")}


def running_executions(sfn: Any, machine_arn: str) -> list[dict[str, Any]]:
    """Each running execution's name and input: enough to start it again under the same ARN."""
    found = []
    for summary in _all(
        sfn, "list_executions", "executions", stateMachineArn=machine_arn, statusFilter="RUNNING"
    ):
        described = sfn.describe_execution(executionArn=summary["executionArn"])
        found.append(
            {"stateMachineArn": machine_arn, "name": described["name"], "input": described.get("input", "{}")}
        )
    return found


def _all(
    client: Any, operation: str, key: str, page_key: str = "nextToken", **arguments: Any
) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        page = getattr(client, operation)(**arguments)
        found.extend(page.get(key, []))
        if not page.get(page_key):
            return found
        arguments[page_key] = page[page_key]


class StateSaver:
    """Saves the kept state when something changed since the last save (checked every few seconds,
    and once more when the stack stops), so even a stack that is killed loses little. A save holds
    moto's item lock while it copies a table (5,000 items: ~85 ms), so saves are spaced to cost at most
    a tenth of the time; the save at stop is never skipped."""

    def __init__(self, context: StackContext, resource_types: dict[str, str], path: Path) -> None:
        self._context, self._resource_types, self._path = context, resource_types, path
        self._saved: tuple[Any, ...] | None = None
        self._not_before = 0.0

    def tick(self) -> None:
        if time.monotonic() >= self._not_before:
            self.save_if_changed()

    def save_if_changed(self) -> None:
        seen = self._fingerprint()
        if seen == self._saved:
            return
        started = time.monotonic()
        kept = capture(self._context, self._resource_types)
        kept.write(self._path)
        self._saved = seen
        finished = time.monotonic()
        self._not_before = finished + SAVE_SPACING_FACTOR * (finished - started)
        logger.debug("state saved in %.0f ms: %s", (finished - started) * 1000, kept.summary() or "empty")

    def _fingerprint(self) -> tuple[int, ...]:
        """Changes whenever a table is written, an execution starts or ends, or a state machine is
        created or deleted: counted in this process as moto does them, so a tick that finds nothing
        changed asks moto nothing."""
        news = (moto_news.EXECUTION_STARTED, moto_news.EXECUTION_ENDED, moto_news.MACHINES_CHANGED)
        return (write_count(), *(moto_news.count(kind) for kind in news))


def autosave_pump(context: StackContext, resource_types: dict[str, str], path: Path) -> Pump:
    """Saves what `capture` reads (the template's resources of `resource_types`, logical id → type)
    to `path` whenever it changed."""
    saver = StateSaver(context, resource_types, path)
    return Pump("autosave", saver.tick, AUTOSAVE_SECONDS, final_tick=saver.save_if_changed)
