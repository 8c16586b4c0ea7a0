"""Answering a suspended run with its resume value, or failing it by name when its engine cannot take it.

The size budgets (waitgate.run.size_limits) keep every accepted answer inside both engines' limits; a
value that still does not fit (kept by an older version, written by hand) must not leave the run
waiting for ever with the outbox retrying: the engine's adapter refuses it before sending
(ResultTooLargeError) and the run fails with `InterruptResultTooLarge`, which the workflow can Catch.
A second try (the outbox, after the first try's mark was lost) finds that task already failed: the value
is still one no engine takes, so the answer is the same, not "task gone".
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from waitgate.errors import ResultTooLargeError, TaskGoneError
from waitgate.ports import Workflow
from waitgate.run.workflow_errors import RESULT_TOO_LARGE


def send_resume_value(workflow: Workflow, task_token: str, value: Any) -> bool:
    """True: the engine took the value; False: it could not, and the run was failed instead."""
    try:
        workflow.send_success(task_token, value)
    except ResultTooLargeError as too_large:
        with suppress(TaskGoneError):  # failed by an earlier try whose mark was lost, or ended otherwise
            workflow.send_failure(task_token, RESULT_TOO_LARGE, too_large.detail)
        return False
    return True
