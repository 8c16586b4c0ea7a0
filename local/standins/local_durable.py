"""Lambda durable functions on the local stack (docs/durable-functions.md, "Locally").

Before the template's resources: the durable endpoint starts (local.standins.durable_endpoint) and
the template's DurableEndpointUrl points waitgate's callback calls at it. After them: it learns the
stack's durable functions (those with a DurableConfig), the durable SDK's checkpoints are routed to
it (local.patches.durable_checkpoints) and the runner starts, invoking the functions through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from local.patches import durable_checkpoints
from local.patches.lambda_runtime import FunctionRegistry
from local.standins.durable_endpoint import DurableEndpoint, DurableEndpointServer, DurableFunction
from local.standins.durable_runner import DurableRunner, DurableRunnerExitedError, free_port
from local.template.resources import StackContext

if TYPE_CHECKING:
    from local.standins.pumps import Pump

DEFAULT_RETENTION_DAYS = 14
RUNNER_PORT_ATTEMPTS = 3  # a port found free can be taken before the runner binds it (any socket may)


def function_key(logical_id: str) -> str:
    """ApprovalSampleFunction → "approval" (local.json's durable.functions)."""
    name = logical_id.removesuffix("Function").removesuffix("Sample") or logical_id
    return name[:1].lower() + name[1:]


class LocalDurable:
    def __init__(self, registry: FunctionRegistry, region: str, account_id: str) -> None:
        # the runner's port is found when it starts (_start_runner), after the template's resources
        self.endpoint = DurableEndpoint("http://127.0.0.1:0", registry, {}, region, account_id)
        self._server = DurableEndpointServer(self.endpoint)
        self._server.start()
        self._runner = DurableRunner(0, self._server.url, region)
        self._region = region

    @property
    def url(self) -> str:
        return self._server.url

    def template_parameters(self) -> dict[str, str]:
        return {"DurableEndpointUrl": self.url}

    def after_resources(self, context: StackContext) -> None:
        for name, config in context.durable_configs.items():
            timeout = int(config["ExecutionTimeout"])
            retention = int(config.get("RetentionPeriodInDays", DEFAULT_RETENTION_DAYS))
            self.endpoint.functions[name] = DurableFunction(name, timeout, retention)
        durable_checkpoints.install(self.url, self._region)
        self._start_runner()

    def _start_runner(self) -> None:
        """The runner on a port found free just now, and on another if that one was taken meanwhile:
        the stack's resources take seconds to make, long enough for any socket to land on it."""
        for attempt in range(1, RUNNER_PORT_ATTEMPTS + 1):
            port = free_port()
            self._runner.port, self.endpoint.runner_url = port, f"http://127.0.0.1:{port}"
            try:
                self._runner.start()
                return
            except DurableRunnerExitedError:
                if attempt == RUNNER_PORT_ATTEMPTS:
                    raise

    def description(self, context: StackContext) -> dict[str, Any]:
        """local.json's `durable`: the endpoint to start and read executions at, and the functions."""
        functions = {
            function_key(logical_id): str(created.ref)
            for logical_id, created in context.physical_ids.items()
            if str(created.ref) in context.durable_configs
        }
        return {"endpointUrl": self.url, "functions": functions}

    def end_forgotten_runs(self, context: StackContext, kept_items: list[dict[str, Any]]) -> list[str]:
        """The runs that waited on a durable execution before the restart are ended as failed (the
        runner kept none); the names of those executions."""
        from local.standins.durable_events import end_forgotten_runs

        return end_forgotten_runs(self.endpoint, context, kept_items)

    def pumps(self, context: StackContext) -> list[Pump]:
        from local.standins.durable_events import durable_event_pump

        return [durable_event_pump(self.endpoint, context)]

    def stop(self) -> None:
        self._runner.stop()
        self._server.stop()
        durable_checkpoints.uninstall()
