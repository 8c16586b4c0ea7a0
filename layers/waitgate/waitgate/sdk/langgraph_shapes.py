"""LangChain's and LangGraph's interrupt shapes, read and written (pure; no framework imported):

- `HITLRequest` (HumanInTheLoopMiddleware, batched): `{action_requests: [{name, args, description?}],
  review_configs: [{action_name, allowed_decisions}]}`, answered `{decisions: [...]}` in request order;
- `ToolApprovalRequest` (the middleware's per_call mode): `{type: "tool_approval", tool_call_id, name,
  args, description}`, answered with one decision;
- Agent Inbox's `HumanInterrupt` `{action_request: {action, args}, config: {allow_*}, description}`,
  answered with a `HumanResponse` `{type: accept|edit|response|ignore, args}`.

A member waitgate cannot carry is refused by name (`MappingRefused`), never dropped; what is read
writes back equal. Decisions: approve → accept, edit → edit-accept, reject → reject; a call whose only
decision is respond is a clarification (a person answers on the tool's behalf).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Final

from waitgate.sdk.tool_approvals import MappingRefused, ToolCall, ToolVerdict, json_arguments

HITL_TO_WAITGATE: Final = {"approve": "accept", "edit": "edit-accept", "reject": "reject"}
RESPOND: Final = "respond"
INBOX_FLAGS: Final = ("allow_ignore", "allow_respond", "allow_edit", "allow_accept")
INBOX_TO_HITL: Final = {"allow_accept": "approve", "allow_edit": "edit", "allow_ignore": "reject"}


@dataclass(frozen=True)
class ToolReview:
    """One tool call under review and the decisions the framework allows on it (its own names)."""

    call: ToolCall
    allowed: tuple[str, ...]

    @property
    def answered_on_behalf(self) -> bool:
        """Only respond is allowed: a clarification, not an approval."""
        return self.allowed == (RESPOND,)

    @property
    def actions(self) -> tuple[str, ...]:
        """The waitgate actions of its approval (respond beside others is not offered: no action is it)."""
        return tuple(HITL_TO_WAITGATE[name] for name in self.allowed if name in HITL_TO_WAITGATE)


def _exact(
    value: Any, field: str, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise MappingRefused(field, "must be an object")
    if missing := sorted(required - set(value)):
        raise MappingRefused(f"{field}.{missing[0]}", "required")
    if unknown := sorted(set(value) - required - optional):
        raise MappingRefused(f"{field}.{unknown[0]}", "waitgate cannot carry this member")
    return value


def _allowed(decisions: Any, field: str) -> tuple[str, ...]:
    known = (*HITL_TO_WAITGATE, RESPOND)
    if not isinstance(decisions, Sequence) or isinstance(decisions, str) or not decisions:
        raise MappingRefused(field, "must be a non-empty list of decisions")
    for index, decision in enumerate(decisions):
        if decision not in known:
            raise MappingRefused(f"{field}[{index}]", f"{decision!r} is none of {', '.join(known)}")
    return tuple(decisions)


def read_hitl_request(value: Any, *, call_ids: Sequence[str]) -> list[ToolReview]:
    """A HITLRequest's reviews, in request order; `call_ids` names each (ActionRequest has no id)."""
    request = _exact(value, "HITLRequest", {"action_requests", "review_configs"})
    actions, configs = request["action_requests"], request["review_configs"]
    if not isinstance(actions, list) or not isinstance(configs, list) or len(actions) != len(configs):
        raise MappingRefused("review_configs", "one per action request")
    if len(call_ids) != len(actions):
        raise MappingRefused("action_requests", "one call id per action request")
    reviews = []
    for index, (action, config) in enumerate(zip(actions, configs, strict=True)):
        at = f"action_requests[{index}]"
        action = _exact(action, at, {"name", "args"}, {"description"})
        config = _exact(config, f"review_configs[{index}]", {"action_name", "allowed_decisions"})
        if config["action_name"] != action["name"]:
            raise MappingRefused(f"review_configs[{index}].action_name", f"is not {action['name']!r}")
        call = ToolCall(action["name"], json_arguments(action["args"], f"{at}.args"), call_ids[index])
        call = _described(call, action.get("description"), f"{at}.description")
        allowed = _allowed(config["allowed_decisions"], f"review_configs[{index}].allowed_decisions")
        reviews.append(ToolReview(call, allowed))
    return reviews


def write_hitl_request(reviews: Sequence[ToolReview]) -> dict[str, Any]:
    actions = []
    for review in reviews:
        action: dict[str, Any] = {"name": review.call.name, "args": dict(review.call.arguments)}
        if review.call.description is not None:
            action["description"] = review.call.description
        actions.append(action)
    configs = [
        {"action_name": review.call.name, "allowed_decisions": list(review.allowed)} for review in reviews
    ]
    return {"action_requests": actions, "review_configs": configs}


def read_tool_approval_request(value: Any, *, allowed: Sequence[str]) -> ToolReview:
    """A per_call ToolApprovalRequest; `allowed` comes from its interrupt's `response_schema`."""
    request = _exact(value, "ToolApprovalRequest", {"type", "tool_call_id", "name", "args", "description"})
    if request["type"] != "tool_approval":
        raise MappingRefused("ToolApprovalRequest.type", "must be 'tool_approval'")
    arguments = json_arguments(request["args"], "ToolApprovalRequest.args")
    call = ToolCall(request["name"], arguments, str(request["tool_call_id"]))
    call = _described(call, request["description"], "ToolApprovalRequest.description")
    return ToolReview(call, _allowed(list(allowed), "response_schema"))


def write_tool_approval_request(review: ToolReview) -> dict[str, Any]:
    call = review.call
    return {
        "type": "tool_approval",
        "tool_call_id": call.call_id,
        "name": call.name,
        "args": dict(call.arguments),
        "description": call.description or "",
    }


def allowed_in_schema(response_schema: Any) -> tuple[str, ...]:
    """The decision types a per_call interrupt's `response_schema` allows (its `type` constants)."""
    if not isinstance(response_schema, Mapping):
        raise MappingRefused("response_schema", "must be a JSON Schema object")
    found: list[str] = []
    _collect_types(response_schema, found, dict(response_schema.get("$defs", {})))
    return tuple(name for name in (*HITL_TO_WAITGATE, RESPOND) if name in found)


def _collect_types(schema: Any, found: list[str], definitions: dict[str, Any]) -> None:
    if isinstance(schema, Mapping):
        reference = schema.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/$defs/"):
            _collect_types(definitions.get(reference.removeprefix("#/$defs/")), found, definitions)
        type_member = schema.get("properties", {}).get("type") if "properties" in schema else None
        if isinstance(type_member, Mapping):
            for constant in (type_member.get("const"), *type_member.get("enum", ())):
                if isinstance(constant, str):
                    found.append(constant)
        for member in ("anyOf", "oneOf"):
            for option in schema.get(member, ()):
                _collect_types(option, found, definitions)
    elif isinstance(schema, list):
        for option in schema:
            _collect_types(option, found, definitions)


def read_human_interrupt(value: Any, *, call_id: str) -> ToolReview:
    """Agent Inbox's HumanInterrupt: allow_accept → approve, allow_edit → edit, allow_ignore → reject
    (ignore: the call is not run), allow_respond → respond."""
    interrupt = _exact(value, "HumanInterrupt", {"action_request", "config", "description"})
    action = _exact(interrupt["action_request"], "HumanInterrupt.action_request", {"action", "args"})
    config = _exact(interrupt["config"], "HumanInterrupt.config", set(INBOX_FLAGS))
    allowed = [INBOX_TO_HITL[flag] for flag in INBOX_TO_HITL if config[flag] is True]
    allowed += [RESPOND] if config["allow_respond"] is True else []
    arguments = json_arguments(action["args"], "HumanInterrupt.action_request.args")
    call = ToolCall(action["action"], arguments, call_id)
    call = _described(call, interrupt["description"], "HumanInterrupt.description")
    return ToolReview(call, _allowed(allowed, "HumanInterrupt.config"))


def write_human_interrupt(review: ToolReview) -> dict[str, Any]:
    flags = {flag: INBOX_TO_HITL.get(flag, RESPOND) in review.allowed for flag in INBOX_FLAGS}
    return {
        "action_request": {"action": review.call.name, "args": dict(review.call.arguments)},
        "config": flags,
        "description": review.call.description,
    }


def _described(call: ToolCall, description: Any, field: str) -> ToolCall:
    if description is not None and not isinstance(description, str):
        raise MappingRefused(field, "must be a string")
    return ToolCall(call.name, call.arguments, call.call_id, description)


def hitl_decision(review: ToolReview, verdict: ToolVerdict) -> dict[str, Any]:
    """The HITL Decision a verdict is, refused when the call does not allow it."""
    if verdict.answer is not None:
        return _allowed_decision(review, {"type": RESPOND, "message": verdict.answer})
    if not verdict.approved:
        rejected: dict[str, Any] = {"type": "reject"}
        return _allowed_decision(review, rejected | ({"message": verdict.message} if verdict.message else {}))
    if verdict.edited:
        edited = {"name": review.call.name, "args": verdict.arguments}
        return _allowed_decision(review, {"type": "edit", "edited_action": edited})
    return _allowed_decision(review, {"type": "approve"})


def _allowed_decision(review: ToolReview, decision: dict[str, Any]) -> dict[str, Any]:
    if decision["type"] not in review.allowed:
        raise MappingRefused("type", f"{decision['type']!r} is not allowed for {review.call.name!r}")
    return decision


def read_hitl_decision(decision: Any, review: ToolReview) -> ToolVerdict:
    """A HITL Decision as the verdict it is (the inverse of `hitl_decision`)."""
    kind = decision.get("type") if isinstance(decision, Mapping) else None
    members = {"approve": set(), "edit": {"edited_action"}, "reject": set(), "respond": {"message"}}
    if kind not in members:
        raise MappingRefused("type", "must be approve, edit, reject or respond")
    optional = {"message"} if kind == "reject" else set()
    _exact(decision, "decision", {"type"} | members[kind], optional)
    if kind == "edit":
        edited = _exact(decision["edited_action"], "decision.edited_action", {"name", "args"})
        if edited["name"] != review.call.name:
            raise MappingRefused("decision.edited_action.name", "waitgate edits arguments, not the tool")
        return ToolVerdict(True, json_arguments(edited["args"], "decision.edited_action.args"), True)
    if kind == "respond":
        return ToolVerdict(False, answer=str(decision["message"]))
    if kind == "reject":
        return ToolVerdict(False, message=decision.get("message"))
    return ToolVerdict(True, dict(review.call.arguments))


def human_response(review: ToolReview, verdict: ToolVerdict) -> dict[str, Any]:
    """Agent Inbox's HumanResponse of a verdict: accept, edit (with the edited action), response (an
    answer, or a rejection's comment when the call allows respond) or ignore."""
    if verdict.answer is not None:
        return {"type": "response", "args": verdict.answer}
    if not verdict.approved:
        if verdict.message and RESPOND in review.allowed:
            return {"type": "response", "args": verdict.message}
        return {"type": "ignore", "args": None}
    if verdict.edited:
        return {"type": "edit", "args": {"action": review.call.name, "args": verdict.arguments}}
    return {"type": "accept", "args": None}
