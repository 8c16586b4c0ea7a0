"""State data stays bounded however large the answers: Step Functions fails a run whose state outgrows
256 KiB with States.DataLimitExceeded, which no Catch can take. So a sample keeps in its state only what
its next step needs (ResultSelector, ResultPath, OutputPath); every answer itself stays in the run's
events. Each sample runs on moto with answers near the resume-value budget and its history is measured
(moto, like Step Functions, fails a run whose state data passes 256 KiB: the samples as they were did).
"""

from __future__ import annotations

from typing import Any

from tests.integration.sample_machines import SampleOnMoto, utf8_size
from waitgate.run.size_limits import KB, MAX_RESUME_VALUE_BYTES

STATE_DATA_LIMIT = 256 * KB  # Step Functions: a state's input or output, bytes of UTF-8
OVERHEAD = 4 * KB  # the tenant, the ids, JSON's own punctuation


def large(member: str, **more: Any) -> dict[str, Any]:
    """An answer near the resume-value budget (64 KB). ASCII: moto measures state data as JSON with
    every non-ASCII character escaped (six bytes for a Cyrillic letter, where AWS counts two)."""
    return {**more, member: "x" * (MAX_RESUME_VALUE_BYTES - 2 * KB)}


def largest_state(sample: SampleOnMoto, execution_arn: str) -> int:
    return max(utf8_size(text) for _, text in sample.state_data(execution_arn))


def test_the_conversation_keeps_only_the_plan_not_four_answers(aws: None) -> None:
    # Given the conversation sample, each of its four turns answered near the budget
    sample = SampleOnMoto.create("conversation.asl.json")
    services = [f"service-{i:02d}-" + "s" * 89 for i in range(20)]  # its outcomeSchema's largest
    answers = {
        "Start": large("note", joined=["alice"]),
        "AskScope": large("notes", services=services),
        "AskWindow": large("why", window="w" * 200),
        "Close": large("summary"),
    }
    # When it runs to its end
    done = sample.run({"conversationId": "conv-large"}, lambda task: answers[task["stateName"]])
    # Then it succeeded with the plan
    assert done["status"] == "SUCCEEDED", done
    assert _json(done["output"]) == {"services": services, "window": "w" * 200}
    # And no state ever held more than the input, the plan and some overhead: not one whole answer
    plan = utf8_size(done["output"])
    assert largest_state(sample, done["executionArn"]) <= plan + OVERHEAD
    assert sum(utf8_size(_text(a)) for a in answers.values()) > 60 * plan  # (the answers were large)


def test_the_reentry_sample_holds_one_answer_at_most(aws: None) -> None:
    # Given the re-entry sample with an interrupt and an answer near their budgets
    sample = SampleOnMoto.create("reentry.asl.json")
    interrupt = {"kind": "custom", "key": "k", "data": {"customKind": "acme.big", "payload": large("text")}}
    answer = large("label")
    # When both asks are answered with it (the second is the re-entry's replay of the first)
    done = sample.run({"interrupt": interrupt}, lambda task: answer)
    # Then the output is the answer, and no state held it twice
    assert done["status"] == "SUCCEEDED", done
    assert _json(done["output"]) == answer
    one_answer = utf8_size(done["output"])
    input_size = utf8_size(_text({"tenantId": "default", "interrupt": interrupt}))
    assert largest_state(sample, done["executionArn"]) <= input_size + one_answer + OVERHEAD
    assert largest_state(sample, done["executionArn"]) < STATE_DATA_LIMIT


def test_the_low_confidence_sample_never_holds_the_decision_twice_beside_the_review(aws: None) -> None:
    # Given a large agent decision, escalated, and a large review
    sample = SampleOnMoto.create("low-confidence.asl.json")
    decision = large("reasoning", agentId="triage-agent", confidence=0.2)
    review = large("feedback", action="accept", decidedAt="2026-12-01T10:00:00Z")

    def answer(task: dict[str, Any]) -> Any:
        if task["stateName"] == "RecordDecision":  # record_decision's answer, as Lambda wraps it
            data = {
                "agentId": "triage-agent",
                "threshold": 0.7,
                "observed": 0.2,
                "decision": task["decision"],
            }
            return {
                "Payload": {
                    "escalate": True,
                    "interrupt": {"kind": "low-confidence", "key": "k", "data": data},
                }
            }
        return review

    # When it runs to its end
    done = sample.run({"decision": decision}, answer)
    # Then its output is as before: the decision and the review
    assert done["status"] == "SUCCEEDED", done
    assert _json(done["output"]) == {"escalated": True, "decision": decision, "review": review}
    # And no state held more than one decision, the review and some overhead
    bound = utf8_size(_text(decision)) + utf8_size(_text(review)) + OVERHEAD
    assert largest_state(sample, done["executionArn"]) <= bound


def _json(text: str) -> Any:
    import json

    return json.loads(text)


def _text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)
