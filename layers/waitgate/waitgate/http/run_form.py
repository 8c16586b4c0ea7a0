"""resolveInterruptByRun from the human page's own form: what the signed-in inbox sends (docs/inbox.md).

The fields mean something only for the interrupt they answer, so they become a resume value inside
the resolve, once it read that interrupt (`ResolveCommand.resume_from`): the order of checks is the
JSON body's (a replay under its Idempotency-Key; 404, 409; 403; then the fields, 400), and the resume
value is exactly the one the link page's form makes (`page.form_resume`), `decidedAt` when it arrives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.http.form_body import form_fields
from waitgate.http.idempotency import idempotency_ref
from waitgate.page.form_resume import resume_value_from_form
from waitgate.run.answers import Answer
from waitgate.run.clock import rfc3339
from waitgate.run.identity import Caller
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_answer


def resolve_form_by_run(
    run: RunRef, node_id: str, caller: Caller, event: Mapping[str, Any], deps: ResolveDependencies
) -> Answer:
    fields = form_fields(event)

    def resume_from(record: InterruptRecord) -> Any:
        return resume_value_from_form(record.payload, fields, rfc3339(deps.clock.now()))

    command = ResolveCommand(
        run=run, node_id=node_id, resume_value=None, caller=caller, resume_from=resume_from, via="inbox"
    )
    request = {"runId": run.run_id, "nodeId": node_id, "form": fields}
    return resolve_answer(command, idempotency_ref(event, "resolveInterruptByRun", caller, request), deps)
