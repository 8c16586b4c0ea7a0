"""What the clicker alone is told (an ephemeral message) when a click did not simply decide.

A decision needs no reply: every message of the interrupt is updated to say it. A vote that does not
decide yet, a click by someone who is not an approver, a click that lost a race or came after the
deadline: each is explained, and nothing was resolved by it.
"""

from __future__ import annotations

from waitgate.errors import WaitgateError
from waitgate.run.answers import Answer

NOT_LINKED = (
    "Your Slack account is not linked to a waitgate principal in this tenant, so this click could not "
    "be recorded. Ask an operator to run `waitgate directory set-contact --principal <you> "
    "--slack-user <your member id>`."
)
VOTE_RECORDED = (
    "Your vote is recorded. The request waits for more approvals; its message will say when it is decided."
)
OTHER_WORKSPACE = "This button belongs to another Slack workspace's request; nothing was recorded."
NOT_OUR_MESSAGE = "This button is not on a message waitgate sent for this request; nothing was recorded."
NOTHING_TO_DECIDE = "This button does not decide anything; nothing was recorded."
_BY_CODE = {
    "already_voted": "You have already voted on this request; your first vote stands.",
    "interrupt_already_resolved": "This request was already decided; your click changed nothing.",
    "interrupt_expired": "This request is no longer open (its deadline passed or its run ended); "
    "nothing was recorded.",
    "forbidden": "You are not among the approvers of this request; nothing was recorded.",
    "self_approval_refused": "You asked for this approval, so someone else must decide it; "
    "nothing was recorded.",
    "not_found": "This request no longer exists; nothing was recorded.",
    "unavailable": "waitgate is busy right now; nothing was recorded. Press the button again in a moment.",
    "outcome_unknown": "waitgate could not confirm that your click was recorded. In a moment the message "
    "says so if it decided the request; if it still asks, press the button again.",
}


def reply_to(answer: Answer) -> str | None:
    """None for a decision (the message update says it); the explanation otherwise."""
    if answer.status == 200:
        return None
    if answer.status == 202:
        return VOTE_RECORDED
    return _by_code(answer.problem.code if answer.problem is not None else "", answer.status)


def refusal_reply(error: WaitgateError) -> str:
    if error.code == "validation_error":
        return f"This click could not be recorded: {error.detail}"
    return _by_code(error.code, error.status)


def _by_code(code: str, status: int) -> str:
    if code in _BY_CODE:
        return _BY_CODE[code]
    if status >= 500:
        return _BY_CODE["unavailable"]
    return "This click could not be recorded; nothing was resolved."
