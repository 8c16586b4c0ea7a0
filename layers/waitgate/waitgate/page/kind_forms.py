"""The forms of every kind but approval, each from the schema that says what to ask, and the resume
value each produces (docs/human-page.md has the table):

- clarification: a field per question from its `schema` (free text without one) →
  `{answers: {<id>: value}}`.
- low-confidence, without `resumeSchema`: "Confirm the agent's decision" →
  `{confirmed: true, decision: <the agent's decision without agentId and confidence>}`; "Decide
  otherwise" (the same fields, to change) → `{confirmed: false, decision: <as changed>}`; an optional
  comment → `comment`. With `resumeSchema`: confirm sends the agent's decision as it is (offered
  only when it meets the schema), and deciding otherwise is a form from the schema.
- external-event, custom: a form from `resumeSchema`, else a JSON editor → the value itself.
- conversation.exchange: a form from `outcomeSchema` (else `resumeSchema`), else a reply box →
  `{reply: <text>}`.
- conversation.start: a form from `resumeSchema`, else "Join the conversation" → `{joined: true}`;
  conversation.close: likewise, else "Close the conversation" and an optional summary →
  `{closed: true, summary?}`.
Pure.
"""

from __future__ import annotations

from typing import Any

from waitgate.page.decision_form import Action, Answers, PageForm
from waitgate.page.schema_answers import ABSENT
from waitgate.page.schema_fields import (
    FIELD_BUDGET,
    NO_DEFAULT,
    Field,
    escape_key,
    json_field,
    plan_schema,
)
from waitgate.page.value_schema import schema_of_value
from waitgate.payloads.schema_cache import validator_for
from waitgate.run.size_limits import MAX_RESUME_VALUE_BYTES

SUBMIT = "submit"  # the value of the one button of a form that only answers
ROOT, ROOT_PATH = "resumeValue", "resumeValue"
AGENT_FIELDS = ("agentId", "confidence")  # what describes the agent's call, not the decision
DECISION_PATH = "resumeValue.decision"
CONFIRM = Action("confirm", "Confirm the agent's decision", "primary")
REVIEW_COMMENT = Field(
    name="comment",
    path="resumeValue.comment",
    label="Comment",
    control="textarea",
    hint="Why you decided so.",
    trim=True,
)


def kind_form(payload: dict[str, Any]) -> PageForm:
    data = payload.get("data")
    data = data if isinstance(data, dict) else {}
    kind = payload.get("kind")
    schema = payload.get("resumeSchema")
    if kind == "clarification":
        return clarification_form(data)
    if kind == "low-confidence":
        return low_confidence_form(data, schema)
    if kind == "conversation.exchange":
        outcome = data.get("outcomeSchema", schema)
        if isinstance(outcome, dict):
            return _answer_form(_root(outcome, "Your reply"), "Send the reply")
        return _reply_form()
    if isinstance(schema, dict):
        label = {"external-event": "The event"}.get(str(kind), "Your answer")
        return _answer_form(_root(schema, label), "Send")
    if kind == "conversation.start":
        return PageForm((Action(SUBMIT, "Join the conversation", "primary"),), lambda *_: {"joined": True})
    if kind == "conversation.close":
        return _close_form()
    if kind == "external-event":
        label, hint = "The event, as its source would report it", ""
    else:  # no schema says what the answer holds: say what the box takes, not "Your answer" again
        label = "Your answer, as JSON"
        hint = 'Any JSON value the workflow expects, for example {"approved": true, "note": "…"}.'
    box = json_field(ROOT, ROOT_PATH, label, max_bytes=MAX_RESUME_VALUE_BYTES, hint=hint)
    return _answer_form(box, "Send")


def _root(schema: dict[str, Any], label: str, default: Any = NO_DEFAULT) -> Field:
    return plan_schema(schema, name=ROOT, path=ROOT_PATH, label=label, default=default)


def _answer_form(root: Field, label: str) -> PageForm:
    return PageForm((Action(SUBMIT, label, "primary"),), lambda _, answers, __: answers.value(root), (root,))


def _reply_form() -> PageForm:
    reply = Field(
        name="reply",
        path="resumeValue.reply",
        label="Your reply",
        control="textarea",
        schema={"type": "string", "minLength": 1},
        required=True,
        trim=True,
        empty_message="Write your reply before you send it.",
    )
    return PageForm(
        (Action(SUBMIT, "Send the reply", "primary"),),
        lambda _, answers, __: {"reply": answers.value(reply)},
        (reply,),
    )


def _close_form() -> PageForm:
    summary = Field(
        name="summary",
        path="resumeValue.summary",
        label="Summary",
        control="textarea",
        hint="What the conversation settled.",
        trim=True,
    )

    def build(_: str, answers: Answers, __: str) -> dict[str, Any]:
        resume: dict[str, Any] = {"closed": True}
        text = answers.value(summary)
        if text is not ABSENT and text:
            resume["summary"] = text
        return resume

    return PageForm((Action(SUBMIT, "Close the conversation", "primary"),), build, (summary,))


def clarification_form(data: dict[str, Any]) -> PageForm:
    questions = [q for q in data.get("questions", []) if isinstance(q, dict) and isinstance(q.get("id"), str)]
    budget = max(1, FIELD_BUDGET // max(1, len(questions)))
    fields = tuple(
        plan_schema(
            question["schema"] if isinstance(question.get("schema"), dict) else {"type": "string"},
            name=f"answers.{escape_key(question['id'])}",
            path=f"resumeValue.answers.{question['id']}",
            label=str(question.get("question", question["id"])),
            budget=budget,
        )
        for question in questions
    )
    ids = [str(question["id"]) for question in questions]

    def build(_: str, answers: Answers, __: str) -> dict[str, Any]:
        return {"answers": {qid: answers.value(target) for qid, target in zip(ids, fields, strict=True)}}

    return PageForm((Action(SUBMIT, "Send answers", "primary"),), build, fields)


def agent_proposal(data: dict[str, Any]) -> Any:
    """What the agent decided, without what describes its call (agentId, confidence)."""
    decision = data.get("decision")
    if isinstance(decision, dict):
        return {key: value for key, value in decision.items() if key not in AGENT_FIELDS}
    return decision


def low_confidence_form(data: dict[str, Any], schema: Any) -> PageForm:
    if isinstance(schema, dict):
        return _low_confidence_in_schema(data.get("decision"), schema)
    proposal = agent_proposal(data)
    if isinstance(proposal, dict) and proposal:
        changed = plan_schema(
            schema_of_value(proposal),
            name="decision",
            path=DECISION_PATH,
            label="Your decision",
            default=proposal,
        )
    else:
        changed = json_field("decision", DECISION_PATH, "Your decision")

    def build(action: str, answers: Answers, _: str) -> dict[str, Any]:
        resume: dict[str, Any] = {"confirmed": action == "confirm"}
        decision = proposal if action == "confirm" else answers.value(changed)
        if decision is not None:
            resume["decision"] = decision
        text = answers.value(REVIEW_COMMENT)
        if text is not ABSENT and text:
            resume["comment"] = text
        return resume

    intro = "Change what the agent decided; the run goes on with your decision."
    otherwise = Action("otherwise", "Send my decision", "", (changed,), "Decide otherwise", intro, False)
    return PageForm((CONFIRM, otherwise), build, (REVIEW_COMMENT,))


def _low_confidence_in_schema(decision: Any, schema: dict[str, Any]) -> PageForm:
    """With a resumeSchema: the agent's decision as it is, or a value of the schema."""
    own = _root(schema, "Your decision", decision if isinstance(decision, dict) else NO_DEFAULT)
    actions = [Action("otherwise", "Send my decision", "", (own,), "Decide otherwise", "", False)]
    if decision is not None and validator_for(schema).is_valid(decision):
        actions.insert(0, CONFIRM)

    def build(action: str, answers: Answers, _: str) -> Any:
        return decision if action == "confirm" else answers.value(own)

    return PageForm(tuple(actions), build)
