"""What an operator sees of a resolve, a refusal and a deadline, read the way Powertools' own tests
read it: the EMF lines on stdout (CloudWatch's metrics), the log lines with their correlation ids, and
the X-Ray subsegments of a traced invocation, recorded by an in-memory emitter (no daemon, no network)."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.integration.test_channel_flow import channels as channels_fixture
from tests.integration.test_durability_faults import CUSTOM, node
from tests.integration.test_token_surfaces import minted
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event
from tests.support.links import token_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "feedback": "Ship it.", "decidedAt": "2026-11-30T10:00:00Z"}
TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


def suspended(harness: WorkflowHarness, interrupt: dict[str, Any] = APPROVAL) -> SuspendedRun:
    run = harness.suspend(interrupt)
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    return run


def printed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """Every JSON line on stdout (EMF documents and Powertools log lines alike)."""
    lines = []
    for line in capsys.readouterr().out.splitlines():
        try:
            document = json.loads(line)
        except ValueError:
            continue
        if isinstance(document, dict):
            lines.append(document)
    return lines


@pytest.fixture
def log_lines() -> Iterator[Callable[[], list[dict[str, Any]]]]:
    """The Powertools logger's own JSON lines (formatted with the invocation's keys), as CloudWatch
    Logs would receive them: its handler writes to a buffer for the test."""
    from aws_lambda_powertools import Logger

    Logger(service="waitgate")  # the handlers' logger, configured once per process
    (handler,) = logging.getLogger("waitgate").handlers
    buffer = io.StringIO()
    assert isinstance(handler, logging.StreamHandler)
    previous, handler.stream = handler.stream, buffer  # not setStream: it flushes the old stream first

    def read() -> list[dict[str, Any]]:
        """The lines written since the last read."""
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]

    yield read
    handler.stream = previous


def emf(documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [document for document in documents if "_aws" in document]


def metric(documents: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    found = []
    for document in emf(documents):
        (directive,) = document["_aws"]["CloudWatchMetrics"]
        if [m["Name"] for m in directive["Metrics"]] == [name]:
            found.append(document)
    return found


def dimensions(document: dict[str, Any]) -> dict[str, str]:
    (directive,) = document["_aws"]["CloudWatchMetrics"]
    return {key: document[key] for key in directive["Dimensions"][0]}


def test_a_resolve_emits_its_request_vote_decision_time_and_delivery(
    harness: WorkflowHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a suspended approval
    run = suspended(harness)
    # When alice accepts it on the run surface
    answer = Handler("resolve_by_run")(http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}))
    assert answer["statusCode"] == 200
    documents = printed(capsys)
    # Then one EMF line each: requested, the vote, the decision, its time to decision, the inline delivery
    (requested,) = metric(documents, "InterruptsRequested")
    assert dimensions(requested) == {"kind": "approval", "outcome": "requested", "service": "waitgate"}
    (vote,) = metric(documents, "Votes")
    assert dimensions(vote) == {"kind": "approval", "outcome": "accept", "service": "waitgate"}
    (resolved,) = metric(documents, "InterruptsResolved")
    assert dimensions(resolved) == {"kind": "approval", "outcome": "accept", "service": "waitgate"}
    (delivered,) = metric(documents, "Deliveries")
    assert dimensions(delivered) == {"outcome": "inline", "service": "waitgate"}
    # And the time to decision is a high-resolution metric in ms, by kind and over every kind
    (waited,) = metric(documents, "TimeToDecision")
    (directive,) = waited["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "waitgate"
    high_resolution = {"Name": "TimeToDecision", "Unit": "Milliseconds", "StorageResolution": 1}
    assert directive["Metrics"] == [high_resolution]
    assert directive["Dimensions"] == [["kind", "service"], ["service"]]
    assert 0 <= waited["TimeToDecision"][0] < 60_000
    # And the tenant is a property of every line, never a dimension
    for document in emf(documents):
        assert document["tenantId"] == "default"
        (directive,) = document["_aws"]["CloudWatchMetrics"]
        assert all("tenantId" not in names for names in directive["Dimensions"])


def test_refused_links_are_counted_by_status_alone(
    harness: WorkflowHarness, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a link, used once
    run = suspended(harness)
    token = minted(run)["token"]
    used = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    assert used["statusCode"] == 200
    capsys.readouterr()
    # When it is used again (409), and a tampered copy is presented (401)
    again = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    forged = Handler("inspect_by_token")(token_event(token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")))
    assert (again["statusCode"], forged["statusCode"]) == (409, 401)
    documents = printed(capsys)
    # Then TokenRefusals counts one 409 and one 401, and no line holds anything of the token
    refusals = metric(documents, "TokenRefusals")
    assert sorted(dimensions(d)["outcome"] for d in refusals) == ["401", "409"]
    everything = json.dumps(documents)
    assert token not in everything and token.rsplit(".", 1)[1] not in everything


def test_a_deadline_emits_an_expiry_and_its_delivery(
    harness: WorkflowHarness,
    dynamodb: Any,
    table_name: str,
    capsys: pytest.CaptureFixture[str],
    log_lines: Callable[[], list[dict[str, Any]]],
) -> None:
    # Given a custom interrupt whose 50 ms deadline passed
    run = suspended(harness, {**CUSTOM, "timeoutMs": 50})
    interrupt_id = node(dynamodb, table_name, run.run_id)["interruptId"]
    time.sleep(0.1)
    capsys.readouterr()
    # When its schedule fires
    target = {"tenantId": "default", "runId": run.run_id, "nodeId": "Interrupt", "interruptId": interrupt_id}
    assert Handler("expire_interrupt")(target) == {"result": "expired"}
    documents = printed(capsys)
    # Then InterruptsExpired (custom, timed-out) and an inline delivery; no decision, no time to decision
    (expired,) = metric(documents, "InterruptsExpired")
    assert dimensions(expired) == {"kind": "custom", "outcome": "timed-out", "service": "waitgate"}
    assert [dimensions(d)["outcome"] for d in metric(documents, "Deliveries")] == ["inline"]
    assert metric(documents, "TimeToDecision") == metric(documents, "InterruptsResolved") == []
    # And every log line of the invocation names the run, the node and the interrupt
    (line,) = [line for line in log_lines() if line["message"] == "deadline reached"]
    assert (line["runId"], line["nodeId"], line["interruptId"]) == (run.run_id, "Interrupt", interrupt_id)


def test_every_log_line_of_a_request_carries_its_ids_and_never_a_token(
    harness: WorkflowHarness,
    capsys: pytest.CaptureFixture[str],
    log_lines: Callable[[], list[dict[str, Any]]],
) -> None:
    # Given a suspended approval, our loggers at DEBUG
    logging.getLogger("waitgate").setLevel("DEBUG")
    run = suspended(harness)
    token = minted(run)["token"]
    capsys.readouterr()
    log_lines()
    # When the link is opened and then used
    inspected = Handler("inspect_by_token")(token_event(token))
    used = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    assert (inspected["statusCode"], used["statusCode"]) == (200, 200)
    documents = printed(capsys)
    logs = log_lines()
    surfaces = ("inspect_by_token", "resolve_by_token")
    request_ids = {sample_event(name)["requestContext"]["requestId"] for name in surfaces}
    # Then every line after the token was verified carries runId, nodeId, interruptId and the request id
    interrupt_id = json.loads(used["body"])["interruptId"]
    identified = [line for line in logs if line.get("runId")]
    assert identified
    for line in identified:
        assert (line["runId"], line["nodeId"], line["interruptId"]) == (run.run_id, "Interrupt", interrupt_id)
        assert line.get("apiRequestId") in request_ids, line
    # And no line, nor any EMF document, holds the token, its MAC, the task token or the resume value
    everything = json.dumps(documents + logs)
    assert token not in everything and token.rsplit(".", 1)[1] not in everything
    assert run.task_event["taskToken"] not in everything
    assert "Ship it." not in everything


class RecordingEmitter:
    """Stands in for the X-Ray daemon's UDP emitter: keeps every entity the SDK sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send_entity(self, entity: Any) -> None:
        self.sent.append(json.loads(entity.serialize()))

    def set_daemon_address(self, address: Any) -> None:
        return None

    @property
    def ip(self) -> str:
        return "127.0.0.1"

    @property
    def port(self) -> int:
        return 2000


@pytest.fixture
def xray(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingEmitter]:
    """A Lambda environment with tracing on: the trace header Lambda sets, and the SDK's recorder in
    Lambda mode sending to memory. Afterwards the SDK is switched off again (its botocore patch stays)."""
    from aws_xray_sdk import global_sdk_config
    from aws_xray_sdk.core import xray_recorder
    from aws_xray_sdk.core.lambda_launcher import LambdaContext

    from waitgate.adapters import xray_tracing

    monkeypatch.setenv("LAMBDA_TASK_ROOT", "/var/task")
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "resolve-by-run")
    monkeypatch.setenv("_X_AMZN_TRACE_ID", TRACE_HEADER)
    monkeypatch.delenv("POWERTOOLS_TRACE_DISABLED", raising=False)
    emitter = RecordingEmitter()
    global_sdk_config.set_sdk_enabled(True)
    xray_recorder.configure(emitter=emitter, context=LambdaContext(), sampling=False)
    xray_tracing.tracer.cache_clear()
    yield emitter
    xray_tracing.tracer.cache_clear()
    global_sdk_config.set_sdk_enabled(False)


def test_a_traced_resolve_records_its_aws_calls_under_an_annotated_handler_subsegment(
    harness: WorkflowHarness, xray: RecordingEmitter
) -> None:
    # Given a suspended approval, and a Lambda environment with tracing on
    run = suspended(harness)
    xray.sent.clear()
    # When alice accepts it on the run surface
    answer = Handler("resolve_by_run")(http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}))
    assert answer["statusCode"] == 200
    # Then the invocation is one `## lambda_handler` subsegment annotated with the kind and the run
    (handler,) = [entity for entity in xray.sent if entity["name"] == "## lambda_handler"]
    assert handler["annotations"]["kind"] == "approval"
    assert handler["annotations"]["runId"] == run.run_id
    # And its DynamoDB and Step Functions calls are subsegments of it, in order
    calls = [(e["name"], e["aws"]["operation"]) for e in xray.sent if e.get("namespace") == "aws"]
    assert calls == [
        ("dynamodb", "BatchGetItem"),
        ("dynamodb", "TransactWriteItems"),
        ("states", "SendTaskSuccess"),
        ("dynamodb", "UpdateItem"),
    ]
    assert {e["parent_id"] for e in xray.sent if e.get("namespace") == "aws"} == {handler["id"]}
    # And nothing recorded holds the task token or the resume value
    recorded = json.dumps(xray.sent)
    assert run.task_event["taskToken"] not in recorded and "Ship it." not in recorded


channels = channels_fixture  # the channel tests' fixture: the topic, the queues, the directory, SES


def test_an_emailed_notice_is_counted_and_nothing_of_the_mail_is_logged(
    channels: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    log_lines: Callable[[], list[dict[str, Any]]],
) -> None:
    # Given alice with an e-mail address, asked to approve
    import boto3

    from tests.integration.test_channel_flow import sent_mail, sqs_event
    from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
    from waitgate.channels.contacts import ContactPoints

    DynamoDbContacts(boto3.client("dynamodb"), channels["directory"]).set_contact(
        "default", "alice", ContactPoints(email="alice@example.com")
    )
    run = WorkflowHarness().suspend({**APPROVAL, "data": {**APPROVAL["data"], "approversList": ["alice"]}})
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    # When the e-mail deliverer sends her notice
    event = sqs_event(channels["sqs"], channels["email"])
    assert Handler("deliver_email")(event) == {"batchItemFailures": []}
    documents, logs = printed(capsys), log_lines()
    # Then the topic's notice and the e-mail are counted by channel and outcome
    counted = [
        (dimensions(d)["channel"], dimensions(d)["outcome"]) for d in metric(documents, "Notifications")
    ]
    assert counted == [("topic", "sent"), ("email", "sent")]
    # And nothing written holds her link, its token, her address or the mail's text
    (mail,) = sent_mail()
    link = json.loads(event["Records"][0]["body"])["link"]
    everything = json.dumps(documents + logs)
    assert link.rsplit("/", 1)[1] not in everything and "alice@example.com" not in everything
    assert "personal" in mail.raw_data and "personal" not in everything
