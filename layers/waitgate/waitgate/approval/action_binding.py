"""What an action-bound approval's decision carries (docs/approvals.md, "Action-bound approvals").

An approval whose `data.action` names what will be done is decided *for that action*: the decision
holds `boundAction` (the requested action, or the `editedAction` of an edit-accept), its
`actionFingerprint`, and `decisionOf`, where it was decided (for the consume-once receipt).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from waitgate.errors import ValidationFailedError
from waitgate.payloads.action_fingerprint import action_fingerprint


def bound_members(data: Mapping[str, Any], resume: Mapping[str, Any]) -> dict[str, Any]:
    """The members an approval's resume value gains from `data.action` (none without one)."""
    requested = data.get("action")
    edited = resume.get("editedAction")
    if requested is None:
        if edited is not None:
            raise ValidationFailedError(
                "resumeValue.editedAction: this approval names no data.action to edit",
                path="resumeValue.editedAction",
            )
        return {}
    action = edited if edited is not None else requested
    return {"boundAction": action, "actionFingerprint": action_fingerprint(action)}


def decision_of(run_id: str, node_id: str, interrupt_id: str) -> dict[str, str]:
    """Where the decision was made: what `consume` names to spend it once."""
    return {"runId": run_id, "nodeId": node_id, "interruptId": interrupt_id}
