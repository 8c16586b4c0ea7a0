"""The local stack as a program that knows only the README uses it: over real HTTP and boto3."""

from __future__ import annotations

import json
import signal
import socket
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from local.stack_process import stack_environment, started_stack
from local.standins.jwt_issuer import LocalIssuer, caller_claims
from local.state.state_dir import StateDir
from tests.e2e.conftest import OWN_STACKS, LocalStackHandle, run_local
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e

APPROVAL = {
    "kind": "approval",
    "key": "k1",
    "data": {"artifactId": "a1", "artifactType": "doc", "title": "Ship it?", "actions": ["accept", "reject"]},
}
RESUME_VALUE = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def resolve_path(run_id: str, node_id: str = "Interrupt") -> str:
    return f"/runs/{run_id}/interrupts/{node_id}"


def assert_problem(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status == status, answer.body
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = answer.json()
    assert problem["status"] == status
    assert problem["code"] == code
    return problem


def test_ready_line_and_local_json(local_stack: LocalStackHandle) -> None:
    # Given the stack started by the session
    # When we read what it printed and wrote
    ready = [line for line in local_stack.output if line.startswith("waitgate local stack ready: ")]
    description = local_stack.description
    # Then one ready line names the API URL, and local.json describes the whole stack
    assert ready == [f"waitgate local stack ready: {description['apiUrl']}\n"]
    assert description["region"] == "us-east-1"
    assert description["awsEndpointUrl"].startswith("http://127.0.0.1:")
    assert description["stateMachines"]["interrupt"].endswith(":stateMachine:waitgate-local-interrupt")
    assert description["jwt"]["issuer"] == description["apiUrl"] + "/.local-issuer"
    assert description["jwt"]["audience"] == "waitgate-local"
    assert set(description["tableNames"]) >= {"InterruptsTable"}
    assert set(description["topicArns"]) >= {"NotificationsTopic"}
    assert description["overridePrincipals"] == ["oncall-lead"]


def test_a_second_instance_on_the_same_state_dir_is_refused(local_stack: LocalStackHandle) -> None:
    # Given a running stack
    # When another `waitgate dev` starts on the same state directory
    second = run_local(["dev"], local_stack.environment)
    # Then it says which stack runs, and exits 1 without disturbing the first
    assert second.returncode == 1
    assert local_stack.process is not None
    expected = (
        f"a waitgate local stack is already running (pid {local_stack.process.pid}) at {local_stack.api_url}"
    )
    assert expected in second.stderr
    assert local_stack.http.get("/.local-issuer/.well-known/jwks.json").status == 200


def test_unknown_route_is_404_problem(local_stack: LocalStackHandle) -> None:
    # When a path matches no route of the template
    answer = local_stack.http.get("/no/such/route")
    # Then the gateway answers 404 problem+json
    problem = assert_problem(answer, 404, "not_found")
    assert problem["type"] == "about:blank"
    assert problem["title"] == "Not found"


def test_docs_with_a_trailing_slash_reach_the_page(local_stack: LocalStackHandle) -> None:
    # When a browser asks for /docs/ (as API Gateway, the gateway ignores the trailing slash)
    # Then it is sent on to /docs (urllib follows the redirect as a browser does), which is the page
    answer = local_stack.http.get("/docs/")
    assert answer.status == 200 and answer.headers["content-type"].startswith("text/html"), answer.headers
    assert b'src="docs/swagger-ui-bundle.min.js"' in answer.body


def test_wrong_method_on_a_known_path_is_405_problem(local_stack: LocalStackHandle) -> None:
    answer = local_stack.http.get(resolve_path("run-1"))
    assert_problem(answer, 405, "method_not_allowed")


def test_body_over_256_kb_is_413_problem(local_stack: LocalStackHandle) -> None:
    token = local_stack.jwt("alice", "approvals:respond")
    answer = local_stack.http.post(resolve_path("run-1"), {"resumeValue": {"x": "y" * 300_000}}, token=token)
    assert_problem(answer, 413, "payload_too_large")


def _issuer(local_stack: LocalStackHandle) -> LocalIssuer:
    return LocalIssuer.of_running_stack(StateDir(local_stack.state_dir))


def _bad_tokens(local_stack: LocalStackHandle) -> dict[str, str | None]:
    issuer = _issuer(local_stack)
    claims = caller_claims("alice", "approvals:respond")
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return {
        "missing header": None,
        "wrong signature": LocalIssuer(stranger, issuer.issuer).mint(claims),
        "expired": issuer.mint(claims, ttl_seconds=-120),
        "wrong audience": LocalIssuer(issuer.private_key, issuer.issuer, "someone-else").mint(claims),
        "wrong issuer": LocalIssuer(issuer.private_key, "https://elsewhere.example").mint(claims),
        "not a jwt": "not-a-jwt",
    }


@pytest.mark.parametrize(
    "case", ["missing header", "wrong signature", "expired", "wrong audience", "wrong issuer", "not a jwt"]
)
def test_bad_jwt_is_401_problem(local_stack: LocalStackHandle, case: str) -> None:
    # Given a request whose bearer token API Gateway's JWT authorizer would refuse
    token = _bad_tokens(local_stack)[case]
    # When it reaches a route under the default authorizer
    answer = local_stack.http.post(resolve_path("run-1"), {"resumeValue": RESUME_VALUE}, token=token)
    # Then 401 problem+json, and the token is not echoed
    problem = assert_problem(answer, 401, "unauthorized")
    assert problem["title"] == "Unauthorized"
    assert token is None or token not in answer.body.decode()


def test_dev_jwt_output_is_accepted(local_stack: LocalStackHandle) -> None:
    # Given a token printed by `waitgate dev-jwt` (its own process, as a shell runs it)
    arguments = ["--sub", "alice", "--scope", "approvals:respond", "--tenant", "acme", "--groups", "g1,g2"]
    printed = run_local(["dev-jwt", *arguments], local_stack.environment)
    assert printed.returncode == 0, printed.stderr
    token = printed.stdout.strip()
    # When it is used on a route for a run that does not exist
    answer = local_stack.http.post(
        resolve_path(f"run-{uuid.uuid4().hex}"), {"resumeValue": RESUME_VALUE}, token=token
    )
    # Then the authorizer lets it through and the handler answers (404 not_found, not 401)
    assert_problem(answer, 404, "not_found")


def test_issuer_publishes_its_jwks(local_stack: LocalStackHandle) -> None:
    answer = local_stack.http.get("/.local-issuer/.well-known/jwks.json")
    assert answer.status == 200
    (key,) = answer.json()["keys"]
    assert key["kty"] == "RSA" and key["alg"] == "RS256" and key["kid"] == _issuer(local_stack).key_id


def run_snapshot(local_stack: LocalStackHandle, run_id: str) -> dict[str, Any] | None:
    item: dict[str, Any] | None = local_stack.dynamodb.get_item(
        TableName=local_stack.table_names["InterruptsTable"],
        Key={"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "RUN"}},
    ).get("Item")
    return item


def finished_execution(local_stack: LocalStackHandle, execution_arn: str) -> dict[str, Any] | None:
    execution: dict[str, Any] = local_stack.sfn.describe_execution(executionArn=execution_arn)
    return None if execution["status"] == "RUNNING" else execution


def test_suspend_then_resolve_over_http_completes_the_execution(local_stack: LocalStackHandle) -> None:
    # Given an execution of the generic workflow, named by a fresh runId, asking for an approval
    run_id = f"run-{uuid.uuid4().hex}"
    execution_arn = local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": APPROVAL}),
    )["executionArn"]
    # When request_interrupt has run in-process and the run waits for approval
    snapshot = wait_for(lambda: run_snapshot(local_stack, run_id))
    assert snapshot["status"]["S"] == "waiting-approval"
    assert local_stack.sfn.describe_execution(executionArn=execution_arn)["status"] == "RUNNING"
    # And a person resolves it over HTTP
    token = local_stack.jwt("alice", "approvals:respond")
    answer = local_stack.http.post(resolve_path(run_id), {"resumeValue": RESUME_VALUE}, token=token)
    # Then 200, and the execution SUCCEEDED with the resumeValue as its output
    assert answer.status == 200, answer.body
    execution = wait_for(lambda: finished_execution(local_stack, execution_arn))
    assert execution["status"] == "SUCCEEDED"
    output = json.loads(execution["output"])
    assert output == {**RESUME_VALUE, **output} and output["action"] == "accept"


def test_a_handler_failure_fails_the_task_with_its_error_type(local_stack: LocalStackHandle) -> None:
    # Given an execution whose interrupt payload is invalid
    run_id = f"run-{uuid.uuid4().hex}"
    execution_arn = local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": {"kind": "approval", "key": "k1", "data": {}}}),
    )["executionArn"]
    # When request_interrupt raises in-process
    execution = wait_for(lambda: finished_execution(local_stack, execution_arn))
    # Then the Task failed with the handler's error type, as on Lambda, and the cause names the member
    assert execution["status"] == "FAILED"
    assert execution.get("error") == "InterruptPayloadInvalid"
    assert "data.artifactId: Field required" in execution.get("cause", "")
    # And the stack's log says so in one line of its own, and moto's long ERROR line is not shown
    ended = f"execution {run_id} FAILED InterruptPayloadInvalid: data.artifactId: Field required"
    wait_for(lambda: [line for line in local_stack.output if ended in line] or None)
    assert not [line for line in local_stack.output if "FailureEventException" in line]


def handler_lines(local_stack: LocalStackHandle) -> list[dict[str, Any]]:
    """The handlers' log lines (Powertools JSON) the stack printed so far."""
    lines = []
    for line in list(local_stack.output):
        try:
            document = json.loads(line)
        except ValueError:
            continue
        if isinstance(document, dict) and "function_name" in document:
            lines.append(document)
    return lines


def test_log_lines_name_their_function_and_resolves_log_no_task_gone(local_stack: LocalStackHandle) -> None:
    # Given six runs suspended at once (request_interrupt, the stream consumer, the lifecycle all busy)
    with ThreadPoolExecutor(max_workers=6) as pool:
        runs = list(pool.map(lambda _: suspended_run(local_stack), range(6)))
    token = local_stack.jwt("alice", "approvals:respond runs:read")
    # When they are all resolved at once and their executions end
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(
            pool.map(
                lambda run: local_stack.http.post(
                    resolve_path(run[0]), {"resumeValue": RESUME_VALUE}, token=token
                ),
                runs,
            )
        )
    assert [answer.status for answer in answers] == [200] * 6
    interrupt_ids = {answer.json()["interruptId"] for answer in answers}
    for _, execution_arn in runs:
        assert (
            wait_for(lambda arn=execution_arn: finished_execution(local_stack, arn))["status"] == "SUCCEEDED"
        )
    for run_id, _ in runs:
        wait_for(
            lambda run_id=run_id: [ln for ln in local_stack.output if f"execution {run_id} " in ln] or None
        )
    # Then every handler line names the function that wrote it
    writers = {
        "interrupt requested": "RequestInterruptFunction",
        "execution ended": "RunLifecycleFunction",
        "outbox delivery": "DeliverResolutionFunction",
    }
    for line in handler_lines(local_stack):
        if line["message"] in writers:
            assert line["function_name"].endswith(writers[line["message"]]), line
    # And no resolve that worked was logged, or recorded, as a delivery to a task that is gone
    deliveries = [line for line in handler_lines(local_stack) if line.get("interruptId") in interrupt_ids]
    assert "task-gone" not in [line.get("result") for line in deliveries]
    for run_id, _ in runs:
        events = local_stack.http.get(f"/runs/{run_id}/events?mode=debug", token=token).json()["events"]
        assert "interrupt.delivery_failed" not in [event["type"] for event in events]


@OWN_STACKS
def test_sigterm_stops_the_stack_cleanly(tmp_path: Path) -> None:
    # Given a stack of its own, started while some other program took the API port found free for it
    # (local.stack_process then starts it on two ports found free again)
    first_choice = stack_environment(tmp_path)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", int(first_choice["WAITGATE_PORT"])))
        squatter.listen()
        with started_stack(tmp_path, first_choice) as stack:
            environment = stack.environment
            assert environment["WAITGATE_PORT"] != first_choice["WAITGATE_PORT"]
            assert any("WAITGATE_PORT to a free port" in line for line in stack.output)
            assert (tmp_path / "dev.pid").exists()
            # When it gets SIGTERM
            stack.process.send_signal(signal.SIGTERM)
            # Then it exits 0, its pid file removed and its ports free again
            assert stack.process.wait(timeout=15) == 0
    assert not (tmp_path / "dev.pid").exists()
    for variable in ("WAITGATE_PORT", "WAITGATE_AWS_PORT"):
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", int(environment[variable])))


@OWN_STACKS
def test_a_port_in_use_is_named_with_its_variable(tmp_path: Path) -> None:
    # Given some other program listening on the AWS port
    environment = stack_environment(tmp_path)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", int(environment["WAITGATE_AWS_PORT"])))
        squatter.listen()
        # When the stack starts
        refused = run_local(["dev"], environment)
    # Then it says which variable to change, and exits 1
    assert refused.returncode == 1
    assert "WAITGATE_AWS_PORT" in refused.stderr and "in use" in refused.stderr
    assert not (tmp_path / "dev.pid").exists()


def suspended_run(local_stack: LocalStackHandle) -> tuple[str, str]:
    """A fresh run of the generic workflow, waiting for approval at node Interrupt."""
    run_id = f"run-{uuid.uuid4().hex}"
    execution_arn = local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": APPROVAL}),
    )["executionArn"]
    wait_for(lambda: run_snapshot(local_stack, run_id))
    return run_id, execution_arn


def test_eight_concurrent_resolves_give_one_200_and_seven_409(local_stack: LocalStackHandle) -> None:
    # Given a suspended run and eight callers with the same decision
    run_id, execution_arn = suspended_run(local_stack)
    token = local_stack.jwt("alice", "approvals:respond")

    def resolve(_: int) -> int:
        return local_stack.http.post(resolve_path(run_id), {"resumeValue": RESUME_VALUE}, token=token).status

    # When they all resolve at once
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(resolve, range(8)))
    # Then exactly one wins, and the workflow goes on once
    assert statuses == [200] + [409] * 7
    assert wait_for(lambda: finished_execution(local_stack, execution_arn))["status"] == "SUCCEEDED"


@pytest.mark.parametrize(
    ("scope", "node_id", "resume_value", "status", "code"),
    [
        ("openid", "Interrupt", RESUME_VALUE, 403, None),
        ("approvals:respond", "NoSuchNode", RESUME_VALUE, 404, "not_found"),
        (
            "approvals:respond",
            "Interrupt",
            {"action": "explode", "decidedAt": "2026-11-30T10:00:00Z"},
            400,
            "validation_error",
        ),
    ],
)
def test_refused_resolutions_answer_their_status_and_code(
    local_stack: LocalStackHandle, scope: str, node_id: str, resume_value: Any, status: int, code: str | None
) -> None:
    # Given a suspended run
    run_id, _ = suspended_run(local_stack)
    # When a caller resolves it wrongly
    token = local_stack.jwt("alice", scope)
    answer = local_stack.http.post(resolve_path(run_id, node_id), {"resumeValue": resume_value}, token=token)
    # Then the handler answers problem+json with the status (and code) of the case
    assert answer.status == status, answer.body
    assert answer.headers["content-type"].startswith("application/problem+json")
    if code is not None:
        assert answer.json()["code"] == code
