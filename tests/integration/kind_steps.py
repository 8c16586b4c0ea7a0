"""Steps the per-kind flows share: suspend through request_interrupt, read and resolve over the handlers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event
from tests.support.run_reads import get_run_event, list_events_event


@dataclass
class KindSteps:
    harness: WorkflowHarness
    handlers: dict[str, Handler] = field(default_factory=dict)

    def handler(self, name: str) -> Handler:
        if name not in self.handlers:
            self.handlers[name] = Handler(name)
        return self.handlers[name]

    def suspend(
        self, interrupt: dict[str, Any], tenant: str = "default", run_id: str | None = None
    ) -> tuple[SuspendedRun, dict[str, Any]]:
        run = self.harness.suspend(interrupt, tenant_id=tenant, run_id=run_id)
        outcome: dict[str, Any] = self.handler("request_interrupt")(run.task_event)
        return run, outcome

    def snapshot(self, run_id: str, tenant: str | None = None) -> tuple[int, Any]:
        answer = self.handler("get_run")(get_run_event(run_id, tenant=tenant))
        return answer["statusCode"], json.loads(answer["body"])

    def events(self, run_id: str, mode: str, tenant: str | None = None, **query: Any) -> list[dict[str, Any]]:
        """Every event of the run in that mode, following `next` page by page."""
        found: list[dict[str, Any]] = []
        after = 0
        while True:
            answer = self.handler("list_run_events")(
                list_events_event(run_id, tenant=tenant, mode=mode, after=after, **query)
            )
            assert answer["statusCode"] == 200, answer["body"]
            page = json.loads(answer["body"])
            found += page["events"]
            if "next" not in page:
                return found
            after = page["next"]

    def resolve(
        self, run_id: str, node_id: str, resume_value: Any, tenant: str | None = None, **options: Any
    ) -> tuple[int, Any]:
        event = http_event(run_id, node_id, {"resumeValue": resume_value}, tenant=tenant, **options)
        answer = self.handler("resolve_by_run")(event)
        return answer["statusCode"], json.loads(answer["body"])

    def failure_of(self, run: SuspendedRun) -> str:
        """The error name the execution failed with."""
        ended = self.harness.wait_for_end(run.execution_arn)
        assert ended["status"] == "FAILED", ended
        history = self.harness.sfn.get_execution_history(executionArn=run.execution_arn)["events"]
        failures = [e for e in history if e["type"] in {"TaskFailed", "ExecutionFailed"}]
        details = failures[-1].get("executionFailedEventDetails") or failures[-1]["taskFailedEventDetails"]
        return str(details["error"])

    def output_of(self, run: SuspendedRun) -> Any:
        ended = self.harness.wait_for_end(run.execution_arn)
        assert ended["status"] == "SUCCEEDED", ended
        return json.loads(ended["output"])


def types_of(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]
