"""Who is asked: the Task input's `notify` member, beside the interrupt (the payload is the protocol's,
closed), for any kind: `{principals: [...], groupRefs: [...], roleRefs: [...]}`.

`parse_notify` checks it (InterruptPayloadInvalidError names the member: the task fails, nothing is
written) and gives it back as stored. The people it names are told as approvers are (one notice each,
with a personal link), and for a kind other than approval they are the only ones who may answer:
`notify_fields` reads it as eligibility fields that always bind (fails closed: a ref kind the host
does not advertise names nobody). An approval's own fields still decide who votes; `notify` only adds
people to tell (docs/workflows.md, "Who is asked"). Pure.
"""

from __future__ import annotations

from typing import Any

from waitgate.approval import ApproverFields
from waitgate.errors import InterruptPayloadInvalidError
from waitgate.run.records import JSONObject

MEMBERS = ("principals", "groupRefs", "roleRefs")
MAX_NAMES = 100  # per member: a notice per person, sent while the Task waits for its answer
MAX_NAME_LENGTH = 255
NOT_ASKED_DETAIL = "The principal is not among the people this interrupt asks."


def parse_notify(value: Any) -> JSONObject | None:
    """The checked `notify` member (None when absent or null)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _invalid("notify must be an object: {principals, groupRefs, roleRefs}", "notify")
    unknown = sorted(set(value) - set(MEMBERS))
    if unknown:
        raise _invalid(
            f"notify has no member {unknown[0]!r} (only {', '.join(MEMBERS)})", f"notify.{unknown[0]}"
        )
    checked = {name: _names(value[name], f"notify.{name}") for name in MEMBERS if name in value}
    if not any(checked.values()):
        raise _invalid("notify must name at least one principal, group or role", "notify")
    return {name: names for name, names in checked.items() if names}


def _names(value: Any, path: str) -> list[str]:
    if not isinstance(value, list):
        raise _invalid("must be an array of names", path)
    if len(value) > MAX_NAMES:
        raise _invalid(f"names at most {MAX_NAMES}", path)
    for index, name in enumerate(value):
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_LENGTH:
            raise _invalid(f"each name is a string of 1 to {MAX_NAME_LENGTH} characters", f"{path}[{index}]")
    if len(set(value)) != len(value):
        raise _invalid("names each one once", path)
    return list(value)


def notify_fields(notify: JSONObject | None) -> ApproverFields | None:
    """The people `notify` names as eligibility fields, the list always present so that they bind;
    None: it names nobody (absent)."""
    if not notify:
        return None
    return ApproverFields(
        approvers_list=tuple(notify.get("principals", ())),
        approver_group_refs=tuple(notify["groupRefs"]) if "groupRefs" in notify else None,
        approver_role_refs=tuple(notify["roleRefs"]) if "roleRefs" in notify else None,
    )


def _invalid(detail: str, path: str) -> InterruptPayloadInvalidError:
    return InterruptPayloadInvalidError(f"{detail} (at {path})")


def names_nobody(kind: str, data: JSONObject, notify: JSONObject | None) -> bool:
    """Whether an interrupt names nobody to tell, whatever the directory holds: no `notify`, and a
    kind without people of its own (an approval without audience or approver fields, a conversation
    start without participants, any other kind). Nobody gets a notice of it: a link must be minted
    for it, or it is answered from the inbox."""
    if notify:
        return False
    if kind == "conversation.start":
        return not data.get("participants")
    if kind == "approval":
        return not any(data.get(name) for name in _APPROVAL_PEOPLE)
    return True


_APPROVAL_PEOPLE = ("audience", "approversList", "approverGroupRefs", "approverRoleRefs")
