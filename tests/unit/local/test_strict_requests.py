"""The model check refuses what AWS refuses, rule by rule, on botocore's own service models."""

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

import botocore.session
import pytest
from botocore.exceptions import ClientError
from botocore.model import OperationModel

from local.patches.model_rules import Violation, check_request
from local.patches.strict_requests import refusal

TOKEN = "AQCEAAAAKgAAAA" * 10
TARGET = {
    "Arn": "arn:aws:lambda:us-east-1:123456789012:function:x",
    "RoleArn": "arn:aws:iam::123456789012:role/r",
}


@cache
def operation(service: str, name: str) -> OperationModel:
    return botocore.session.get_session().get_service_model(service).operation_model(name)


def violations(service: str, name: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    return [(v.path, v.rule) for v in check_request(operation(service, name), params)]


def schedule(**changes: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "Name": "expire-01ABC",
        "GroupName": "waitgate-local-deadlines",
        "ScheduleExpression": "at(2026-12-01T10:00:00)",
        "FlexibleTimeWindow": {"Mode": "OFF"},
        "Target": dict(TARGET),
    }
    params.update(changes)
    return params


def test_a_request_within_the_model_has_no_violation() -> None:
    # Given requests as our adapters make them / Then nothing is refused
    assert violations("scheduler", "CreateSchedule", schedule()) == []
    assert violations("stepfunctions", "SendTaskSuccess", {"taskToken": TOKEN, "output": "{}"}) == []
    item = {"pk": {"S": "RUN#t#r"}, "sk": {"S": "NODE#n"}, "votes": {"L": [{"M": {"a": {"N": "1"}}}]}}
    assert violations("dynamodb", "PutItem", {"TableName": "t", "Item": item}) == []


def test_a_string_over_its_max_is_refused_in_characters() -> None:
    # Given SendTaskSuccess's output (max 262,144 characters)
    at_limit = {"taskToken": TOKEN, "output": '"' + "д" * 262_142 + '"'}
    over = {"taskToken": TOKEN, "output": "x" * 262_145}
    # Then the limit itself passes (in characters: 2 bytes each in UTF-8) and one more is refused
    assert violations("stepfunctions", "SendTaskSuccess", at_limit) == []
    assert violations("stepfunctions", "SendTaskSuccess", over) == [("output", "max")]


def test_a_blob_over_its_max_is_refused_in_bytes() -> None:
    # Given a durable callback's Result (a blob of at most 1 MiB)
    callback = {"CallbackId": "Y2FsbGJhY2s="}
    at_limit = {**callback, "Result": b"x" * 1_048_576}
    over = {**callback, "Result": "é" * 524_289}  # a str is sent as UTF-8: 1,048,578 bytes
    # Then the limit passes, one byte more does not
    assert violations("lambda", "SendDurableExecutionCallbackSuccess", at_limit) == []
    refused = check_request(operation("lambda", "SendDurableExecutionCallbackSuccess"), over)
    assert [(v.path, v.rule) for v in refused] == [("Result", "max")]
    assert "1,048,578 bytes" in refused[0].detail


def test_a_string_that_breaks_its_pattern_is_refused() -> None:
    # Given a Scheduler name with a character its pattern lacks, and a callback id that is not base64
    assert violations("scheduler", "CreateSchedule", schedule(Name="expire 01")) == [("Name", "pattern")]
    bad_callback = {"CallbackId": "not base64!", "Result": b"{}"}
    assert violations("lambda", "SendDurableExecutionCallbackSuccess", bad_callback) == [
        ("CallbackId", "pattern")
    ]


def test_a_pattern_is_matched_whole_as_aws_does() -> None:
    # Given a role ARN that starts right but ends in a character the pattern does not allow
    target = {**TARGET, "RoleArn": "arn:aws:iam::123456789012:role/ok role"}
    # Then it is refused: a match of a prefix is not a match
    assert violations("scheduler", "CreateSchedule", schedule(Target=target)) == [
        ("Target.RoleArn", "pattern")
    ]


def test_a_65_character_group_name_is_refused() -> None:
    # Given a group name one character over Scheduler's 64
    assert violations("scheduler", "CreateSchedule", schedule(GroupName="g" * 65)) == [("GroupName", "max")]


def test_a_value_outside_its_enum_is_refused() -> None:
    # Given a FlexibleTimeWindow mode the model does not list, deep in a structure
    refused = check_request(
        operation("scheduler", "CreateSchedule"), schedule(FlexibleTimeWindow={"Mode": "SOMETIMES"})
    )
    assert [(v.path, v.rule) for v in refused] == [("FlexibleTimeWindow.Mode", "enum")]
    assert "OFF" in refused[0].detail and "SOMETIMES" not in refused[0].detail  # the model, not the value


def test_a_number_out_of_range_in_a_nested_structure_is_refused() -> None:
    # Given a schedule target whose retry policy asks for more than 185 retries and less than a minute
    target = {**TARGET, "RetryPolicy": {"MaximumRetryAttempts": 186, "MaximumEventAgeInSeconds": 30}}
    # Then both members are named by their path
    assert sorted(violations("scheduler", "CreateSchedule", schedule(Target=target))) == [
        ("Target.RetryPolicy.MaximumEventAgeInSeconds", "min"),
        ("Target.RetryPolicy.MaximumRetryAttempts", "max"),
    ]


def test_a_list_with_too_many_entries_is_refused() -> None:
    # Given a transaction of 101 items (DynamoDB takes 100)
    put = {"Put": {"TableName": "t", "Item": {"pk": {"S": "a"}}}}
    assert violations("dynamodb", "TransactWriteItems", {"TransactItems": [put] * 100}) == []
    assert violations("dynamodb", "TransactWriteItems", {"TransactItems": [put] * 101}) == [
        ("TransactItems", "max")
    ]


def test_a_map_with_too_many_entries_and_a_member_inside_it_are_checked() -> None:
    # Given a BatchGetItem over 101 tables (the map takes 100), and one with 101 keys in a table's entry
    key = {"pk": {"S": "a"}}
    tables = {f"t{n}": {"Keys": [key]} for n in range(101)}
    assert violations("dynamodb", "BatchGetItem", {"RequestItems": tables}) == [("RequestItems", "max")]
    keys = {"RequestItems": {"t": {"Keys": [key] * 101}}}
    assert violations("dynamodb", "BatchGetItem", keys) == [("RequestItems.t.Keys", "max")]


def test_an_empty_list_where_the_model_wants_one_entry_is_refused() -> None:
    assert violations("dynamodb", "TransactWriteItems", {"TransactItems": []}) == [("TransactItems", "min")]


def test_an_unknown_member_is_refused_at_any_depth() -> None:
    # Given a misspelt member at the top and one inside the target
    params = schedule(Grup="x", Target={**TARGET, "Inptu": "{}"})
    assert sorted(violations("scheduler", "CreateSchedule", params)) == [
        ("Grup", "unknown"),
        ("Target.Inptu", "unknown"),
    ]


def test_a_missing_required_member_and_a_wrong_type_are_reported() -> None:
    params = schedule(
        Target={"Arn": TARGET["Arn"]}, FlexibleTimeWindow={"Mode": "OFF", "MaximumWindowInMinutes": "5"}
    )
    assert sorted(violations("scheduler", "CreateSchedule", params)) == [
        ("FlexibleTimeWindow.MaximumWindowInMinutes", "type"),
        ("Target.RoleArn", "required"),
    ]


def test_members_inside_a_map_inside_a_list_are_checked() -> None:
    # Given an item whose list holds a map whose value is a number given as a number, not as text
    item = {"pk": {"S": "a"}, "votes": {"L": [{"M": {"n": {"N": 1}}}]}}
    assert violations("dynamodb", "PutItem", {"TableName": "t", "Item": item}) == [
        ("Item.votes.L[0].M.n.N", "type")
    ]


def test_timestamps_and_booleans_are_typed() -> None:
    start = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
    assert violations("scheduler", "CreateSchedule", schedule(StartDate=start)) == []
    assert violations("scheduler", "CreateSchedule", schedule(StartDate="soon")) == [("StartDate", "type")]
    assert violations("dynamodb", "PutItem", {"TableName": "t", "Item": {"b": {"BOOL": 1}}}) == [
        ("Item.b.BOOL", "type")
    ]


def test_only_the_rules_aws_checks_are_answered_as_aws_answers() -> None:
    # Given the rules botocore checks itself and those only AWS checks
    def rule(name: str, shape_type: str = "string") -> Violation:
        return Violation("scheduler.CreateSchedule", "Name", name, "", shape_type)

    # Then botocore's are left to botocore (it raises before sending), AWS's are answered as AWS does
    assert [rule(r).client_side for r in ("type", "required", "unknown", "union", "min")] == [True] * 5
    assert [rule(r).client_side for r in ("max", "pattern", "enum")] == [False] * 3
    assert not rule("min", "blob").client_side  # botocore checks no blob's length
    error = refusal([rule("max")])
    assert isinstance(error, ClientError)
    assert error.response["Error"]["Code"] == "ValidationException"
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert error.operation_name == "CreateSchedule"


@pytest.mark.parametrize(
    ("service", "name"),
    [
        ("stepfunctions", "SendTaskFailure"),
        ("sesv2", "SendEmail"),
        ("sns", "Publish"),
        ("sqs", "SendMessage"),
    ],
)
def test_every_pattern_of_the_operations_we_call_compiles(service: str, name: str) -> None:
    # Given an operation whose members carry Java patterns / When its patterns are compiled
    from local.patches.model_rules import UNCHECKED_PATTERNS, compiled_pattern

    model = operation(service, name)
    stack = [model.input_shape]
    while stack:
        shape: Any = stack.pop()
        if "pattern" in shape.metadata:
            compiled_pattern(shape.metadata["pattern"])
        stack.extend(getattr(shape, "members", {}).values())
        stack.extend(s for s in (getattr(shape, "member", None), getattr(shape, "value", None)) if s)
    # Then the regex module reads every one of them
    assert set() == UNCHECKED_PATTERNS
