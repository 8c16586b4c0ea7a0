"""AG-UI 1.0's interrupts, read and written with the `ag-ui-protocol` package's types
(`pip install waitgate[ag-ui]`; docs/agents.md).

- waitgate → AG-UI: an agent server whose run waits on waitgate ends its stream with `RUN_FINISHED`
  whose `outcome` is `{type: "interrupt", interrupts: [...]}`: `interrupt_of(asked, ...)` is one, with
  reason `tool_call` (an approval of a tool call, `toolCallId` set), `confirmation` (an approval of
  anything else) or `input_required` (a clarification, `responseSchema` its answers' schema),
  `expiresAt` the interrupt's deadline and `metadata.waitgate` where it waits (runId, nodeId).
- AG-UI → waitgate: the next run's `resume[]` entries answer them; `resolve_resume` resolves each in
  waitgate with an Idempotency-Key derived from the thread, the interrupt and the payload, so a resume
  replayed (a retried request, a reconnect) decides nothing twice. `read_interrupt` reads an agent's
  own Interrupt as the waitgate ask it is.

A member waitgate cannot carry (`subagentRunId`, metadata besides `waitgate`, an unknown reason) is
refused by name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from waitgate.sdk.agent_asks import AskedInterrupt
from waitgate.sdk.tool_approvals import ANSWER_ID, TOOL_CALL_ACTIONS, MappingRefused, ToolCall, re_entry_key

TOOL_CALL: Final = "tool_call"
CONFIRMATION: Final = "confirmation"
INPUT_REQUIRED: Final = "input_required"
METADATA_KEY: Final = "waitgate"
CARRIED: Final = {"id", "reason", "message", "toolCallId", "responseSchema", "expiresAt", "metadata"}


def approval_schema(actions: Sequence[str]) -> dict[str, Any]:
    """What an approval's answer is: a waitgate resume value, `decidedAt` (when the person decided) in
    it, so a replayed resume is the very same request."""
    return {
        "type": "object",
        "required": ["action", "decidedAt"],
        "properties": {
            "action": {"enum": list(actions)},
            "decidedAt": {"type": "string", "format": "date-time"},
            "feedback": {"type": "string"},
            "editedArtifactData": {"type": "object"},
        },
    }


def answers_schema(questions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What a clarification's answer is: `{answers: {<question id>: <its schema>}}`."""
    properties = {str(q["id"]): dict(q.get("schema") or {}) for q in questions}
    answers = {"type": "object", "required": list(properties), "properties": properties}
    return {"type": "object", "required": ["answers"], "properties": {"answers": answers}}


def interrupt_of(
    asked: AskedInterrupt,
    *,
    message: str,
    call: ToolCall | None = None,
    actions: Sequence[str] = TOOL_CALL_ACTIONS,
    questions: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    """The AG-UI Interrupt of a waitgate ask: a clarification when `questions` are given, else an
    approval (of `call`: reason tool_call; of anything else: confirmation)."""
    from ag_ui.core import Interrupt

    if questions is not None:
        reason, schema = INPUT_REQUIRED, answers_schema(questions)
    else:
        reason, schema = (TOOL_CALL if call is not None else CONFIRMATION), approval_schema(actions)
    return Interrupt(
        id=asked.interrupt_id,
        reason=reason,
        message=message,
        tool_call_id=None if call is None else call.call_id,
        response_schema=schema,
        expires_at=asked.deadline,
        metadata={METADATA_KEY: {"runId": asked.run_id, "nodeId": asked.node_id}},
    )


def run_finished(thread_id: str, run_id: str, interrupts: Sequence[Any]) -> Any:
    """RUN_FINISHED with the interrupt outcome: the run is paused on these interrupts."""
    from ag_ui.core import RunFinishedEvent, RunFinishedInterruptOutcome

    outcome = RunFinishedInterruptOutcome(interrupts=list(interrupts))
    return RunFinishedEvent(thread_id=thread_id, run_id=run_id, outcome=outcome)


def read_interrupt(interrupt: Any, *, call: ToolCall | None = None) -> dict[str, Any]:
    """An AG-UI Interrupt (the model or its JSON) as the arguments of the MCP tool that asks for it
    (`request_approval`, or `ask_question` for input_required): `{"tool": ..., "arguments": ...}`.
    A tool_call interrupt needs its `call` (name and arguments come from the stream's TOOL_CALL_*)."""
    from ag_ui.core import Interrupt

    document = (
        interrupt if isinstance(interrupt, Mapping) else interrupt.model_dump(mode="json", by_alias=True)
    )
    if unknown := sorted(set(document) - CARRIED):
        raise MappingRefused(f"interrupt.{unknown[0]}", "waitgate cannot carry this member")
    if extra := sorted(set(document.get("metadata") or {}) - {METADATA_KEY}):
        raise MappingRefused(f"interrupt.metadata.{extra[0]}", "waitgate cannot carry this member")
    model = Interrupt.model_validate(document)
    key = re_entry_key("ag-ui", model.id)
    if model.reason == INPUT_REQUIRED:
        question = {"id": ANSWER_ID, "question": model.message or model.id, "schema": model.response_schema}
        return {"tool": "ask_question", "arguments": {"questions": [question], "request_key": key}}
    if model.reason == TOOL_CALL:
        if call is None or call.call_id != model.tool_call_id:
            raise MappingRefused("interrupt.toolCallId", "needs the tool call it names")
        return {"tool": "request_approval", "arguments": call.approval(request_key=key)}
    if model.reason == CONFIRMATION:
        title = model.message or model.id
        arguments = {"title": title, "actions": ["accept", "reject"], "request_key": key}
        return {"tool": "request_approval", "arguments": arguments}
    raise MappingRefused(
        "interrupt.reason", f"{model.reason!r}: waitgate reads tool_call, confirmation, input_required"
    )


def resume_entry(asked: AskedInterrupt) -> Any:
    """The ResumeEntry of an ended waitgate interrupt: resolved with its resume value, or cancelled
    (expired, cancelled: nobody decided)."""
    from ag_ui.core import ResumeEntry

    if asked.status == "resolved":
        return ResumeEntry(interrupt_id=asked.interrupt_id, status="resolved", payload=asked.resume_value)
    return ResumeEntry(interrupt_id=asked.interrupt_id, status="cancelled")


def resolve_resume(
    client: Any, thread_id: str, entries: Sequence[Any], interrupts: Sequence[Any]
) -> list[Any]:
    """Resolve in waitgate each resolved entry of `resume[]` (a `WaitgateClient` with the answering
    person's JWT), the interrupt found among `interrupts` (those RUN_FINISHED carried) by id. The
    Idempotency-Key is the digest of thread, interrupt and payload: a replayed resume gets the first
    answer back (`Resolution.replayed`), never a second decision. A cancelled entry resolves nothing."""
    from ag_ui.core import Interrupt, ResumeEntry

    waiting = {}
    for interrupt in interrupts:
        model = interrupt if isinstance(interrupt, Interrupt) else Interrupt.model_validate(interrupt)
        waiting[model.id] = (model.metadata or {}).get(METADATA_KEY) or {}
    resolutions = []
    for index, entry in enumerate(entries):
        entry = entry if isinstance(entry, ResumeEntry) else ResumeEntry.model_validate(entry)
        where = waiting.get(entry.interrupt_id)
        if not where or "runId" not in where or "nodeId" not in where:
            raise MappingRefused(f"resume[{index}].interruptId", "is no interrupt of this run")
        if entry.status != "resolved":
            continue
        if not isinstance(entry.payload, Mapping):
            raise MappingRefused(f"resume[{index}].payload", "must be an object")
        value = dict(entry.payload)
        key = re_entry_key("ag-ui-resume", thread_id, entry.interrupt_id, _canonical(entry.payload))
        resolutions.append(client.resolve_by_run(where["runId"], where["nodeId"], value, idempotency_key=key))
    return resolutions


def _canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
