"""The local stack's kept state: what a capture reads out of moto comes back on a fresh moto, and a
part that no longer fits is skipped and said, never fatal (moto in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import boto3
from moto import mock_aws

from local.patches.lambda_runtime import FunctionRegistry
from local.state.kept_state import KeptState
from local.state.state_capture import capture
from local.state.state_restore import Restore
from local.template.resources import StackContext
from local.template.stack_resources import create_template_resources

ROLE = "arn:aws:iam::123456789012:role/mine"
OWN_MACHINE = '{"StartAt": "Wait", "States": {"Wait": {"Type": "Wait", "Seconds": 3600, "End": true}}}'


@contextmanager
def a_fresh_stack(restore: Restore | None = None) -> Iterator[tuple[StackContext, dict[str, str]]]:
    """The template's resources on a moto of their own (a start of the local stack, without HTTP)."""
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        _, translated, context = create_template_resources(
            "http://127.0.0.1:3000",
            "http://127.0.0.1:3000/.local-issuer",
            FunctionRegistry(),
            restore.creators() if restore else None,
        )
        yield context, {logical_id: r["Type"] for logical_id, r in translated["Resources"].items()}


def table(context: StackContext, logical_id: str) -> str:
    return str(context.physical_ids[logical_id].ref)


def test_what_is_captured_comes_back_on_a_fresh_stack() -> None:
    # Given a stack with a directory member, its signing secret, and a state machine of one's own
    # whose execution runs
    with a_fresh_stack() as (context, types):
        dynamodb, sfn = boto3.client("dynamodb"), boto3.client("stepfunctions")
        member = {"pk": {"S": "GROUP#default#release"}, "sk": {"S": "MEMBER#bob"}}
        dynamodb.put_item(TableName=table(context, "DirectoryTable"), Item=member)
        machine = sfn.create_state_machine(name="mine", definition=OWN_MACHINE, roleArn=ROLE)[
            "stateMachineArn"
        ]
        sfn.start_execution(stateMachineArn=machine, name="run-1", input='{"a": 1}')
        secret = boto3.client("secretsmanager").get_secret_value(
            SecretId=str(context.physical_ids["TokenSecret"].ref)
        )
        kept = capture(context, types)
    # When a fresh stack restores it
    restore = Restore(kept)
    with a_fresh_stack(restore) as (context, _):
        started = restore.after_resources(context)
        dynamodb, sfn = boto3.client("dynamodb"), boto3.client("stepfunctions")
        # Then the member, the secret's value, the machine and the running execution (same ARN) are back
        assert dynamodb.scan(TableName=table(context, "DirectoryTable"))["Items"] == [member]
        restored = boto3.client("secretsmanager").get_secret_value(
            SecretId=str(context.physical_ids["TokenSecret"].ref)
        )
        assert restored["SecretString"] == secret["SecretString"]
        assert started == [machine.replace(":stateMachine:", ":execution:") + ":run-1"]
        assert sfn.describe_execution(executionArn=started[0])["input"] == '{"a": 1}'
        # And the restored table still has its stream, as the template says
        description = dynamodb.describe_table(TableName=table(context, "InterruptsTable"))["Table"]
        assert description["StreamSpecification"]["StreamEnabled"] is True
        assert restore.problems == []


def test_a_part_that_no_longer_fits_is_skipped_and_said() -> None:
    # Given kept state with an item the table's keys do not fit and an execution of a machine that is gone
    kept = KeptState(
        tables={"DirectoryTable": [{"not-the-key": {"S": "x"}}]},
        executions=[{"stateMachineArn": "arn:aws:states:us-east-1:123456789012:stateMachine:gone",
                     "name": "run-1", "input": "{}"}],
    )  # fmt: skip
    restore = Restore(kept)
    # When a stack restores it, Then it starts, and says what it could not bring back
    with a_fresh_stack(restore) as (context, _):
        assert restore.after_resources(context) == []
    assert [problem.split(":")[0] for problem in restore.problems] == [
        "the items of DirectoryTable not restored",
        "execution run-1 not restored",
    ]
