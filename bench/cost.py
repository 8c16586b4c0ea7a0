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

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.cost_model import PRICES, Decision, Invocation, logged_bytes, timed, transitions_of
from bench.dynamodb_capacity import Capacity
from bench.report import Row
from bench.samples import APPROVAL

GROUP = "cost"
APPROVALS = 1000
WARMUP, MEASURED = 3, 15
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


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


@dataclass
class _WaitgateMeters:
    """What the waitgate side counts beside the handlers' durations: capacity, publishes, e-mails."""

    capacity: Capacity
    email_queue: str
    publishes: list[str] = field(default_factory=list)
    mails: list[str] = field(default_factory=list)


def _waitgate_on_moto(sqs: Any) -> _WaitgateMeters:
    """The tables, topic, directory (alice's e-mail) and SES identity, the e-mail channel's queue, and
    the counters on the handlers' own clients."""
    import os

    import boto3

    from bench.roundtrips import _environment
    from tests.integration.conftest import create_table_from_template
    from tests.integration.test_channel_flow import channel_queue, fresh_instances
    from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
    from waitgate.channels.contacts import ContactPoints
    from waitgate.wiring import composition

    _environment()
    sns, dynamodb = (boto3.client(name, region_name="us-east-1") for name in ("sns", "dynamodb"))
    topic = sns.create_topic(Name="bench-notices")["TopicArn"]
    directory = create_table_from_template(dynamodb, "DirectoryTable", "bench-directory")
    boto3.client("sesv2", region_name="us-east-1").create_email_identity(EmailIdentity="waitgate@example.com")
    os.environ.update(TOPIC_ARN=topic, DIRECTORY_TABLE_NAME=directory, EMAIL_SENDER="waitgate@example.com")
    fresh_instances()
    DynamoDbContacts(dynamodb, directory).set_contact(
        "default", "alice", ContactPoints(email="alice@example.com")
    )
    meters = _WaitgateMeters(Capacity(dynamodb), channel_queue(sqs, sns, topic, "EmailDeliverySubscription"))
    meters.capacity.attach(composition.aws_client("dynamodb"))
    composition.aws_client("sns").meta.events.register(
        "before-call.sns.Publish", lambda **_: meters.publishes.append("Publish")
    )
    composition.aws_client("sesv2").meta.events.register(
        "before-call.sesv2.SendEmail", lambda **_: meters.mails.append("SendEmail")
    )
    return meters


WAITGATE_HANDLERS = ("request_interrupt", "deliver_email", "resolve_by_run", "dispatch_stream",
                     "run_lifecycle")  # fmt: skip


def measure_waitgate() -> Decision:
    import os

    import boto3

    from tests.integration.workflow_harness import WorkflowHarness
    from tests.support.handlers import Handler

    sqs = boto3.client("sqs", region_name="us-east-1")
    meters = _waitgate_on_moto(sqs)
    sizes = _template_sizes()
    handlers = {name: Handler(name) for name in WAITGATE_HANDLERS}
    decision = Decision(invocations={name: Invocation(name, *sizes[name]) for name in WAITGATE_HANDLERS})
    harness, table = WorkflowHarness(), os.environ["TABLE_NAME"]
    capacity, logged = meters.capacity, 0
    for number in range(WARMUP + MEASURED):
        measuring = number >= WARMUP
        read, write, sent, mailed = capacity.read, capacity.write, len(meters.publishes), len(meters.mails)
        with logged_bytes() as written:
            _decide_one(harness, handlers, decision, measuring, sqs, meters, table)
            logged_now = written()
        if measuring:
            decision.read_units += (capacity.read - read) / MEASURED
            decision.write_units += (capacity.write - write) / MEASURED
            decision.sns_publishes += (len(meters.publishes) - sent) / MEASURED
            decision.ses_emails += (len(meters.mails) - mailed) / MEASURED
            logged += logged_now
    decision.sqs_requests = 2  # Lambda's poller: the ReceiveMessage that got the notice, its DeleteMessage
    decision.log_bytes = logged / MEASURED
    decision.http_api_requests = 1
    decision.transitions = transitions_of(json.loads(Path("statemachines/interrupt.asl.json").read_text()))
    return decision


def _decide_one(
    harness: Any,
    handlers: dict[str, Any],
    decision: Decision,
    measuring: bool,
    sqs: Any,
    meters: _WaitgateMeters,
    table: str,
) -> None:
    """One approval, from its request to its run's end, each handler timed as `decision` counts it."""
    from tests.integration.test_channel_flow import sqs_event
    from tests.support.handlers import http_event

    interrupt = {**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice"]}}
    run = harness.suspend(json.loads(json.dumps(interrupt)))
    task = {**run.task_event, "executionArn": run.execution_arn}
    at = decision.invocations
    timed(at["request_interrupt"], measuring, lambda: handlers["request_interrupt"](task))
    notices = sqs_event(sqs, meters.email_queue)
    assert len(notices["Records"]) == 1, notices
    timed(at["deliver_email"], measuring, lambda: handlers["deliver_email"](notices))
    sqs.delete_message(QueueUrl=meters.email_queue, ReceiptHandle=notices["Records"][0]["receiptHandle"])
    event = http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}, sub="alice")
    answer = timed(at["resolve_by_run"], measuring, lambda: handlers["resolve_by_run"](event))
    assert answer["statusCode"] == 200, answer
    key = {"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    item = meters.capacity.reader.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
    record = _stream_event(item, "pending")  # the table stream's one reader: outbox, Slack refresh, cleanup
    timed(at["dispatch_stream"], measuring, lambda: handlers["dispatch_stream"](record))
    harness.wait_for_end(run.execution_arn)
    ended = _ended_event(run.run_id, run.execution_arn)
    timed(at["run_lifecycle"], measuring, lambda: handlers["run_lifecycle"](ended))


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
