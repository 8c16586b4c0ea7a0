"""An agent's ask over MCP waits on an `agent-poll:` handle: no engine is answered for it (the agent
reads the outcome itself), and it is told apart from the other two kinds."""

from __future__ import annotations

from tests.fakes.memory import RecordingWorkflow
from waitgate.adapters.workflow_engines import WorkflowEngines
from waitgate.run.resume_handles import agent_poll_handle, durable_callback_handle, handle_kind


def test_an_agent_poll_handle_is_answered_by_no_engine() -> None:
    step_functions, durable = RecordingWorkflow(), RecordingWorkflow()
    engines = WorkflowEngines(step_functions, lambda: durable)
    handle = agent_poll_handle("0123abcd")
    engines.send_success(handle, {"action": "accept"})
    engines.send_failure(handle, "InterruptTimedOut", "late")
    assert not (step_functions.successes or step_functions.failures or durable.successes or durable.failures)


def test_the_three_handle_kinds_are_told_apart_by_their_prefix() -> None:
    kinds = [
        handle_kind(h)
        for h in ("AAAAKgAAAAIAAAAA+/token==", durable_callback_handle("abc="), agent_poll_handle("f0"))
    ]
    assert kinds == ["task-token", "durable-callback", "agent-poll"]
