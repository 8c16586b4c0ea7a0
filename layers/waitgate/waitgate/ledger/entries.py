"""What each ledgered fact says as an entry: who decided (principal and how they matched), by what
(`via`), the comment, the quorum tally, the policy in force, the action's fingerprint when the data
carries an action. Facts come from the run's events (the table stream's EVT# items); the policy from
the interrupt's payload, when the interrupt is still the node's.

Large members are kept as digests (the payload, the resume value, the escalation policy), so an entry
stays a few KB: at most a comment (4 KB), 12 voters and the approver fields of a 64 KB payload.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

from waitgate.ledger.chain import digest
from waitgate.run.records import JSONObject

DEADLINE_DECIDER = "waitgate:deadline"
# What a person's answer came by, as the resolve paths say it in the vote's and decision's events:
# the run surface's API, a signed link (its page or a program), the signed-in inbox, Slack, a webhook.
Via = Literal["run", "link", "inbox", "slack", "webhook"]
SAYS_VIA = frozenset({"interrupt.voted", "interrupt.resolved", "approval.resolved", "clarification.resolved"})
CALLER_VIA: dict[str, Via] = {"jwt": "run", "token": "link", "slack": "slack", "webhook": "webhook"}
LEDGERED_TYPES = frozenset(
    {
        "interrupt.requested",
        "interrupt.voted",
        "interrupt.resolved",
        "interrupt.escalated",
        "interrupt.expired",
        "interrupt.cancelled",
        "agent.decided",
    }
)
# the directory's delegations and tenant settings, when they are events (issue #33, points 2 and 3)
DIRECTORY_PREFIXES = ("delegation.", "setting.")
POLICY_FIELDS = (
    "approversList",
    "approverGroupRefs",
    "approverRoleRefs",
    "requiredApprovals",
    "rejectionPolicy",
    "overrideBypassesQuorum",
    "allowSelfApproval",
)


def via_of(caller: Any) -> Via | None:
    """What a caller's answer came by: its credential says (a JWT is the run surface's API)."""
    return CALLER_VIA.get(str(getattr(caller, "via", "")))


def is_ledgered(event_type: str) -> bool:
    return event_type in LEDGERED_TYPES or event_type.startswith(DIRECTORY_PREFIXES)


def source_id(run_id: str, event_seq: int) -> str:
    """The source event's id: its run and its place in the run's log (unique per tenant)."""
    return f"{run_id}#{event_seq}"


def facts_of(
    event_type: str,
    time: str,
    run_id: str,
    node_id: str | None,
    payload: JSONObject,
    interrupt: Mapping[str, Any] | None = None,
) -> JSONObject:
    """The entry's facts for one event. `interrupt`: {interruptId, kind, payload} of the node's
    interrupt when it is the one the event is about (the policy in force is read there)."""
    facts: JSONObject = {"type": event_type, "recordedAt": time, "runId": run_id, "nodeId": node_id}
    about = dict(interrupt or {})
    facts["interruptId"] = payload.get("interruptId") or about.get("interruptId")
    facts["kind"] = payload.get("kind") or about.get("kind")
    facts.update(_what_happened(event_type, payload))
    source_payload = payload if event_type == "interrupt.requested" else about.get("payload")
    facts.update(policy_of(source_payload) if isinstance(source_payload, Mapping) else {"policy": None})
    facts.setdefault("actionFingerprint", _fingerprint(source_payload))
    return facts


def policy_of(payload: Mapping[str, Any]) -> JSONObject:
    """The policy in force: the approval's eligibility and quorum fields as given, the escalation's digest."""
    data = payload.get("data")
    data = data if isinstance(data, Mapping) else {}
    policy: JSONObject = {name: data[name] for name in POLICY_FIELDS if name in data}
    escalation = payload.get("escalation", data.get("escalation"))
    if escalation is not None:
        policy["escalationDigest"] = digest(escalation)
    return {"policy": policy, "payloadDigest": digest(dict(payload))}


def _fingerprint(payload: Any) -> str | None:
    """The action's fingerprint (SHA-256 of its RFC 8785 form) when the data carries `action`."""
    if not isinstance(payload, Mapping) or not isinstance(payload.get("data"), Mapping):
        return None
    action = payload["data"].get("action")
    return digest(action) if isinstance(action, Mapping) else None


def _what_happened(event_type: str, payload: JSONObject) -> JSONObject:
    if event_type == "interrupt.requested":
        requester = _member(payload, "data").get("requestedBy")
        return {"via": "workflow", "decidedBy": _who(requester, "requestedBy") if requester else None}
    if event_type == "interrupt.voted":
        return {**_vote_facts(_member(payload, "vote")), "via": payload.get("via")}
    if event_type == "interrupt.resolved":
        return _resolution(payload)
    if event_type == "interrupt.escalated":
        return {
            "via": "schedule",
            "decidedBy": None,
            "step": payload.get("step"),
            "added": payload.get("added"),
        }
    if event_type == "interrupt.expired":
        return {"via": "deadline", "decidedBy": _who(DEADLINE_DECIDER, None), "action": "expire"}
    if event_type == "interrupt.cancelled":
        return {"via": "workflow", "decidedBy": None, "action": "cancel", "reason": payload.get("reason")}
    if event_type == "agent.decided":
        agent = payload.get("agentId")
        return {
            "via": "agent",
            "decidedBy": _who(agent, "agent") if agent else None,
            "detailDigest": digest(payload),
        }
    return {"via": payload.get("via"), "decidedBy": None, "detail": dict(payload)}


def _member(value: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """An object member, or an empty one when it is absent or not an object."""
    member = value.get(name)
    return member if isinstance(member, Mapping) else {}


def _resolution(payload: JSONObject) -> JSONObject:
    value = payload.get("resumeValue")
    facts: JSONObject = {"resumeValueDigest": digest(value), "via": payload.get("via")}
    if not isinstance(value, Mapping):
        return {**facts, "decidedBy": None}
    votes = [vote for vote in value.get("votes", ()) if isinstance(vote, Mapping)]
    if value.get("decidedBy") == DEADLINE_DECIDER:
        facts.update(via="deadline", decidedBy=_who(DEADLINE_DECIDER, None))
    elif votes:
        facts.update(decidedBy=_vote_facts(votes[-1])["decidedBy"])
    else:
        facts["decidedBy"] = None
    facts.update(action=value.get("action"), comment=value.get("feedback"))
    if isinstance(value.get("actionFingerprint"), str):  # an edit-accept's new action (issue #33, point 1)
        facts["actionFingerprint"] = value["actionFingerprint"]
    if votes:
        facts["tally"] = {
            "counts": dict(Counter(str(vote.get("action")) for vote in votes)),
            "votes": [
                {
                    "principal": vote.get("principal"),
                    "matchedBy": _matched_by(vote),
                    "action": vote.get("action"),
                }
                for vote in votes
            ],
        }
    return facts


def _vote_facts(vote: Mapping[str, Any]) -> JSONObject:
    return {
        "decidedBy": _who(vote.get("principal"), _matched_by(vote)),
        "action": vote.get("action"),
        "comment": vote.get("feedback"),
        "decidedAt": vote.get("decidedAt"),
    }


def _matched_by(vote: Mapping[str, Any]) -> Any:
    eligibility = vote.get("eligibility")
    return eligibility.get("matchedBy") if isinstance(eligibility, Mapping) else None


def _who(principal: Any, matched_by: Any) -> JSONObject:
    return {"principal": principal, "matchedBy": matched_by}
