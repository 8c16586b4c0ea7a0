"""Lambda handlers run in this process whenever moto would start a Lambda container.

moto 5.2.5 funnels every invocation (the Invoke API, Step Functions `lambda:invoke` and
`.waitForTaskToken`, DynamoDB-stream event source mappings, SNS subscriptions) through the private
`moto.awslambda.models.LambdaFunction._invoke_lambda`; replacing it is the whole trick (pin moto).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from local.patches import invocation_logs, replace_attribute
from local.patches.faults import HandlerKilled
from local.template.sam_template import REPO_ROOT

logger = logging.getLogger(__name__)
Handler = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class LocalFunction:
    """Where a deployed function's code lives on this machine, and how it is configured."""

    function_name: str
    function_arn: str
    code_path: Path
    handler: str
    memory_mb: int
    timeout_seconds: int
    environment: dict[str, str] = field(default_factory=dict)


@dataclass
class LambdaContext:
    """The context object the Lambda Python runtime hands a handler."""

    function_name: str
    invoked_function_arn: str
    memory_limit_in_mb: int
    timeout_seconds: int
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    function_version: str = "$LATEST"
    _started: float = field(default_factory=time.monotonic)

    @property
    def log_group_name(self) -> str:
        return f"/aws/lambda/{self.function_name}"

    @property
    def log_stream_name(self) -> str:
        return f"local/[$LATEST]{self.aws_request_id}"

    def get_remaining_time_in_millis(self) -> int:
        elapsed = time.monotonic() - self._started
        return max(0, int((self.timeout_seconds - elapsed) * 1000))

    def log_keys(self, cold_start: bool) -> dict[str, Any]:
        """What Powertools' inject_lambda_context puts on each line of this invocation."""
        return {
            "cold_start": cold_start,
            "function_name": self.function_name,
            "function_memory_size": self.memory_limit_in_mb,
            "function_arn": self.invoked_function_arn,
            "function_request_id": self.aws_request_id,
        }


class FunctionRegistry:
    """The functions the stack created, by name, each with a pool of warm instances.

    Like Lambda, an instance serves one invocation at a time: concurrent invocations of a function
    get separate instances (separate imports of its module), so module-level state such as the
    router's request (`waitgate.http.router.HttpApp`, kept on the app) is never shared between two
    requests in flight.
    """

    def __init__(self) -> None:
        self._functions: dict[str, LocalFunction] = {}
        self._idle: dict[str, list[Handler]] = {}
        self._instances: dict[str, int] = {}
        self._pool_lock = threading.Lock()

    def add_layer_path(self, folder: str) -> None:
        """A layer's content is importable by every function, as under /opt/python on Lambda."""
        if folder not in sys.path:
            sys.path.insert(0, folder)

    def register(self, function: LocalFunction) -> None:
        self._functions[function.function_name] = function

    def names(self) -> list[str]:
        return sorted(self._functions)

    def all(self) -> list[LocalFunction]:
        return [self._functions[name] for name in self.names()]

    def get(self, function_name: str) -> LocalFunction:
        if function_name not in self._functions:
            raise LookupError(f"function {function_name!r} is not part of the local stack")
        return self._functions[function_name]

    def _acquire(self, function_name: str) -> tuple[Handler, bool]:
        """An idle instance's handler, or a new instance's (cold: True)."""
        with self._pool_lock:
            idle = self._idle.setdefault(function_name, [])
            if idle:
                return idle.pop(), False
            number = self._instances.get(function_name, 0)
            self._instances[function_name] = number + 1
        # A cold start: imported outside the pool lock, so other functions' requests go on meanwhile.
        return _import_handler(self.get(function_name), number), True

    def _release(self, function_name: str, handler: Handler) -> None:
        with self._pool_lock:
            self._idle[function_name].append(handler)

    def invoke(self, function_name: str, event: Any) -> Any:
        """Run the handler the way Lambda does, on an instance of its own; exceptions propagate."""
        function = self.get(function_name)
        context = LambdaContext(
            function_name=function.function_name,
            invoked_function_arn=function.function_arn,
            memory_limit_in_mb=function.memory_mb,
            timeout_seconds=function.timeout_seconds,
        )
        handler, cold = self._acquire(function_name)
        try:
            with invocation_logs.invocation(context.log_keys(cold), event):
                answer = handler(event, context)
        except HandlerKilled as killed:  # the instance died with it: never handed out again
            raise RuntimeExitError(f"RequestId: {context.aws_request_id} Error: {killed}") from None
        except BaseException:
            self._release(function_name, handler)
            raise
        self._release(function_name, handler)
        return answer


_IMPORT_LOCK = threading.Lock()


def _import_handler(function: LocalFunction, instance: int) -> Handler:
    """`functions/<name>/app.py` imported as a module of its own for each instance."""
    module_path, _, attribute = function.handler.rpartition(".")
    source = function.code_path.joinpath(*module_path.split(".")).with_suffix(".py")
    relative = source.relative_to(REPO_ROOT).with_suffix("")
    module_name = ".".join(relative.parts) + ("" if instance == 0 else f"__instance{instance}")
    with _IMPORT_LOCK:  # the import system is not safe against two loads of one module at once
        module = sys.modules.get(module_name) or _load_module(module_name, source)
    handler: Handler = getattr(module, attribute)
    return handler


def _load_module(module_name: str, source: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, source)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load handler module from {source}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


class RuntimeExitError(RuntimeError):
    """The handler's runtime died mid-invocation (a fault's kill): Lambda's `Runtime.ExitError`."""

    error_type = "Runtime.ExitError"


def error_payload(error: BaseException) -> dict[str, Any]:
    """The payload Lambda answers with when a Python handler raises."""
    return {
        "errorMessage": str(error),
        "errorType": getattr(error, "error_type", type(error).__name__),
        "stackTrace": traceback.format_tb(error.__traceback__),
    }


_CURRENT: list[FunctionRegistry] = []  # the running stack's handlers (a process may start a second stack)


def install(registry: FunctionRegistry) -> None:
    """Make moto run our handlers in-process instead of in Docker."""
    from moto.awslambda.models import LambdaFunction

    invocation_logs.install()
    _CURRENT[:] = [registry]
    replace_attribute(LambdaFunction, "_invoke_lambda", lambda _in_docker: _invoke_lambda)


def _invoke_lambda(self: Any, event: Any = None) -> tuple[str, bool, str]:
    if isinstance(event, str | bytes):
        event = json.loads(event or "{}")
    try:
        result = _CURRENT[0].invoke(self.function_name, {} if event is None else event)
    except Exception as error:
        # One line; the traceback at debug level (`waitgate dev --verbose`).
        logger.error("handler of %s failed: %s: %s", self.function_name, type(error).__name__, error)
        logger.debug("handler of %s failed", self.function_name, exc_info=error)
        return json.dumps(error_payload(error)), True, ""
    return json.dumps(result, default=str), False, ""
