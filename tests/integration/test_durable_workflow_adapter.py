"""The durable engine's adapter against the Durable Execution testing SDK's real local server
(`dex-local-runner start-server`) and the stack's durable endpoint in front of it: callbacks answered
by meaning, failures named, a closed or unknown callback gone; throttling and 5xx retried (Stubber)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from aws_durable_execution_sdk_python.execution import durable_execution
from botocore.stub import Stubber

from local.patches import durable_checkpoints
from local.standins.durable_endpoint import DurableEndpoint, DurableEndpointServer, DurableFunction
from local.standins.durable_runner import DurableRunner, free_port
from waitgate.adapters.durable_workflow import DurableFunctionsWorkflow
from waitgate.errors import DeliveryFailedError, TaskGoneError
from waitgate.sdk.durable import InterruptTimedOut, decision_of

FUNCTION = "orders"
WAIT_SECONDS = 30


class CallbackBox:
    """What the durable function's submitter handed out: its callback id."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._given = threading.Condition()

    def put(self, callback_id: str) -> None:
        with self._given:
            self._ids.append(callback_id)
            self._given.notify_all()

    def count(self) -> int:
        with self._given:
            return len(self._ids)

    def after(self, count: int) -> str:
        """The first callback id handed out after `count` were."""
        with self._given:
            assert self._given.wait_for(lambda: len(self._ids) > count, timeout=WAIT_SECONDS)
            return self._ids[count]


BOX = CallbackBox()


@durable_execution
def waiting_function(event: Any, context: Any) -> Any:
    """Waits on one callback; returns what it got, or how it failed."""
    try:
        answer = context.wait_for_callback(lambda callback_id, _: BOX.put(callback_id), name="Gate")
    except Exception as failed:
        data = json.loads(getattr(failed, "data", None) or "{}")
        return {"failed": data.get("error"), "message": getattr(failed, "message", "")}
    return {"got": decision_of("custom", answer)}


class InProcessFunctions:
    """The stack's FunctionRegistry, as far as the durable endpoint uses it: one durable function."""

    def invoke(self, function_name: str, event: Any) -> Any:
        assert function_name == FUNCTION
        return waiting_function(event, None)


@pytest.fixture(scope="module")
def endpoint() -> Iterator[DurableEndpointServer]:
    runner_port = free_port()
    functions = {FUNCTION: DurableFunction(FUNCTION, 300, 1)}
    front = DurableEndpoint(
        f"http://127.0.0.1:{runner_port}",
        InProcessFunctions(),
        functions,
        "us-east-1",
        "123456789012",  # type: ignore[arg-type]
    )
    server = DurableEndpointServer(front)
    server.start()
    runner = DurableRunner(runner_port, server.url, "us-east-1")
    runner.start()
    durable_checkpoints.install(server.url, "us-east-1")
    yield server
    durable_checkpoints.uninstall()
    runner.stop()
    server.stop()


def lambda_client(server: DurableEndpointServer) -> Any:
    return boto3.client(
        "lambda",
        endpoint_url=server.url,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def started(server: DurableEndpointServer, name: str) -> tuple[str, str]:
    """A durable execution waiting on its callback: (its ARN, the callback id)."""
    before = BOX.count()
    answer = lambda_client(server).invoke(
        FunctionName=f"{FUNCTION}:live", InvocationType="Event", DurableExecutionName=name, Payload=b"{}"
    )
    return answer["DurableExecutionArn"], BOX.after(before)


def result_of(server: DurableEndpointServer, arn: str) -> dict[str, Any]:
    client = lambda_client(server)
    waiter = threading.Event()
    for _ in range(WAIT_SECONDS * 10):
        execution = client.get_durable_execution(DurableExecutionArn=arn)
        if execution["Status"] != "RUNNING":
            assert execution["Status"] == "SUCCEEDED", execution
            result: dict[str, Any] = json.loads(execution["Result"])
            return result
        waiter.wait(0.1)
    raise AssertionError("the execution did not end")


def test_the_resume_value_is_the_callbacks_result(endpoint: DurableEndpointServer) -> None:
    # Given a durable execution waiting on its callback (named as AWS names it)
    arn, callback_id = started(endpoint, "answered")
    assert "/durable-execution/answered/" in arn
    # When the adapter answers it
    DurableFunctionsWorkflow(lambda_client(endpoint)).send_success(callback_id, {"amount": 42})
    # Then the function goes on with the resume value
    assert result_of(endpoint, arn) == {"got": {"amount": 42}}


def test_a_failure_is_named_as_the_sdk_reads_it(endpoint: DurableEndpointServer) -> None:
    arn, callback_id = started(endpoint, "failed")
    DurableFunctionsWorkflow(lambda_client(endpoint)).send_failure(
        callback_id, "InterruptTimedOut", "The interrupt's deadline passed."
    )
    assert result_of(endpoint, arn) == {
        "failed": "InterruptTimedOut",
        "message": "The interrupt's deadline passed.",
    }
    assert issubclass(InterruptTimedOut, Exception)  # what wait_for_interrupt raises for it


def test_an_answered_callback_is_gone(endpoint: DurableEndpointServer) -> None:
    # Given a callback answered once
    arn, callback_id = started(endpoint, "twice")
    workflow = DurableFunctionsWorkflow(lambda_client(endpoint))
    workflow.send_success(callback_id, {"first": True})
    result_of(endpoint, arn)
    # When it is answered again, Then it is gone (nobody waits), not an error to retry
    with pytest.raises(TaskGoneError) as gone:
        workflow.send_success(callback_id, {"second": True})
    assert gone.value.extensions["aws_code"] == "ResourceNotFoundException"
    assert result_of(endpoint, arn) == {"got": {"first": True}}


@pytest.mark.parametrize(
    ("code", "status", "meaning"),
    [
        ("CallbackTimeoutException", 400, TaskGoneError),
        ("ResourceNotFoundException", 404, TaskGoneError),
        ("TooManyRequestsException", 429, DeliveryFailedError),
        ("ServiceException", 500, DeliveryFailedError),
    ],
)
def test_lambdas_answers_are_read_by_meaning(code: str, status: int, meaning: type[Exception]) -> None:
    client = boto3.client("lambda", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    with Stubber(client) as stub:
        stub.add_client_error("send_durable_execution_callback_success", code, http_status_code=status)
        with pytest.raises(meaning) as raised:
            DurableFunctionsWorkflow(client).send_success("Y2FsbGJhY2s=", {"a": 1})
    assert raised.value.extensions["aws_code"] == code  # type: ignore[attr-defined]
    assert "Y2FsbGJhY2s=" not in str(raised.value)  # the callback id is a secret: never in a message


def test_a_wrong_request_is_not_mistaken_for_a_gone_callback() -> None:
    client = boto3.client("lambda", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    with Stubber(client) as stub:
        stub.add_client_error("send_durable_execution_callback_failure", "InvalidParameterValueException")
        with pytest.raises(Exception) as raised:
            DurableFunctionsWorkflow(client).send_failure("Y2FsbGJhY2s=", "InterruptTimedOut", "late")
    assert not isinstance(raised.value, TaskGoneError | DeliveryFailedError)
