"""The local durable endpoint's translations: the runner's execution names in AWS's form and back,
the path as sent, the runner's errors named where botocore reads them, the access log without secrets."""

from __future__ import annotations

from local.standins.durable_endpoint import (
    DurableRequestHandler,
    ExecutionNames,
    _error_type,
    raw_path,
)

RUNNER_ARN = "0b9e6c1e-1111-4222-8333-944455556666/7f1d2c3b-aaaa-4bbb-8ccc-ddddeeeeffff"
AWS_ARN = (
    "arn:aws:lambda:us-east-1:123456789012:function:orders:1/durable-execution/"
    "release-42/7f1d2c3b-aaaa-4bbb-8ccc-ddddeeeeffff"
)


def test_every_runner_arn_in_an_answer_is_told_in_awss_form() -> None:
    # Given an execution the endpoint started
    names = ExecutionNames()
    names.add(RUNNER_ARN, AWS_ARN, "orders", "release-42")
    # When an answer names it anywhere (a list of executions, say)
    answer = {"DurableExecutions": [{"DurableExecutionArn": RUNNER_ARN, "Status": "RUNNING"}], "n": 1}
    # Then it reads as AWS names it, everything else as it was, and the way back is known
    assert names.to_aws(answer) == {
        "DurableExecutions": [{"DurableExecutionArn": AWS_ARN, "Status": "RUNNING"}],
        "n": 1,
    }
    assert names.runner_of[AWS_ARN] == RUNNER_ARN and names.started() == [(AWS_ARN, RUNNER_ARN)]
    assert names.by_name[("orders", "release-42")] == AWS_ARN


def test_the_aws_name_ends_with_the_execution_operations_id() -> None:
    # The durable SDK reads its execution operation's id from the ARN's last segment
    assert AWS_ARN.rsplit("/", 1)[-1] == RUNNER_ARN.rsplit("/", 1)[-1]


def test_the_path_is_read_as_sent() -> None:
    # An ARN's %2F stays inside its segment: the raw URI, not the decoded PATH_INFO
    environ = {"RAW_URI": "/2025-12-01/durable-executions/arn%3Aaws%2Fx/state?Marker=a", "PATH_INFO": "/x/y"}
    assert raw_path(environ) == "/2025-12-01/durable-executions/arn%3Aaws%2Fx/state"
    assert raw_path({"PATH_INFO": "/health"}) == "/health"


def test_the_runners_error_is_named_as_botocore_reads_it() -> None:
    assert (
        _error_type(b'{"Type": "ResourceNotFoundException", "Message": "gone"}')
        == "ResourceNotFoundException"
    )
    assert _error_type(b"not json") == "ServiceException"


def test_the_access_log_never_shows_a_callback_id() -> None:
    # Given the request line of a callback answer
    handler = DurableRequestHandler.__new__(DurableRequestHandler)
    handler.requestline = "POST /2025-12-01/durable-execution-callbacks/eyJhcm4iOiJ4In0%3D/succeed HTTP/1.1"
    logged: list[str] = []
    handler.log = lambda level, message, *args: logged.append(message % args)  # type: ignore[method-assign]
    # When it is logged
    handler.log_request(200, 0)
    # Then the id is replaced
    assert logged == ['"POST /2025-12-01/durable-execution-callbacks/<callback-id>/succeed HTTP/1.1" 200 0']
