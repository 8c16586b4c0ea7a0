"""Lambda's durable-functions API on the local stack, in front of the testing SDK's runner.

The runner (`dex-local-runner start-server`, local.standins.durable_runner) keeps the executions,
answers checkpoints and callbacks, and invokes the function through a Lambda endpoint: this one. So:

- `Invoke` of a durable function of the stack with `X-Dex-Handler-Invoke: true` (the runner's):
  the handler runs in this process, as moto runs every other function (local.patches.lambda_runtime);
- any other `Invoke` of a durable function starts an execution (`DurableExecutionName`, as on AWS:
  asynchronously, `InvocationType="Event"`), answered with its `DurableExecutionArn`;
- everything else (callbacks, checkpoints, state, get/list/stop/history) goes to the runner as it came.

The runner names executions `<uuid>/<invocation id>`; AWS names them
`arn:aws:lambda:<region>:<account>:function:<fn>:<qualifier>/durable-execution/<name>/<id>`, and a
function reads its run's name there (waitgate.sdk.durable). Every ARN crossing this endpoint is
turned into AWS's form on the way out and back into the runner's on the way in.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server
from werkzeug.wrappers import Request, Response

from local.patches.lambda_runtime import FunctionRegistry, error_payload

logger = logging.getLogger(__name__)
HANDLER_INVOKE_HEADER = "X-Dex-Handler-Invoke"
PROXY_TIMEOUT_SECONDS = 960  # a handler invocation may take the function's whole timeout
NAMING_SECONDS = 10  # the runner invokes a new execution before its start is answered here
_CALLBACK_PATH = re.compile(r"(/durable-execution-callbacks/)[^\s?/]+")


LOCAL_ALIAS_VERSION = "1"  # the version an alias names in an execution's ARN (nothing is published locally)


@dataclass(frozen=True)
class DurableFunction:
    """A durable function of the stack: its name and its DurableConfig."""

    name: str
    execution_timeout_seconds: int
    retention_days: int


@dataclass
class ExecutionNames:
    """The two names of each execution this endpoint started: the runner's and AWS's."""

    aws_of: dict[str, str] = field(default_factory=dict)
    runner_of: dict[str, str] = field(default_factory=dict)
    by_name: dict[tuple[str, str], str] = field(default_factory=dict)  # (function, name) → AWS ARN
    lock: threading.Condition = field(default_factory=threading.Condition)

    def add(self, runner_arn: str, aws_arn: str, function: str, name: str) -> None:
        with self.lock:
            self.aws_of[runner_arn], self.runner_of[aws_arn] = aws_arn, runner_arn
            self.by_name[(function, name)] = aws_arn
            self.lock.notify_all()

    def wait_for(self, runner_arn: Any) -> None:
        """Until the execution's start was answered (and its AWS name is known), for a while."""
        with self.lock:
            self.lock.wait_for(lambda: runner_arn in self.aws_of, timeout=NAMING_SECONDS)

    def started(self) -> list[tuple[str, str]]:
        """(AWS ARN, runner ARN) of every execution started here."""
        with self.lock:
            return list(self.runner_of.items())

    def to_aws(self, value: Any) -> Any:
        """`value` with every runner ARN in it (at any depth) in AWS's form."""
        if isinstance(value, dict):
            return {key: self.to_aws(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.to_aws(item) for item in value]
        return self.aws_of.get(value, value) if isinstance(value, str) else value


class DurableEndpoint:
    def __init__(
        self,
        runner_url: str,
        registry: FunctionRegistry,
        functions: dict[str, DurableFunction],
        region: str,
        account_id: str,
    ) -> None:
        self.runner_url = runner_url.rstrip("/")
        self.names = ExecutionNames()
        self.functions = functions  # filled as the stack creates its functions
        self._registry = registry
        self._region, self._account = region, account_id

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        segments = [unquote(s) for s in raw_path(environ).strip("/").split("/") if s]
        response = self._answer(request, segments)
        return response(environ, start_response)

    def _answer(self, request: Request, segments: list[str]) -> Response:
        if request.method == "POST" and len(segments) == 4 and segments[:2] == ["2015-03-31", "functions"]:
            function, _, qualifier = segments[2].rpartition(":function:")[2].partition(":")
            if request.headers.get(HANDLER_INVOKE_HEADER) == "true":
                return self._run_handler(function, request.get_data())
            if function in self.functions:
                return self._start(self.functions[function], qualifier or "$LATEST", request)
            detail = f"{function} is not a durable function of the stack"
            return lambda_error(404, "ResourceNotFoundException", detail)
        return self._proxy(request, segments)

    def _run_handler(self, function: str, body: bytes) -> Response:
        event = json.loads(body or b"{}")
        self.names.wait_for(event.get("DurableExecutionArn") if isinstance(event, dict) else None)
        event = self.names.to_aws(event)
        try:
            result = self._registry.invoke(function, event)
        except Exception as error:
            logger.error("handler of %s failed: %s: %s", function, type(error).__name__, error)
            logger.debug("handler of %s failed", function, exc_info=error)
            answer = Response(json.dumps(error_payload(error)), content_type="application/json")
            answer.headers["X-Amz-Function-Error"] = "Unhandled"
            return answer
        return Response(json.dumps(result, default=str), content_type="application/json")

    def _start(self, function: DurableFunction, qualifier: str, request: Request) -> Response:
        if request.headers.get("X-Amz-Invocation-Type", "RequestResponse") != "Event":
            detail = "the local stack starts durable executions asynchronously: pass InvocationType='Event'"
            return lambda_error(400, "InvalidParameterValueException", detail)
        name = request.headers.get("X-Amz-Durable-Execution-Name") or ""
        existing = self.names.by_name.get((function.name, name))
        if not name or existing is None:
            document = start_input(function, qualifier, name, request)
            started = self._runner_post("/start-durable-execution", document)
            runner_arn = str(started["ExecutionArn"])
            name = name or runner_arn.split("/", 1)[0]
            existing = self._aws_arn(function.name, qualifier, name, runner_arn)
            self.names.add(runner_arn, existing, function.name, name)
        answer = Response(b"", status=202)
        answer.headers["X-Amz-Durable-Execution-Arn"] = existing
        return answer

    def _aws_arn(self, function: str, qualifier: str, name: str, runner_arn: str) -> str:
        """Lambda's form: the qualifier is the version that runs ($LATEST or a number; an alias is
        resolved to its version, which is 1 here: the local stack publishes nothing)."""
        execution_id = runner_arn.rsplit("/", 1)[-1]  # the SDK reads its execution operation's id here
        version = qualifier if qualifier == "$LATEST" or qualifier.isdigit() else LOCAL_ALIAS_VERSION
        prefix = f"arn:aws:lambda:{self._region}:{self._account}:function:{function}:{version}"
        return f"{prefix}/durable-execution/{name}/{execution_id}"

    def _proxy(self, request: Request, segments: list[str]) -> Response:
        inward = [self.names.runner_of.get(segment, segment) for segment in segments]
        path = "/" + "/".join(quote(segment, safe="") for segment in inward)
        query = request.query_string.decode("latin-1")
        url = self.runner_url + path + (f"?{query}" if query else "")
        headers = {"Content-Type": request.headers.get("Content-Type", "application/json")}
        forwarded = urllib.request.Request(  # noqa: S310 - the runner on 127.0.0.1
            url, data=request.get_data() or None, headers=headers, method=request.method
        )
        try:
            with urllib.request.urlopen(forwarded, timeout=PROXY_TIMEOUT_SECONDS) as answer:  # noqa: S310
                status, body, kept = answer.status, answer.read(), dict(answer.headers)
        except urllib.error.HTTPError as refused:
            status, body, kept = refused.code, refused.read(), dict(refused.headers)
        headers = _answer_headers(kept)
        if status >= 400 and not any(name.lower() == "x-amzn-errortype" for name in headers):
            headers["X-Amzn-ErrorType"] = _error_type(body)  # where botocore reads an error's code
        return Response(self._outward(body), status=status, headers=headers)

    def _outward(self, body: bytes) -> bytes:
        try:
            document = json.loads(body) if body else None
        except ValueError:
            return body
        return body if document is None else json.dumps(self.names.to_aws(document)).encode("utf-8")

    def _runner_post(self, path: str, document: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(  # noqa: S310 - the runner on 127.0.0.1
            self.runner_url + path,
            data=json.dumps(document).encode("utf-8"),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            started: dict[str, Any] = json.loads(answer.read())
            return started

    def runner_get(self, runner_arn: str) -> dict[str, Any]:
        """GetDurableExecution at the runner, ARNs in AWS's form."""
        url = f"{self.runner_url}/2025-12-01/durable-executions/{quote(runner_arn, safe='')}"
        with urllib.request.urlopen(url, timeout=10) as answer:  # noqa: S310 - the runner on 127.0.0.1
            execution: dict[str, Any] = self.names.to_aws(json.loads(answer.read()))
            return execution


def start_input(function: DurableFunction, qualifier: str, name: str, request: Request) -> dict[str, Any]:
    """The runner's StartDurableExecutionInput for an Invoke of the function."""
    document: dict[str, Any] = {
        "AccountId": "123456789012",
        "FunctionName": function.name,
        "FunctionQualifier": qualifier,
        "ExecutionName": name or "unnamed",
        "ExecutionTimeoutSeconds": function.execution_timeout_seconds,
        "ExecutionRetentionPeriodDays": function.retention_days,
        "Input": request.get_data(as_text=True) or "{}",
    }
    if tenant := request.headers.get("X-Amz-Tenant-Id"):
        document["TenantId"] = tenant
    return document


def raw_path(environ: dict[str, Any]) -> str:
    """The path as sent (an ARN's %2F stays inside its segment)."""
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI") or environ.get("PATH_INFO", "/")
    return str(raw).split("?", 1)[0]


def lambda_error(status: int, code: str, message: str) -> Response:
    answer = Response(json.dumps({"Type": "User", "message": message}), status=status)
    answer.headers["Content-Type"] = "application/json"
    answer.headers["X-Amzn-ErrorType"] = code
    return answer


def _error_type(body: bytes) -> str:
    """The runner names its errors in the body's `Type` (ResourceNotFoundException, ...)."""
    try:
        document = json.loads(body)
    except ValueError:
        document = None
    found = document.get("Type") if isinstance(document, dict) else None
    return str(found) if found else "ServiceException"


def _answer_headers(headers: dict[str, str]) -> dict[str, str]:
    kept = {"content-type", "x-amzn-errortype", "x-amzn-requestid"}
    return {name: value for name, value in headers.items() if name.lower() in kept}


class DurableRequestHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """werkzeug's access log line (at INFO, with --verbose): a callback id is a secret."""
        line = _CALLBACK_PATH.sub(r"\1<callback-id>", self.requestline)
        self.log("info", '"%s" %s %s', line, code, size)


class DurableEndpointServer:
    """The endpoint on a threaded werkzeug server: a handler invocation's checkpoints arrive while
    the runner's invoke that started it is still open."""

    def __init__(self, endpoint: DurableEndpoint, port: int = 0) -> None:
        self.endpoint = endpoint
        self._server: BaseWSGIServer = make_server(
            "127.0.0.1", port, endpoint, threaded=True, request_handler=DurableRequestHandler
        )
        serve = self._server.serve_forever
        self._thread = threading.Thread(target=serve, name="durable-endpoint", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)
