"""The smoke's checks, each one path a user's run takes through a stack: an approval decided through its
signed link, a signed webhook resuming the run that waits for it, a durable function's approval (when
the samples are deployed), and every alarm the template declares. Each waits for what the stack shows
(never for a fixed time), within the check's bound, and says what it saw."""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from local.smoke.targets import SMOKE_APPROVER, SMOKE_TENANT, SmokeTarget, template_alarms
from waitgate.adapters import dynamodb_items, dynamodb_keys
from waitgate.adapters.secrets_keyring import secret_loader
from waitgate.adapters.webhook_sources import WebhookSourceStore
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.service.mint_token import LinkSettings, link_for
from waitgate.tokens.keyring import Keyring
from waitgate.webhooks.signatures import base64_secret, standard_webhooks_signature
from waitgate.webhooks.sources import parse_source

T = TypeVar("T")
SMOKE_SOURCE = "waitgate-smoke"  # the webhook source the smoke keeps (its secret stays from run to run)
SMOKE_EVENT = "waitgate.smoke"
LINK_LIFETIME = timedelta(minutes=15)


class CheckFailedError(Exception):
    """What a check saw instead of what it waited for."""


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[SmokeTarget, float], str]  # (target, bound in seconds) → what it saw, or CheckFailedError


def wait_until(probe: Callable[[], T | None], bound: float, what: str) -> T:
    """The first answer of `probe` that is not None, asked every half second for `bound` seconds."""
    deadline = time.monotonic() + bound
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            raise CheckFailedError(f"{what}: not within {bound:.0f} s")
        time.sleep(0.5)


def http(
    method: str, url: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """(status, content type, body text) of one request; an HTTP error status is an answer too."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode("utf-8")
    sent = {
        "Accept": "application/json",
        **({"Content-Type": "application/json"} if data else {}),
        **(headers or {}),
    }
    request = urllib.request.Request(url, data=data, headers=sent, method=method)  # noqa: S310 - the stack's own URL
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return response.status, response.headers.get("Content-Type", ""), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode("utf-8", "replace")


def approval(key: str, title: str) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": key,
        "data": {
            "artifactId": key,
            "artifactType": "smoke-test",
            "title": title,
            "actions": ["accept", "reject"],
            "approversList": [SMOKE_APPROVER],
        },
    }


def pending_record(target: SmokeTarget, run_id: str, node_id: str, bound: float) -> InterruptRecord:
    """The run's interrupt once it is pending (read from the table, as the stack wrote it)."""
    key = {
        "pk": {"S": dynamodb_keys.run_pk(RunRef(SMOKE_TENANT, run_id))},
        "sk": {"S": dynamodb_keys.node_sk(node_id)},
    }
    dynamodb = target.clients("dynamodb")

    def pending() -> InterruptRecord | None:
        item = dynamodb.get_item(TableName=target.interrupts_table, Key=key, ConsistentRead=True).get("Item")
        record = dynamodb_items.interrupt_from_item(item) if item else None
        return record if record is not None and record.status == "pending" else None

    return wait_until(pending, bound, f"run {run_id}'s interrupt to be pending")


def signed_link(target: SmokeTarget, record: InterruptRecord) -> str:
    """A resolve link for the smoke's approver, signed with the stack's own signing key."""
    load = secret_loader(lambda: target.clients("secretsmanager"), target.token_secret_arn)
    keyring = Keyring.from_secret_json(load())  # as the functions read it
    settings = LinkSettings(LINK_LIFETIME, target.api_url.rstrip("/"))
    return link_for(record, "resolve", SMOKE_APPROVER, keyring, datetime.now(UTC), settings).url


def decide_by_link(record: InterruptRecord, target: SmokeTarget) -> str:
    """Open the link's page as a browser would, then press Accept through it (the JSON form)."""
    link = signed_link(target, record)
    status, content_type, _ = http("GET", link, headers={"Accept": "text/html"})
    if status != 200 or not content_type.startswith("text/html"):
        raise CheckFailedError(f"the signed link's page answered {status} ({content_type or 'no type'})")
    decision = {"action": "accept", "decidedAt": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    status, _, body = http("POST", link, {"resumeValue": decision})
    if status != 200:
        raise CheckFailedError(f"the signed link's resolve answered {status}: {body[:300]}")
    return "page 200, resolve 200"


def execution_output(target: SmokeTarget, execution_arn: str, bound: float) -> dict[str, Any]:
    sfn = target.clients("stepfunctions")

    def ended() -> dict[str, Any] | None:
        described: dict[str, Any] = sfn.describe_execution(executionArn=execution_arn)
        return None if described["status"] == "RUNNING" else described

    described = wait_until(ended, bound, "the execution to end")
    if described["status"] != "SUCCEEDED":
        cause = f"{described.get('error', '')} {described.get('cause', '')}".strip()
        raise CheckFailedError(f"the execution ended {described['status']}: {cause[:300]}")
    output: dict[str, Any] = json.loads(described.get("output") or "null")
    return output


def check_approval(target: SmokeTarget, bound: float) -> str:
    run_id = f"smoke-{uuid.uuid4().hex[:16]}"
    started = target.clients("stepfunctions").start_execution(
        stateMachineArn=target.interrupt_state_machine_arn,
        name=run_id,
        input=json.dumps(
            {"tenantId": SMOKE_TENANT, "interrupt": approval(run_id, "waitgate smoke: approve?")}
        ),
    )
    said = decide_by_link(pending_record(target, run_id, "Interrupt", bound), target)
    output = execution_output(target, started["executionArn"], bound)
    if output.get("action") != "accept":
        raise CheckFailedError(f"the run SUCCEEDED with {json.dumps(output)[:200]}, not the accept")
    return f"run {run_id}: {said}, SUCCEEDED with the decision"


def smoke_source_secret(target: SmokeTarget) -> str:
    """The smoke source's secret: kept from an earlier run (a warm receiver may hold it for a minute),
    else a new source with a new one."""
    store = WebhookSourceStore(
        lambda: target.clients("dynamodb"),
        lambda: target.clients("secretsmanager"),
        target.directory_table,
        target.webhook_secret_prefix,
    )
    configured = store.source(SMOKE_SOURCE)
    if configured is not None and configured.secrets and configured.source.tenant_id == SMOKE_TENANT:
        return configured.secrets[0]
    secret = base64_secret(secrets.token_bytes(32))
    document = {"name": SMOKE_SOURCE, "tenantId": SMOKE_TENANT, "scheme": "standard-webhooks"}
    store.put(parse_source({**document, "typePath": "type", "dataPath": "data"}), (secret,))
    return secret


def check_webhook(target: SmokeTarget, bound: float) -> str:
    run_id = f"smoke-{uuid.uuid4().hex[:16]}"
    wait = {
        "kind": "external-event",
        "key": run_id,
        "data": {"eventType": SMOKE_EVENT, "correlation": {"smokeRun": run_id}},
    }
    started = target.clients("stepfunctions").start_execution(
        stateMachineArn=target.interrupt_state_machine_arn,
        name=run_id,
        input=json.dumps({"tenantId": SMOKE_TENANT, "interrupt": wait}),
    )
    pending_record(target, run_id, "Interrupt", bound)
    secret = smoke_source_secret(target)
    body = json.dumps({"type": SMOKE_EVENT, "data": {"smokeRun": run_id, "ok": True}}).encode("utf-8")
    message_id, stamp = f"msg_{uuid.uuid4().hex}", int(time.time())
    headers = {
        "webhook-id": message_id,
        "webhook-timestamp": str(stamp),
        "webhook-signature": standard_webhooks_signature(secret, message_id, stamp, body),
    }
    url = f"{target.webhooks_url}/{SMOKE_SOURCE}"

    def delivered() -> tuple[int, str] | None:
        status, _, answer = http("POST", url, body, headers)
        return None if status == 401 else (status, answer)  # a warm receiver still without the new source

    status, answer = wait_until(delivered, min(bound, 90.0), "the signed webhook to be taken")
    if status != 200:
        raise CheckFailedError(f"the signed webhook was answered {status}: {answer[:300]}")
    output = execution_output(target, started["executionArn"], bound)
    if output.get("data", {}).get("smokeRun") != run_id:  # the source resumes with the whole event
        raise CheckFailedError(f"the run SUCCEEDED with {json.dumps(output)[:200]}, not the event's data")
    return f"run {run_id}: webhook {json.loads(answer).get('status', status)}, SUCCEEDED with the event"


def check_durable(target: SmokeTarget, bound: float) -> str:
    if target.durable_function is None or target.durable_clients is None:
        return "skipped: the samples are not deployed (DeploySamples=false)"
    run_id = f"smoke-{uuid.uuid4().hex[:16]}"
    lambdas = target.durable_clients("lambda")
    started = lambdas.invoke(
        FunctionName=target.durable_function,
        InvocationType="Event",
        DurableExecutionName=run_id,
        Payload=json.dumps(
            {"tenantId": SMOKE_TENANT, "interrupt": approval(run_id, "waitgate smoke: durable?")}
        ),
    )
    said = decide_by_link(pending_record(target, run_id, run_id, bound), target)

    def ended() -> dict[str, Any] | None:
        execution: dict[str, Any] = lambdas.get_durable_execution(
            DurableExecutionArn=started["DurableExecutionArn"]
        )
        return None if execution["Status"] == "RUNNING" else execution

    execution = wait_until(ended, bound, "the durable execution to end")
    if execution["Status"] != "SUCCEEDED":
        raise CheckFailedError(
            f"the durable execution ended {execution['Status']}: {execution.get('Error', '')}"
        )
    return f"durable execution {run_id}: {said}, SUCCEEDED"


def check_alarms(target: SmokeTarget, _bound: float) -> str:
    declared = template_alarms()
    absent_from_stack = sorted(
        logical_id
        for logical_id, condition in declared.items()
        if condition is None and logical_id not in target.alarms
    )
    names = sorted(target.alarms.values())
    existing: set[str] = set()
    cloudwatch = target.clients("cloudwatch")
    for start in range(0, len(names), 100):
        paginator = cloudwatch.get_paginator("describe_alarms")
        for page in paginator.paginate(
            AlarmNames=names[start : start + 100], AlarmTypes=["MetricAlarm", "CompositeAlarm"]
        ):
            kept = page.get("MetricAlarms", []) + page.get("CompositeAlarms", [])
            existing |= {alarm["AlarmName"] for alarm in kept}
    missing = sorted(logical for logical, name in target.alarms.items() if name not in existing)
    if absent_from_stack or missing:
        raise CheckFailedError(
            f"alarms the template declares but the stack lacks: {', '.join(absent_from_stack) or 'none'}; "
            f"in the stack but not in CloudWatch: {', '.join(missing) or 'none'}"
        )
    return f"{len(existing)} alarms, every one the template declares"


CHECKS = (
    Check("approval by signed link", check_approval),
    Check("signed webhook", check_webhook),
    Check("durable function", check_durable),
    Check("alarms", check_alarms),
)
