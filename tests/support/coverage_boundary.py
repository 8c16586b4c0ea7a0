"""The layer's coverage tracer paused while moto answers a call, and resumed for our handlers inside it.

Branch coverage on 3.11 is `sys.settrace`: while a trace function is set, every Python line of the
thread runs through the interpreter's tracing path, in moto as in the layer, though only the layer's
arcs are recorded. The integration tests spend most of their CPU in moto answering boto3 (its
request parsing, backends and serializer): about as much again went to tracing there (182 CPU-s
traced against 109 untraced for the phase, 2026-12-03).

`install()` wraps moto's in-process dispatch (the
`before-send` handler of `mock_aws`) so the thread's trace function is unset while moto answers, and
wraps the local runtime's `FunctionRegistry.invoke` (moto running one of our handlers: an invoke, a
stream record, a Step Functions task) so it is set again for the handler, and unset when it returns
into moto. botocore's client side (serializing, the model check, the layer's own event handlers such
as `dynamodb_transactions._note_attempt`) stays traced. Threads moto starts get the tracer from
`threading.settrace` as before. The phase's arcs, compared set against set with and without these
wrappers, are the same (docs/performance.md, "The test suite's time").

Coverage's C tracer keeps a stack of the frames it saw called; the wrappers unset and set the trace
function only around whole calls made from their own frame, so every call it sees returns to it.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from typing import Any

_paused = threading.local()  # .tracer: the trace function this thread's moto call paused


def _untraced(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def paused(*args: Any, **kwargs: Any) -> Any:
        tracer = sys.gettrace()
        if tracer is None:
            return call(*args, **kwargs)
        before = getattr(_paused, "tracer", None)
        _paused.tracer = tracer
        sys.settrace(None)
        try:
            return call(*args, **kwargs)
        finally:
            sys.settrace(tracer)
            _paused.tracer = before

    paused.__wrapped__ = call  # type: ignore[attr-defined]
    return paused


def _traced_again(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def resumed(*args: Any, **kwargs: Any) -> Any:
        tracer = getattr(_paused, "tracer", None)
        if tracer is None or sys.gettrace() is not None:
            return call(*args, **kwargs)
        _paused.tracer = None
        sys.settrace(tracer)
        try:
            return call(*args, **kwargs)
        finally:
            sys.settrace(None)
            _paused.tracer = tracer

    resumed.__wrapped__ = call  # type: ignore[attr-defined]
    return resumed


def install() -> None:
    """Idempotent. Without a trace function (no `--cov`) the wrappers only call through."""
    from moto.core.botocore_stubber import BotocoreStubber

    from local.patches.lambda_runtime import FunctionRegistry

    for owner, name, wrap in (
        (BotocoreStubber, "__call__", _untraced),
        (FunctionRegistry, "invoke", _traced_again),
    ):
        current = owner.__dict__[name]
        if not hasattr(current, "__wrapped__"):
            setattr(owner, name, wrap(current))
