"""`Notify`: who is asked, beside the payload of any kind — in the generic workflow's input, in a
Task state — checked as the host checks it."""

from __future__ import annotations

import pytest

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.sdk import Clarification, Custom, Notify, Question, interrupt_task_state

FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:waitgate-RequestInterrupt"
ASK = Clarification(
    "region", questions=[Question("region", "Which region?")], notify=Notify(["alice"], group_refs=["ops"])
)


def test_a_builders_notify_goes_beside_its_payload_never_inside() -> None:
    assert ASK.task_input() == {
        "interrupt": ASK.to_payload(),
        "notify": {"principals": ["alice"], "groupRefs": ["ops"]},
    }
    assert "notify" not in ASK.to_payload()
    assert Custom("x", custom_kind="acme.x").task_input() == {
        "interrupt": Custom("x", custom_kind="acme.x").to_payload()
    }


def test_a_task_state_carries_the_builders_notify_or_the_given_one_or_a_path() -> None:
    assert interrupt_task_state(ASK, function_arn=FUNCTION)["Parameters"]["Payload"]["notify"] == {
        "principals": ["alice"],
        "groupRefs": ["ops"],
    }
    given = interrupt_task_state(ASK, function_arn=FUNCTION, notify={"roleRefs": ["sre"]})
    assert given["Parameters"]["Payload"]["notify"] == {"roleRefs": ["sre"]}
    by_path = interrupt_task_state(None, function_arn=FUNCTION, payload_path="$.interrupt", notify_path="$.n")
    assert by_path["Parameters"]["Payload"]["notify.$"] == "$.n"
    with pytest.raises(ValueError, match="notify_path"):
        interrupt_task_state(ASK, function_arn=FUNCTION, notify=Notify(["a"]), notify_path="$.n")


@pytest.mark.parametrize("notify", [Notify(), {"principals": ["a", "a"]}, {"people": ["a"]}])
def test_a_notify_the_host_would_refuse_is_refused_at_once(notify: object) -> None:
    with pytest.raises(InterruptPayloadInvalidError):
        Custom("x", custom_kind="acme.x", notify=notify).task_input()  # type: ignore[arg-type]
