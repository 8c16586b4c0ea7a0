"""local.patches.serializer_aliases: moto's responses are the same with the memoized attribute names as
with moto's own listing, for the services and shapes the layer and the local stack use."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.core import serialize

from local.patches import is_patched, serializer_aliases

ROLE_POLICY = json.dumps(
    {
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}
        ],
    }
)


def _answers() -> list[Any]:
    """A spread of calls over DynamoDB (nested attribute values), IAM (query protocol), SQS, SNS and
    Step Functions, each answer without its ResponseMetadata (request ids differ run to run)."""
    dynamodb = boto3.client("dynamodb", region_name="us-east-1")
    iam = boto3.client("iam", region_name="us-east-1")
    sqs = boto3.client("sqs", region_name="us-east-1")
    sns = boto3.client("sns", region_name="us-east-1")
    states = boto3.client("stepfunctions", region_name="us-east-1")
    dynamodb.create_table(
        TableName="t",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    for n in range(30):
        item = {
            "pk": {"S": "RUN#r"},
            "sk": {"S": f"EVENT#{n:04d}"},
            "n": {"N": str(n)},
            "m": {
                "M": {
                    "a": {"L": [{"S": "x"}, {"N": "1"}, {"BOOL": True}, {"NULL": True}]},
                    "b": {"SS": ["p", "q"]},
                }
            },
            "bin": {"B": b"\x00\x01"},
        }
        dynamodb.put_item(TableName="t", Item=item)
    role = iam.create_role(RoleName="r", AssumeRolePolicyDocument=ROLE_POLICY)
    document = json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sqs:*", "Resource": "*"}]}
    )
    policy = iam.create_policy(PolicyName="p", PolicyDocument=document)["Policy"]["Arn"]
    iam.attach_role_policy(RoleName="r", PolicyArn=policy)
    queue = sqs.create_queue(QueueName="q", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(
        QueueUrl=queue,
        MessageBody="hello",
        MessageAttributes={"k": {"DataType": "String", "StringValue": "v"}},
    )
    topic = sns.create_topic(Name="topic")["TopicArn"]
    machine = states.create_state_machine(
        name="m",
        definition=json.dumps({"StartAt": "P", "States": {"P": {"Type": "Pass", "End": True}}}),
        roleArn=role["Role"]["Arn"],
    )["stateMachineArn"]
    calls: list[Callable[[], dict[str, Any]]] = [
        lambda: dynamodb.query(
            TableName="t", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "RUN#r"}}
        ),
        lambda: dynamodb.get_item(TableName="t", Key={"pk": {"S": "RUN#r"}, "sk": {"S": "EVENT#0003"}}),
        lambda: dynamodb.describe_table(TableName="t"),
        lambda: dynamodb.scan(TableName="t", Limit=5),
        lambda: iam.get_role(RoleName="r"),
        lambda: iam.list_attached_role_policies(RoleName="r"),
        lambda: sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["All"]),
        lambda: sns.get_topic_attributes(TopicArn=topic),
        lambda: states.describe_state_machine(stateMachineArn=machine),
        lambda: states.list_state_machines(),
    ]
    answers = []
    for call in calls:
        answer = call()
        answer.pop("ResponseMetadata", None)
        answers.append(answer)
    return answers


def test_responses_are_the_same_with_the_memoized_names_as_with_moto_s_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given the patch installed (twice: idempotent)
    serializer_aliases.install()
    serializer_aliases.install()
    patched = serialize.AttributePicker.__call__
    assert is_patched(serialize.AttributePicker, "__call__")
    # When the same calls are answered by moto's own picker, then by the patched one, each on fresh moto
    monkeypatch.setattr(serialize.AttributePicker, "__call__", patched.__wrapped__)  # type: ignore[attr-defined]
    with mock_aws():
        moto_s_own = _answers()
    monkeypatch.setattr(serialize.AttributePicker, "__call__", patched)
    with mock_aws():
        memoized = _answers()
        memoized_again = _answers_again()
    # Then every answer is the same (the dates and generated ids aside, which differ by run)
    assert _comparable(memoized) == _comparable(moto_s_own)
    assert memoized_again["Items"] == memoized[0]["Items"]


def _answers_again() -> dict[str, Any]:
    """The Query answered a second time, from the names now kept."""
    dynamodb = boto3.client("dynamodb", region_name="us-east-1")
    return dynamodb.query(
        TableName="t", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "RUN#r"}}
    )


def _comparable(answers: list[Any]) -> str:
    """The answers as JSON with what differs by run blanked: dates, ids and ARNs with ids in them."""
    varying = {
        "CreateDate",
        "creationDate",
        "CreationDateTime",
        "RoleId",
        "LastUpdatedTimestamp",
        "CreatedTimestamp",
        "SentTimestamp",
        "ApproximateFirstReceiveTimestamp",
        "LastModifiedTimestamp",
        "RoleLastUsed",
        "TableId",
    }

    def blank(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: ("<varies>" if k in varying else blank(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [blank(v) for v in value]
        return value

    return json.dumps(blank(answers), default=str, sort_keys=True)
