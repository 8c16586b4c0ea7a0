"""What 1,000 decided approvals cost on AWS, by engine and by channel, beside AWS's human-approval sample
sending the same kind of notice, from what this bench measures and bench/prices.json.

waitgate (bench/cost_flows.py): the handlers of one approval decided by one vote, run in-process on moto
as Lambda would run them, for each channel (no notice, SES e-mail, Slack; an SNS e-mail subscription is
the no-notice flow plus one SNS e-mail per publish), each timed warm; every DynamoDB call counted with
its items sized as DynamoDB sizes them; every SNS publish and SES e-mail; the Step Functions Standard
transitions of the state machine's path; the bytes the functions log plus Lambda's own
START/END/REPORT lines. The durable engine (bench/cost_durable.py) is the same handlers without the
transitions, plus the durable function's invocations, operations and checkpointed bytes, read from
executions decided on a local stack.

The sample (bench/aws_sample.py): a REST API, two Lambda functions and a raw task token, run and timed on
the same moto in the same run, its notice function sending the same kind of notice: nothing, its SNS
e-mail, an SES e-mail, a Slack post (the stand-in). The ratio is measured, not quoted.

What is not per decision is left out on both sides and said in docs/performance.md: storage, the
custom metrics' monthly price, X-Ray traces (sampled), Secrets Manager reads (cached per instance).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.cost_durable import DurableFigures, measure_durable
from bench.cost_flows import MEASURED, SIGNING_SECRET, TEAM, WARMUP, Meters, measure, on_moto, template_sizes
from bench.cost_model import PRICES, Decision, Invocation, logged_bytes, timed, transitions_of
from bench.report import RESULTS, Row
from bench.samples import APPROVAL

GROUP = "cost"
APPROVALS = 1000
CHANNELS = ("no notice", "SNS e-mail", "SES e-mail", "Slack")
ENGINES = {"Step Functions": 1.0, "durable function": 0.5}  # the target: at most this × the sample
BREAKDOWN = RESULTS / "cost-breakdown.json"  # what bench/cost_chart.py draws
WHY = {
    "DynamoDB writes (WRU)": "the state the sample does not keep: events, KEY record, snapshot, inbox index",
    "DynamoDB reads (RRU)": "reading that state before each change",
    "Lambda requests": "more functions: the outbox, the run's end, the channel's deliverer",
    "Lambda GB-seconds": "512 MB arm64 handlers doing more work than the sample's 128 MB",
    "CloudWatch Logs ingestion": "structured logs and EMF metrics",
    "SES e-mails, SQS requests": "SES and the deliverers' queues",
    "SNS (publishes, e-mails)": "the notice's publish on the bus",
    "Lambda durable operations, data": "the durable execution's operations",
    "API Gateway": "the decision's request",
    "Step Functions transitions": "the state machine",
}


# --- AWS's sample ------------------------------------------------------------------------------------


def measure_sample(channel: str, senders: dict[str, Callable[[dict[str, Any]], None]]) -> Decision:
    """The sample with `channel`'s notice: its two functions timed, what they are billed for."""
    import boto3

    from bench import aws_sample
    from bench.task_tokens import TaskTokens

    sfn = boto3.client("stepfunctions", region_name="us-east-1")
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
            timed(send, measuring, functools.partial(senders[channel], payload))
            event = aws_sample.click_event(task["runId"], task["taskToken"])
            timed(click, measuring, functools.partial(aws_sample.approval, event, sfn))
            logged_now = written()
        if measuring:
            logged += logged_now
    decision.log_bytes = logged / MEASURED
    decision.rest_api_requests = 1
    decision.sns_publishes = decision.sns_emails = 1 if channel == "SNS e-mail" else 0
    decision.ses_emails = 1 if channel == "SES e-mail" else 0
    decision.transitions = transitions_of(aws_sample.DEFINITION)
    return decision


def sample_senders(slack_api_url: str) -> dict[str, Callable[[dict[str, Any]], None]]:
    import boto3

    from bench import aws_sample

    sns = boto3.client("sns", region_name="us-east-1")
    topic = sns.create_topic(Name="bench-sample-approvals")["TopicArn"]
    sesv2 = boto3.client("sesv2", region_name="us-east-1")
    return {
        "no notice": aws_sample.send_nothing,
        "SNS e-mail": lambda p: aws_sample.send_email(p, sns, topic),
        "SES e-mail": lambda p: aws_sample.send_ses(p, sesv2, "waitgate@example.com", "alice@example.com"),
        "Slack": lambda p: aws_sample.send_slack(p, slack_api_url, "xoxb-bench", "U0ALICE"),
    }


# --- waitgate ----------------------------------------------------------------------------------------


def waitgate_by_channel(meters: Meters) -> dict[str, Decision]:
    none, email, slack = (measure(flow, meters) for flow in ("none", "email", "slack"))
    sns_email = dataclasses.replace(none, sns_emails=none.sns_publishes)  # the topic's e-mail subscription
    return {"no notice": none, "SNS e-mail": sns_email, "SES e-mail": email, "Slack": slack}


def on_durable(decision: Decision, durable: DurableFigures) -> Decision:
    """The same decision with a durable function in place of the state machine: no transitions; the
    function's invocations (the first waits for its submitter's synchronous Invoke of
    request_interrupt, billed at that handler's measured time; the replay after the answer is not
    timed, billed at Lambda's 1 ms minimum), its operations, its checkpointed bytes."""
    memory, architecture = template_sizes()["approval_sample"]
    asked = decision.invocations["request_interrupt"].median_ms
    invocations = dict(decision.invocations)
    for number in range(round(durable.invocations)):
        name = f"approval_sample (invocation {number + 1})"
        invocations[name] = Invocation(name, memory, architecture, [asked if number == 0 else 1.0])
    return dataclasses.replace(
        decision,
        invocations=invocations,
        transitions=0,
        durable_operations=durable.operations,
        durable_bytes=durable.bytes_written,
        durable_retention_days=retention_days(),
    )


def retention_days() -> int:
    """How long Lambda keeps a durable execution's state after it ends (the sample's DurableConfig)."""
    from local.template.sam_template import load_template

    properties = load_template()["Resources"]["ApprovalSampleFunction"]["Properties"]
    return int(properties["DurableConfig"]["RetentionPeriodInDays"])


# --- Rows --------------------------------------------------------------------------------------------


def why_above(ours: Decision, sample: Decision, goal: float) -> str:
    """Where ours costs more than `goal` × the sample's, the parts that make the difference."""
    mine, theirs = ours.costs(), sample.costs()
    over = sorted(((mine[p] - theirs[p] * goal, p) for p in mine if mine[p] > theirs[p] * goal), reverse=True)
    return "; ".join(f"{part} +{usd * APPROVALS:.4f} ({WHY[part]})" for usd, part in over[:3])


def rows_of(ours: dict[str, dict[str, Decision]], samples: dict[str, Decision]) -> list[Row]:
    price_note = f"prices of {PRICES['date']} ({PRICES['region']}, bench/prices.json)"
    rows = []
    for channel in CHANNELS:
        sample = samples[channel]
        rows.append(
            Row(GROUP, f"AWS sample, {channel}: 1,000 decided approvals", sample.total() * APPROVALS, "USD",
                note=f"{price_note}; {len(sample.invocations)} invocations at {sample_memory()} MB x86_64, "
                     f"{sample.transitions} transitions, no state")
        )  # fmt: skip
        for engine, goal in ENGINES.items():
            decision = ours[engine][channel]
            ratio = decision.total() / sample.total()
            met = ratio <= goal
            note = (
                f"{len(decision.invocations)} invocations, {decision.read_units:.1f} RRU, "
                f"{decision.write_units:.1f} WRU, {decision.transitions} transitions, "
                f"{decision.durable_operations:.0f} durable operations"
            )
            above = (decision.total() - goal * sample.total()) * APPROVALS
            why = "" if met else f"above by {above:.4f} USD: {why_above(decision, sample, goal)}"
            rows += [
                Row(GROUP, f"waitgate {engine}, {channel}: 1,000 decided approvals",
                    decision.total() * APPROVALS, "USD", note=note),
                Row(GROUP, f"waitgate {engine} / sample, {channel}", ratio, "×", target=f"≤ {goal:g}×",
                    met=met, note=why),
            ]  # fmt: skip
    return rows


def breakdown(ours: dict[str, dict[str, Decision]], samples: dict[str, Decision]) -> dict[str, Any]:
    """USD per 1,000 decisions by part, per engine, channel and side: what bench/cost_chart.py draws."""

    def parts(decision: Decision) -> dict[str, float]:
        return {part: round(usd * APPROVALS, 6) for part, usd in decision.costs().items()}

    return {
        "prices": f"{PRICES['date']} ({PRICES['region']})",
        "engines": {
            engine: {
                channel: {"waitgate": parts(by_channel[channel]), "AWS sample": parts(samples[channel])}
                for channel in CHANNELS
            }
            for engine, by_channel in ours.items()
        },
        "targets": ENGINES,
    }


def sample_memory() -> int:
    from bench import aws_sample

    return aws_sample.MEMORY_MB


def run() -> list[Row]:
    from moto import mock_aws

    from local.patches.moto_atomicity import serialize_dynamodb_operations
    from local.standins.slack_api import SlackApp, SlackStandInServer, SlackWebApiStandIn

    durable = measure_durable()  # on a local stack of its own, before moto is mocked in-process
    serialize_dynamodb_operations()
    posts: list[dict[str, Any]] = []

    def record(message: dict[str, Any], updated: bool) -> None:
        if not updated:
            posts.append(message)

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the stand-in's line per request
    app = SlackApp(bot_token="xoxb-bench", signing_secret=SIGNING_SECRET, team_id=TEAM)
    slack = SlackStandInServer(SlackWebApiStandIn(app, record))
    slack.start()
    try:
        with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
            by_channel = waitgate_by_channel(on_moto(slack.api_url, posts))
            senders = sample_senders(slack.api_url)
            samples = {channel: measure_sample(channel, senders) for channel in CHANNELS}
    finally:
        slack.stop()
    ours = {
        "Step Functions": by_channel,
        "durable function": {channel: on_durable(d, durable) for channel, d in by_channel.items()},
    }
    BREAKDOWN.parent.mkdir(exist_ok=True)
    BREAKDOWN.write_text(json.dumps(breakdown(ours, samples), indent=2) + "\n", encoding="utf-8")
    return rows_of(ours, samples)


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
    print(f"the breakdown for bench/cost_chart.py: {Path(BREAKDOWN)}")
