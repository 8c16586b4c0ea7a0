"""Each Powertools HTTP resolver keeps the event it is resolving on itself, not on a class all share.

`ApiGatewayResolver.resolve` stores the event on the class: `BaseRouter.current_event = ...` (and
`BaseRouter.lambda_context`), and `app.current_event` reads it back from there. On Lambda that is
harmless: an execution environment runs one invocation at a time, in a process of its own. The local
stack runs every function in one process, and concurrent invocations on separate instances (separate
imports of their app.py, lambda_runtime) still share Powertools' one `BaseRouter`: the last request to
start overwrote every other request's event. Six runs resolved at once then had one request route on
its own path but read another request's runId (`path_parameter`) and resolve that run: one run was
resolved twice (200, then 409 interrupt_already_resolved) and another never.

With this patch a resolver sets the event and context on its own instance before Powertools' `resolve`
runs, so `app.current_event` (and Powertools' own routing, which reads `self.current_event`) is the
event this instance was invoked with. Powertools' class attribute is still set, as before, for code
that reads `BaseRouter.current_event` itself (a `Router` not included in a resolver).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Resolve = Callable[[Any, Mapping[str, Any], Any], dict[str, Any]]
ResolveAsync = Callable[[Any, Mapping[str, Any], Any], Awaitable[dict[str, Any]]]


def install() -> None:
    """Idempotent: every ApiGatewayResolver (our APIGatewayHttpResolver) keeps its own event."""
    from aws_lambda_powertools.event_handler.api_gateway import ApiGatewayResolver

    from local.patches import replace_attribute

    replace_attribute(ApiGatewayResolver, "resolve", _own_event)
    replace_attribute(ApiGatewayResolver, "resolve_async", _own_event_async)


def _keep_on_instance(resolver: Any, event: Any, context: Any) -> None:
    raw = getattr(event, "raw_event", event)  # Powertools also takes an event data class (and warns)
    resolver.current_event = resolver._to_proxy_event(raw)
    resolver.lambda_context = context


def _own_event(resolve: Resolve) -> Resolve:
    @functools.wraps(resolve)
    def resolve_own_event(self: Any, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        _keep_on_instance(self, event, context)
        return resolve(self, event, context)

    return resolve_own_event


def _own_event_async(resolve_async: ResolveAsync) -> ResolveAsync:
    @functools.wraps(resolve_async)
    async def resolve_own_event(self: Any, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        _keep_on_instance(self, event, context)
        return await resolve_async(self, event, context)

    return resolve_own_event
