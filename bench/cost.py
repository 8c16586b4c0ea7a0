"""What 1,000 decided approvals cost on AWS, from what this bench measures and bench/prices.json.

waitgate: the handlers of one approval decided by one vote, run in-process on moto as Lambda would run
them (the request, the resolve over the HTTP API, the outbox's and the Slack refresh's stream records,
the run's end), each timed warm; every DynamoDB call counted with its items sized as DynamoDB sizes
them (reads: 4 KB units, strongly consistent reads whole, writes: 1 KB units, transactions twice);
every SNS publish; the Step Functions Standard transitions of the state machine's path; the bytes the
functions log (EMF lines included) plus Lambda's own START/END/REPORT lines. Beside it the same model
on AWS's documented human-approval sample (bench/aws_sample.py: REST API + two Lambda functions + a
raw task token), run and timed on the same moto in the same run, so the ratio is measured, not quoted.

What is not per decision is left out on both sides and said in docs/performance.md: storage, the
custom metrics' monthly price, X-Ray traces (sampled), Secrets Manager reads (cached per instance).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.report import Row
from bench.samples import APPROVAL

GROUP = "cost"
PRICES = json.loads((Path(__file__).with_name("prices.json")).read_text(encoding="utf-8"))
APPROVALS = 1000
WARMUP, MEASURED = 3, 15
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


# --- DynamoDB: item sizes and request units ---------------------------------------------------------


def attribute_size(value: dict[str, Any]) -> int:
    """An attribute value's size as DynamoDB counts it (docs: 'Item sizes and formats')."""
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        digits = inner.lstrip("-").replace(".", "").strip("0") or "0"
        return (len(digits) + 1) // 2 + 1
    if kind == "B":
        return len(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind in ("SS", "NS", "BS"):
        return sum(attribute_size({kind[0]: item}) for item in inner)
    if kind == "M":
        return 3 + sum(len(name.encode()) + attribute_size(item) + 1 for name, item in inner.items())
    if kind == "L":
        return 3 + sum(attribute_size(item) + 1 for item in inner)
    raise ValueError(kind)


def item_size(item: dict[str, Any]) -> int:
    return sum(len(name.encode()) + attribute_size(value) for name, value in item.items())


def read_units(size: int, consistent: bool, transactional: bool = False) -> float:
    units = math.ceil(max(size, 1) / 4096) * (1.0 if consistent else 0.5)
    return units * (2 if transactional else 1)


def write_units(size: int, transactional: bool = False) -> float:
    return math.ceil(max(size, 1) / 1024) * (2.0 if transactional else 1.0)


def secondary_indexes() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The interrupts table's GSIs in template.yaml: (key attributes, projected attributes)."""
    from local.template.sam_template import load_template

    table = load_template()["Resources"]["InterruptsTable"]["Properties"]
    found = []
    for index in table.get("GlobalSecondaryIndexes", []):
        keys = tuple(k["AttributeName"] for k in index["KeySchema"])
        projection = index["Projection"]
        included = (
            tuple(projection.get("NonKeyAttributes", ())) if projection["ProjectionType"] == "INCLUDE" else ()
        )
        found.append((keys, ("pk", "sk", *keys, *included)))
    return found


def index_write_units(old: dict[str, Any] | None, new: dict[str, Any] | None) -> float:
    """What a base-table write costs its GSIs: a put, an update or a delete of the projected item in
    each index whose key attributes the item has before or after (1 KB units, never doubled)."""
    units = 0.0
    for keys, projected in INDEXES:
        before = old if old and all(k in old for k in keys) else None
        after = new if new and all(k in new for k in keys) else None
        for item in (after or before,) if before is None or after is None else (after,):
            if item is not None:
                shown = item if projected == ("*",) else {k: v for k, v in item.items() if k in projected}
                units += write_units(item_size(shown))
    return units


INDEXES = secondary_indexes()


@dataclass
class Capacity:
    """The request units of the DynamoDB calls a client made (botocore events, moto in-process),
    with what the writes cost the table's secondary indexes."""

    reader: Any  # another client of the same moto: sizes items after a write, uncounted
    read: float = 0.0
    write: float = 0.0
    calls: list[str] = field(default_factory=list)
    _pending: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    _before_items: list[list[tuple[str, dict[str, Any], dict[str, Any] | None]]] = field(default_factory=list)

    def attach(self, client: Any) -> None:
        client.meta.events.register("before-call.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)

    def _before(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        body = params.get("body") or b"{}"
        request = json.loads(body)
        self._pending.append((model.name, request))
        self._before_items.append([(t, k, self._item(t, k)) for t, k in _written_keys(model.name, request)])

    def _after(self, model: Any, parsed: dict[str, Any], **_: Any) -> None:
        name, request = self._pending.pop(0)
        written = self._before_items.pop(0)
        self.calls.append(name)
        if "Error" in parsed:
            return
        sized = getattr(self, f"_{name}", None)
        if sized is not None:
            sized(request, parsed)
        for table, key, old in written:
            self.write += index_write_units(old, self._item(table, key))

    def _item(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.reader.get_item(
            TableName=table, Key=key, ConsistentRead=True
        ).get("Item")
        return found

    def _current(self, table: str, key: dict[str, Any]) -> int:
        found = self.reader.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")
        return item_size(found) if found else 1

    def _GetItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.read += read_units(item_size(parsed.get("Item") or {}), bool(request.get("ConsistentRead")))

    def _BatchGetItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        for table, items in parsed.get("Responses", {}).items():
            consistent = bool(request["RequestItems"][table].get("ConsistentRead"))
            self.read += sum(read_units(item_size(item), consistent) for item in items)

    def _Query(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        total = sum(item_size(item) for item in parsed.get("Items", []))
        self.read += read_units(total, bool(request.get("ConsistentRead")))

    def _PutItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.write += write_units(item_size(request["Item"]))

    def _UpdateItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.write += write_units(self._current(request["TableName"], request["Key"]))

    def _DeleteItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.write += write_units(1)

    def _TransactWriteItems(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        for entry in request["TransactItems"]:
            ((kind, operation),) = entry.items()
            if kind == "Put":
                size = item_size(operation["Item"])
            else:  # Update, ConditionCheck, Delete: the item as it is
                size = self._current(operation["TableName"], operation["Key"])
            self.write += write_units(size, transactional=True)

    def _TransactGetItems(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        for answer in parsed.get("Responses", []):
            self.read += read_units(item_size(answer.get("Item") or {}), True, transactional=True)


def _written_keys(operation: str, request: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(table, key) of every item a write request changes."""

    def key_of(item: dict[str, Any]) -> dict[str, Any]:
        return {name: item[name] for name in ("pk", "sk") if name in item}

    if operation == "PutItem":
        return [(request["TableName"], key_of(request["Item"]))]
    if operation in ("UpdateItem", "DeleteItem"):
        return [(request["TableName"], request["Key"])]
    if operation == "TransactWriteItems":
        found = []
        for entry in request["TransactItems"]:
            ((kind, change),) = entry.items()
            if kind != "ConditionCheck":
                found.append((change["TableName"], change.get("Key") or key_of(change["Item"])))
        return found
    return []


# --- The model ---------------------------------------------------------------------------------------


@dataclass
class Invocation:
    name: str
    memory_mb: int
    architecture: str
    durations_ms: list[float] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.durations_ms)

    def gb_seconds(self) -> float:
        step = PRICES["lambda_billing_granularity_ms"]
        billed = math.ceil(self.median_ms / step) * step
        return billed / 1000 * self.memory_mb / 1024


@dataclass
class Decision:
    """What one decided approval uses, per service."""

    invocations: dict[str, Invocation] = field(default_factory=dict)
    read_units: float = 0.0
    write_units: float = 0.0
    http_api_requests: int = 0
    rest_api_requests: int = 0
    transitions: int = 0
    sns_publishes: float = 0.0
    sns_emails: float = 0.0
    ses_emails: float = 0.0
    sqs_requests: float = 0.0
    log_bytes: float = 0.0

    def costs(self) -> dict[str, float]:
        """USD per decision, by what is paid for."""
        lambda_compute = sum(
            i.gb_seconds() * PRICES["lambda_gb_second"][i.architecture] for i in self.invocations.values()
        )
        platform_logs = len(self.invocations) * PRICES["lambda_platform_log_bytes_per_invocation"]
        return {
            "Lambda requests": len(self.invocations) * PRICES["lambda_request"],
            "Lambda GB-seconds": lambda_compute,
            "API Gateway": self.http_api_requests * PRICES["http_api_request"]
            + self.rest_api_requests * PRICES["rest_api_request"],
            "Step Functions transitions": self.transitions * PRICES["step_functions_standard_transition"],
            "DynamoDB reads (RRU)": self.read_units * PRICES["dynamodb_read_request_unit"],
            "DynamoDB writes (WRU)": self.write_units * PRICES["dynamodb_write_request_unit"],
            "SNS (publishes, e-mails)": self.sns_publishes * PRICES["sns_publish"]
            + self.sns_emails * PRICES["sns_email_notification"],
            "SES e-mails, SQS requests": self.ses_emails * PRICES["ses_email"]
            + self.sqs_requests * PRICES["sqs_request"],
            "CloudWatch Logs ingestion": (self.log_bytes + platform_logs)
            / 1024**3
            * PRICES["cloudwatch_logs_ingested_gb"],
        }

    def total(self) -> float:
        return sum(self.costs().values())


def transitions_of(definition: dict[str, Any]) -> int:
    """States entered on the decided path: each Next, a Choice's first branch (the approval)."""
    count, name = 0, definition["StartAt"]
    while name:
        state = definition["States"][name]
        count += 1
        if state.get("End"):
            break
        name = state["Choices"][0]["Next"] if state["Type"] == "Choice" else state.get("Next")
    return count


@contextlib.contextmanager
def logged_bytes() -> Iterator[Callable[[], int]]:
    """What a block wrote to stdout (EMF lines, prints) and through the Powertools logger."""
    from aws_lambda_powertools import Logger

    Logger(service="waitgate")
    handler = logging.getLogger("waitgate").handlers[0]
    buffer = io.StringIO()
    previous = getattr(handler, "stream", None)
    handler.stream = buffer  # type: ignore[attr-defined]
    try:
        with contextlib.redirect_stdout(buffer):
            yield lambda: len(buffer.getvalue().encode())
    finally:
        handler.stream = previous  # type: ignore[attr-defined]


def timed(invocation: Invocation, measuring: bool, action: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    answer = action()
    if measuring:
        invocation.durations_ms.append((time.perf_counter() - started) * 1000)
    return answer


# --- waitgate ----------------------------------------------------------------------------------------


def _template_sizes() -> dict[str, tuple[int, str]]:
    from local.template.sam_template import load_template

    template = load_template()
    defaults = template["Globals"]["Function"]
    sizes = {}
    for resource in template["Resources"].values():
        properties = resource.get("Properties", {})
        code = properties.get("CodeUri", "")
        if resource["Type"] == "AWS::Serverless::Function" and code.startswith("functions/"):
            memory = int(properties.get("MemorySize", defaults["MemorySize"]))
            arch = (properties.get("Architectures") or defaults["Architectures"])[0]
            sizes[code.strip("/").split("/")[1]] = (memory, arch)
    return sizes


def _stream_event(item: dict[str, Any], old_status: str) -> dict[str, Any]:
    """The DynamoDB stream record of the resolving commit (before the inline delivery's mark)."""
    new = {k: v for k, v in item.items() if k not in ("deliveredAt", "deliveryOutcome")}
    old = {**new, "status": {"S": old_status}}
    record = {
        "eventID": "1",
        "eventName": "MODIFY",
        "eventSource": "aws:dynamodb",
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/bench/stream/2026",
        "dynamodb": {
            "Keys": {"pk": item["pk"], "sk": item["sk"]},
            "NewImage": new,
            "OldImage": old,
            "SequenceNumber": "1",
            "SizeBytes": 1,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    }
    return {"Records": [record]}


def _ended_event(run_id: str, execution_arn: str) -> dict[str, Any]:
    return {
        "version": "0",
        "id": "bench",
        "detail-type": "Step Functions Execution Status Change",
        "source": "aws.states",
        "account": "123456789012",
        "time": "2026-12-01T00:00:00Z",
        "region": "us-east-1",
        "resources": [execution_arn],
        "detail": {"name": run_id, "executionArn": execution_arn, "status": "SUCCEEDED"},
    }


def measure_waitgate() -> Decision:
    import os

    import boto3

    from bench.roundtrips import _environment
    from tests.integration.conftest import create_table_from_template
    from tests.integration.test_channel_flow import channel_queue, fresh_instances, sqs_event
    from tests.integration.workflow_harness import WorkflowHarness
    from tests.support.handlers import Handler, http_event
    from waitgate import composition
    from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
    from waitgate.channels.contacts import ContactPoints

    _environment()
    sns, sqs, dynamodb = (boto3.client(name, region_name="us-east-1") for name in ("sns", "sqs", "dynamodb"))
    topic = sns.create_topic(Name="bench-notices")["TopicArn"]
    directory = create_table_from_template(dynamodb, "DirectoryTable", "bench-directory")
    boto3.client("sesv2", region_name="us-east-1").create_email_identity(EmailIdentity="waitgate@example.com")
    os.environ.update(TOPIC_ARN=topic, DIRECTORY_TABLE_NAME=directory, EMAIL_SENDER="waitgate@example.com")
    fresh_instances()
    alice = ContactPoints(email="alice@example.com")
    DynamoDbContacts(dynamodb, directory).set_contact("default", "alice", alice)
    email_queue = channel_queue(sqs, sns, topic, "EmailDeliverySubscription")
    capacity = Capacity(dynamodb)
    capacity.attach(composition.aws_client("dynamodb"))
    publishes: list[str] = []
    composition.aws_client("sns").meta.events.register(
        "before-call.sns.Publish", lambda **_: publishes.append("Publish")
    )
    mails: list[str] = []
    composition.aws_client("sesv2").meta.events.register(
        "before-call.sesv2.SendEmail", lambda **_: mails.append("SendEmail")
    )
    sizes = _template_sizes()
    names = ("request_interrupt", "deliver_email", "resolve_by_run", "deliver_resolution",
             "refresh_slack_messages", "run_lifecycle")  # fmt: skip
    handlers = {name: Handler(name) for name in names}
    decision = Decision(invocations={name: Invocation(name, *sizes[name]) for name in names})
    harness = WorkflowHarness()
    table = os.environ["TABLE_NAME"]
    interrupt = {**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice"]}}
    logged = 0
    for number in range(WARMUP + MEASURED):
        measuring = number >= WARMUP
        read, write, sent, mailed = capacity.read, capacity.write, len(publishes), len(mails)
        run = harness.suspend(json.loads(json.dumps(interrupt)))
        task = {**run.task_event, "executionArn": run.execution_arn}
        with logged_bytes() as written:
            at = decision.invocations
            timed(at["request_interrupt"], measuring, lambda t=task: handlers["request_interrupt"](t))
            notices = sqs_event(sqs, email_queue)
            assert len(notices["Records"]) == 1, notices
            timed(at["deliver_email"], measuring, lambda n=notices: handlers["deliver_email"](n))
            sqs.delete_message(QueueUrl=email_queue, ReceiptHandle=notices["Records"][0]["receiptHandle"])
            event = http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}, sub="alice")
            answer = timed(at["resolve_by_run"], measuring, lambda e=event: handlers["resolve_by_run"](e))
            assert answer["statusCode"] == 200, answer
            key = {"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}
            item = capacity.reader.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
            for name in ("deliver_resolution", "refresh_slack_messages"):
                record = _stream_event(item, "pending")
                timed(at[name], measuring, lambda n=name, r=record: handlers[n](r))
            harness.wait_for_end(run.execution_arn)
            ended = _ended_event(run.run_id, run.execution_arn)
            timed(at["run_lifecycle"], measuring, lambda e=ended: handlers["run_lifecycle"](e))
            logged_now = written()
        if measuring:
            decision.read_units += capacity.read - read
            decision.write_units += capacity.write - write
            decision.sns_publishes += len(publishes) - sent
            decision.ses_emails += len(mails) - mailed
            logged += logged_now
    decision.read_units /= MEASURED
    decision.write_units /= MEASURED
    decision.sns_publishes /= MEASURED
    decision.ses_emails /= MEASURED
    decision.sqs_requests = 2  # Lambda's poller: the ReceiveMessage that got the notice, its DeleteMessage
    decision.log_bytes = logged / MEASURED
    decision.http_api_requests = 1
    decision.transitions = transitions_of(json.loads(Path("statemachines/interrupt.asl.json").read_text()))
    return decision


# --- AWS's sample ------------------------------------------------------------------------------------


def measure_sample() -> Decision:
    import boto3

    from bench import aws_sample
    from bench.task_tokens import TaskTokens

    sns = boto3.client("sns", region_name="us-east-1")
    sfn = boto3.client("stepfunctions", region_name="us-east-1")
    topic = sns.create_topic(Name="bench-sample-approvals")["TopicArn"]
    tokens = TaskTokens(sfn, boto3.client("sqs", region_name="us-east-1"))
    send = Invocation("LambdaHumanApprovalSendEmailFunction", aws_sample.MEMORY_MB, aws_sample.ARCHITECTURE)
    click = Invocation("LambdaApprovalFunction", aws_sample.MEMORY_MB, aws_sample.ARCHITECTURE)
    decision = Decision(invocations={send.name: send, click.name: click})
    logged = 0
    for number in range(WARMUP + MEASURED):
        measuring = number >= WARMUP
        task = tokens.task_event(APPROVAL)
        payload = {
            "ExecutionContext": {
                "Execution": {"Id": task["executionArn"], "Name": task["runId"]},
                "StateMachine": {"Name": "HumanApprovalLambdaStateMachine"},
                "Task": {"Token": task["taskToken"]},
            },
            "APIGatewayEndpoint": aws_sample.API,
        }
        with logged_bytes() as written:
            timed(send, measuring, lambda p=payload: aws_sample.send_email(p, sns, topic))
            event = aws_sample.click_event(task["runId"], task["taskToken"])
            timed(click, measuring, lambda e=event: aws_sample.approval(e, sfn))
            logged_now = written()
        if measuring:
            logged += logged_now
    decision.log_bytes = logged / MEASURED
    decision.rest_api_requests = 1
    decision.sns_publishes = 1
    decision.sns_emails = 1
    decision.transitions = transitions_of(aws_sample.DEFINITION)
    return decision


# --- Rows --------------------------------------------------------------------------------------------


def rows_of(ours: Decision, sample: Decision) -> list[Row]:
    price_note = f"prices of {PRICES['date']} ({PRICES['region']}, bench/prices.json)"
    ratio = ours.total() / sample.total()
    rows = [
        Row(GROUP, f"{APPROVALS:,} decided approvals: waitgate", ours.total() * APPROVALS, "USD",
            note=f"{price_note}; {len(ours.invocations)} invocations, {ours.read_units:.1f} RRU, "
                 f"{ours.write_units:.1f} WRU, {ours.transitions} transitions per decision"),
        Row(GROUP, f"{APPROVALS:,} decided approvals: AWS sample (REST API + Lambda + task token)",
            sample.total() * APPROVALS, "USD",
            note=f"{len(sample.invocations)} invocations at {aws_sample_memory()} MB x86_64, "
                 f"{sample.transitions} transitions, no state"),
        Row(GROUP, "waitgate / AWS sample, per decided approval", ratio, "×",
            note="both measured in this run on the same moto, priced from the same table"),
    ]  # fmt: skip
    theirs = sample.costs()
    for part, usd in ours.costs().items():
        rows.append(
            Row(GROUP, f"· {part}", usd * APPROVALS, "USD",
                note=f"waitgate {usd * APPROVALS:.5f} USD, sample {theirs[part] * APPROVALS:.5f} USD")
        )  # fmt: skip
    for invocation in ours.invocations.values():
        rows.append(
            Row(GROUP, f"· {invocation.name}: duration (median of {MEASURED})", invocation.median_ms, "ms",
                note=f"{invocation.memory_mb} MB {invocation.architecture}")
        )  # fmt: skip
    for invocation in sample.invocations.values():
        rows.append(
            Row(GROUP, f"· sample {invocation.name}: duration", invocation.median_ms, "ms",
                note=f"{invocation.memory_mb} MB {invocation.architecture}")
        )  # fmt: skip
    return rows


def aws_sample_memory() -> int:
    from bench import aws_sample

    return aws_sample.MEMORY_MB


def run() -> list[Row]:
    from moto import mock_aws

    from local.patches.moto_atomicity import serialize_dynamodb_operations

    serialize_dynamodb_operations()
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        ours = measure_waitgate()
        sample = measure_sample()
    return rows_of(ours, sample)


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
