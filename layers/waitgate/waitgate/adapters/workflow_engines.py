"""The Workflow port over both engines: each handle goes to the engine it belongs to.

A task token goes to Step Functions unchanged; a `durable-callback:` handle goes, as its callback id,
to Lambda durable functions (waitgate.run.resume_handles); an `agent-poll:` handle goes nowhere: an
agent's ask over MCP has no run suspended on it, the agent reads the outcome from the interrupt
(`get_interrupt`, docs/mcp.md), so its delivery is done once the outcome is committed. The durable
engine is built on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from waitgate.ports import Workflow
from waitgate.run.reconciliation import EngineState
from waitgate.run.resume_handles import callback_id_of, handle_kind

DURABLE_EXECUTION = "/durable-execution/"


class WorkflowEngines:
    def __init__(self, step_functions: Workflow, durable_functions: Callable[[], Workflow]) -> None:
        self._step_functions = step_functions
        self._make_durable = durable_functions

    @cached_property
    def _durable(self) -> Workflow:
        return self._make_durable()

    def send_success(self, task_token: str, output: Any) -> None:
        if handle_kind(task_token) == "agent-poll":
            return  # nobody waits on it: the agent reads the committed outcome
        if handle_kind(task_token) == "durable-callback":
            self._durable.send_success(callback_id_of(task_token), output)
        else:
            self._step_functions.send_success(task_token, output)

    def send_failure(self, task_token: str, error: str, cause: str) -> None:
        if handle_kind(task_token) == "agent-poll":
            return  # the ask's refusal reaches the agent as the tool call's error, not through an engine
        if handle_kind(task_token) == "durable-callback":
            self._durable.send_failure(callback_id_of(task_token), error, cause)
        else:
            self._step_functions.send_failure(task_token, error, cause)

    def execution_state(self, execution_arn: str) -> EngineState | None:
        """A durable execution's ARN names `/durable-execution/`; a Step Functions one `:execution:`."""
        if DURABLE_EXECUTION in execution_arn:
            return self._durable.execution_state(execution_arn)
        if ":states:" in execution_arn and ":execution:" in execution_arn:
            return self._step_functions.execution_state(execution_arn)
        return None
