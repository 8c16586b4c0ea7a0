"""An approval's form: the interrupt's own actions and only those, each with what it needs.

- accept, reject: a button each; the comment (optional, at most 4 KB) goes with any vote.
- refine: what should change (the whole artifact, one section, some items — the artifact's item ids
  as checkboxes when it has any), which section or items, and the changes requested (required).
- edit-accept: the artifact in an editor filled with it (a form of its fields, or JSON for what a
  form cannot hold); the edited artifact as left is `editedArtifactData`.
- ask: a required question; it is the ask's `feedback`.

The resume value: `{action, decidedAt, feedback?, refineFeedback?, editedArtifactData?}` (the
server adds `decidedBy`, the link's recipient). Pure.
"""

from __future__ import annotations

from typing import Any

from waitgate.page.approval_view import rejections_needed, required_approvals
from waitgate.page.decision_form import Action, Answers, PageForm
from waitgate.page.schema_answers import ABSENT, refused
from waitgate.page.schema_fields import Field, json_field, plan_schema
from waitgate.page.value_schema import schema_of_value
from waitgate.run.size_limits import MAX_COMMENT_BYTES, vote_share

ACTION_LABELS = {
    "accept": "Accept",
    "reject": "Reject",
    "refine": "Request changes",
    "edit-accept": "Accept with edits",
    "ask": "Ask a question",
}
MAX_ITEM_CHOICES = 20
_TEXT = {"type": "string", "minLength": 1}

COMMENT = Field(
    name="feedback",
    path="resumeValue.feedback",
    label="Comment",
    control="textarea",
    hint="Sent with your decision.",
    max_bytes=MAX_COMMENT_BYTES,
    trim=True,
)
QUESTION = Field(
    name="question",
    path="resumeValue.feedback",
    label="Your question",
    control="textarea",
    schema=_TEXT,
    required=True,
    max_bytes=MAX_COMMENT_BYTES,
    trim=True,
    empty_message="Write your question before you send it.",
)
SCOPE = Field(
    name="scope",
    path="resumeValue.refineFeedback.scope",
    label="What should change",
    control="radios",
    required=True,
    default="whole",
    choices=("whole", "section", "items"),
    choice_labels=("The whole artifact", "One section", "Some items"),
)
CHANGES = Field(
    name="text",
    path="resumeValue.refineFeedback.text",
    label="Changes requested",
    control="textarea",
    schema=_TEXT,
    required=True,
    trim=True,
    empty_message="Say what should change before requesting changes.",
)


def approval_form(data: dict[str, Any]) -> PageForm:
    allowed = [action for action in data.get("actions", []) if action in ACTION_LABELS]
    artifact = data.get("artifact")
    section, items, edited = _section_field(artifact), _items_field(artifact), _edit_field(artifact)
    share = vote_share(required_approvals(data), rejections_needed(data)) // 1024
    offered = _offered_actions(section, items, edited, share)

    def build(action: str, answers: Answers, decided_at: str) -> dict[str, Any]:
        resume: dict[str, Any] = {"action": action, "decidedAt": decided_at}
        if action == "ask":
            return {**resume, "feedback": answers.value(QUESTION)}
        comment = answers.value(COMMENT)
        if comment is not ABSENT and comment:
            resume["feedback"] = comment
        if action == "refine":
            resume["refineFeedback"] = _refine_feedback(answers, section, items)
        if action == "edit-accept":
            resume["editedArtifactData"] = answers.value(edited)
        return resume

    votes = tuple(action for action in allowed if action != "ask")  # the comment goes with a vote
    return PageForm(tuple(offered[action] for action in allowed), build, (COMMENT,) if votes else (), votes)


def _offered_actions(section: Field, items: Field, edited: Field, share_kb: int) -> dict[str, Action]:
    """Each action an approval may offer, with the fields it opens (an edit may use `share_kb`)."""
    return {
        "accept": Action("accept", "Accept", "primary"),
        "reject": Action("reject", "Reject", "danger"),
        "refine": Action(
            "refine",
            "Request changes",
            "",
            (SCOPE, section, items, CHANGES),
            "Request changes",
            "The artifact goes back for revision; this decides the request.",
            True,
        ),
        "edit-accept": Action(
            "edit-accept",
            "Accept with edits",
            "",
            (edited,),
            "Accept with edits",
            f"Change the artifact below; it is accepted as you leave it (at most {share_kb} KB of it).",
            True,
        ),
        "ask": Action(
            "ask",
            "Send the question",
            "",
            (QUESTION,),
            "Ask a question",
            "A question is not a vote: the request stays open, and you can still decide.",
            True,
        ),
    }


def _refine_feedback(answers: Answers, section: Field, items: Field) -> dict[str, Any]:
    refine: dict[str, Any] = {"scope": answers.value(SCOPE), "text": answers.value(CHANGES)}
    if refine["scope"] == "section":
        chosen = answers.value(section)
        if chosen is ABSENT or not chosen.strip():
            raise refused("Name the section to change.", section)
        refine["sectionPath"] = chosen.strip()
    if refine["scope"] == "items":
        chosen = answers.value(items)
        if items.control == "text":
            chosen = [] if chosen is ABSENT else [item.strip() for item in chosen.split(",") if item.strip()]
        if chosen is ABSENT or not chosen:
            raise refused(
                "Choose the items to change."
                if items.control == "checkboxes"
                else "List the item ids to change.",
                items,
            )
        refine["itemIds"] = chosen
    return refine


def section_names(artifact: Any) -> list[str]:
    return [str(key) for key in artifact][:MAX_ITEM_CHOICES] if isinstance(artifact, dict) else []


def item_ids(artifact: Any) -> list[str]:
    """The ids of the artifact's items: of a list of objects with a string `id`, the artifact's own
    or the first among its members."""
    lists = [artifact] if isinstance(artifact, list) else []
    if isinstance(artifact, dict):
        lists += [member for member in artifact.values() if isinstance(member, list)]
    for candidates in lists:
        if candidates and all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in candidates):
            ids = list(dict.fromkeys(str(item["id"]) for item in candidates))
            return ids if len(ids) <= MAX_ITEM_CHOICES else []
    return []


def _section_field(artifact: Any) -> Field:
    names = section_names(artifact)
    hint = "When one section: its path." + (f" The artifact's sections: {', '.join(names)}." if names else "")
    return Field(
        name="sectionPath",
        path="resumeValue.refineFeedback.sectionPath",
        label="Which section",
        control="text",
        hint=hint,
        trim=True,
    )


def _items_field(artifact: Any) -> Field:
    path = "resumeValue.refineFeedback.itemIds"
    ids = item_ids(artifact)
    if ids:
        return Field(
            name="itemIds",
            path=path,
            label="Which items",
            control="checkboxes",
            choices=tuple(ids),
            hint="When some items.",
        )
    return Field(
        name="itemIds",
        path=path,
        label="Which items",
        control="text",
        hint="When some items: their ids, separated by commas.",
        trim=True,
    )


def _edit_field(artifact: Any) -> Field:
    name, path, label = (
        "editedArtifactData",
        "resumeValue.editedArtifactData",
        "The artifact as you accept it",
    )
    if artifact is None:
        return json_field(name, path, label)
    return plan_schema(schema_of_value(artifact), name=name, path=path, label=label, default=artifact)
