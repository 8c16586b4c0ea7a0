"""local.patches.in_process_calls: the stack's own calls to its moto server get, in-process, the answers
they got over HTTP — results, errors, percent-encoded paths, every protocol the stack speaks."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.httpsession import URLLib3Session

from local.patches import in_process_calls, is_patched
from local.stack_process import free_port
from local.standins.held_ports import HeldPort
from local.standins.moto_server import LocalMotoServer

ROLE = "arn:aws:iam::123456789012:role/r"
MACHINES = "arn:aws:states:us-east-1:123456789012:stateMachine:"
FUNCTIONS = "arn:aws:lambda:us-east-1:123456789012:function:"
DEFINITION = json.dumps({"StartAt": "P", "States": {"P": {"Type": "Pass", "End": True}}})


@pytest.fixture
def server() -> Iterator[LocalMotoServer]:
    started = LocalMotoServer(HeldPort(free_port(), "WAITGATE_AWS_PORT"))
    started.start()
    try:
        yield started
    finally:
        started.stop()


def _without_metadata(value: Any) -> Any:
    """An answer without what differs from call to call (request ids, dates, generated names)."""
    if isinstance(value, dict):
        return {
            k: _without_metadata(v)
            for k, v in value.items()
            if k not in {"ResponseMetadata", "creationDate", "startDate", "MessageId", "ReceiptHandle"}
        }
    if isinstance(value, list):
        return [_without_metadata(v) for v in value]
    return value


def _conversation(endpoint: str) -> list[Any]:
    """A spread of calls (JSON, query and REST protocols; an error; an ARN in a path), each answer or
    refusal as the caller sees it (the names it made written NAME), and each answer's header names."""
    name = uuid.uuid4().hex[:12]
    ddb = boto3.client("dynamodb", endpoint_url=endpoint)
    sqs = boto3.client("sqs", endpoint_url=endpoint)
    sns = boto3.client("sns", endpoint_url=endpoint)
    states = boto3.client("stepfunctions", endpoint_url=endpoint)
    scheduler = boto3.client("scheduler", endpoint_url=endpoint)
    lambdas = boto3.client("lambda", endpoint_url=endpoint)
    calls: list[Callable[[], Any]] = [
        lambda: ddb.create_table(
            TableName=name,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )["TableDescription"]["KeySchema"],
        lambda: ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "m": {"M": {"é": {"S": "ü"}}}}),
        lambda: ddb.put_item(
            TableName=name, Item={"pk": {"S": "a"}}, ConditionExpression="attribute_not_exists(pk)"
        ),
        lambda: ddb.get_item(TableName=name, Key={"pk": {"S": "a"}}),
        lambda: ddb.query(
            TableName=name, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "a"}}
        ),
        lambda: sqs.get_queue_url(QueueName=f"q{name}")["QueueUrl"].rsplit("/", 1)[1],
        lambda: sqs.send_message(QueueUrl=queue_url, MessageBody="hé"),
        lambda: sqs.receive_message(QueueUrl=queue_url)["Messages"][0]["Body"],
        lambda: sns.create_topic(Name=f"t{name}")["TopicArn"],
        lambda: states.describe_state_machine(stateMachineArn=f"{MACHINES}m{name}")["definition"],
        lambda: states.describe_state_machine(stateMachineArn=f"{MACHINES}none"),
        lambda: scheduler.get_schedule(Name="none"),
        lambda: lambdas.get_function(FunctionName=f"{FUNCTIONS}none{name}"),  # an ARN in the path
    ]
    queue_url = sqs.create_queue(QueueName=f"q{name}")["QueueUrl"]
    states.create_state_machine(name=f"m{name}", definition=DEFINITION, roleArn=ROLE)
    answers: list[Any] = []
    for call in calls:
        try:
            answers.append(_without_metadata(call()))
        except ClientError as refused:
            error = refused.response["Error"]
            answers.append(["refused", error["Code"], error["Message"]])
    headers = sorted(ddb.list_tables()["ResponseMetadata"]["HTTPHeaders"])
    return [*json.loads(json.dumps(answers).replace(name, "NAME")), headers]


def test_every_answer_is_the_one_http_gives(server: LocalMotoServer) -> None:
    assert is_patched(URLLib3Session, "send")
    in_process = _conversation(server.endpoint_url)
    in_process_calls.stop_serving(server.endpoint_url)
    over_http = _conversation(server.endpoint_url)
    assert in_process == over_http
    assert in_process[2][:2] == ["refused", "ConditionalCheckFailedException"]
    assert in_process[7] == "hé"
    assert in_process[-2][:2] == ["refused", "ResourceNotFoundException"]
    assert {"date", "server", "content-type", "x-amzn-requestid"} <= set(in_process[-1])


def test_a_call_to_another_address_is_sent_over_its_socket(
    server: LocalMotoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered_here: list[str] = []
    answer = in_process_calls.answer

    def answered(app: Any, request: Any) -> Any:
        answered_here.append(request.url)
        return answer(app, request)

    monkeypatch.setattr(in_process_calls, "answer", answered)
    other = LocalMotoServer(HeldPort(free_port(), "WAITGATE_AWS_PORT"))
    other.start()
    in_process_calls.stop_serving(other.endpoint_url)  # as a moto server of another process
    try:
        boto3.client("sqs", endpoint_url=other.endpoint_url).list_queues()
        assert answered_here == []
        boto3.client("sqs", endpoint_url=server.endpoint_url).list_queues()
        assert [url.startswith(server.endpoint_url) for url in answered_here] == [True]
    finally:
        other.stop()
