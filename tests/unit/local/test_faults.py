"""The local stack's fault injection (local/patches/faults.py): the grammar, the windows, the switch
file of the state directory, the fault log, and the botocore hook (an injected answer, a kill)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from local.patches import invocation_logs
from local.patches.fault_log import FaultLog
from local.patches.faults import Fault, FaultPlan, HandlerKilled, parse_faults


class Dice:
    """Rolls what it is given, in turn (then 0.0: every fault with a share strikes)."""

    def __init__(self, *rolls: float) -> None:
        self.rolls = list(rolls)

    def random(self) -> float:
        return self.rolls.pop(0) if self.rolls else 0.0


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_first_syntax_still_reads_as_it_did() -> None:
    assert parse_faults("send_task_success:0.2, sfn.send_task_failure:0.5") == [
        Fault("sfn.SendTaskSuccess", 0.2),
        Fault("sfn.SendTaskFailure", 0.5),
    ]
    assert parse_faults("") == []


def test_windows_answers_and_the_local_hops() -> None:
    assert parse_faults("send_task_success:1@60s") == [Fault("sfn.SendTaskSuccess", 1.0, 0.0, 60.0)]
    assert parse_faults("send_task_success:1@10s-70.5s=InvalidOutput") == [
        Fault("sfn.SendTaskSuccess", 1.0, 10.0, 70.5, "InvalidOutput")
    ]
    hops = parse_faults(
        "stream_record:0.03,schedule:0.03,kill_after_commit:0.03,notice:0.03,end_event:0.03,sns.publish:1"
    )
    assert [fault.hop for fault in hops] == [
        "stream_record",
        "schedule",
        "kill_after_commit",
        "notice",
        "end_event",
        "sns.Publish",
    ]


@pytest.mark.parametrize(
    "text", ["send_task_success", "send_task_success:2", ":0.1", "stream_record:0.1@soon", "x:0.1@5s-"]
)
def test_a_malformed_entry_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match="WAITGATE_FAULTS"):
        parse_faults(text)


def test_a_window_strikes_only_within_it() -> None:
    clock = Clock()
    plan = FaultPlan(parse_faults("schedule:1@5s-10s"), dice=Dice(), clock=clock)
    struck = []
    for elapsed in (0, 4.9, 5, 9.9, 10, 60):
        clock.now = 100.0 + elapsed
        struck.append(plan.strikes("schedule") is not None)
    assert struck == [False, False, True, True, False, False]


def test_a_share_strikes_when_the_dice_say_so() -> None:
    plan = FaultPlan(parse_faults("stream_record:0.25"), dice=Dice(0.1, 0.3, 0.24, 0.9))
    assert [plan.strikes("stream_record") is not None for _ in range(4)] == [True, False, True, False]
    assert plan.strikes("schedule") is None


def test_the_switch_file_replaces_the_variables_faults_while_it_exists(tmp_path: Path) -> None:
    # Given a plan from the variable, with the state directory's switch file absent
    clock, switch = Clock(), tmp_path / "faults"
    plan = FaultPlan(parse_faults("schedule:1"), switch=switch, dice=Dice(), clock=clock)
    assert plan.strikes("schedule") is not None and plan.strikes("stream_record") is None
    # When the file says otherwise, its faults are the plan's, their window counting from then
    clock.now = 500.0
    switch.write_text("stream_record:1@2s\n", encoding="utf-8")
    assert plan.strikes("schedule") is None and plan.strikes("stream_record") is not None
    clock.now = 502.0
    assert plan.strikes("stream_record") is None
    # And a file that does not parse changes nothing; an empty one means no faults
    switch.write_text("stream_record:7", encoding="utf-8")
    assert [fault.hop for fault in plan.faults()] == ["stream_record"]
    switch.write_text("", encoding="utf-8")
    assert plan.faults() == []
    # And once it is removed, the variable's are back
    switch.unlink()
    assert [fault.hop for fault in plan.faults()] == ["schedule"]


def test_each_fault_that_strikes_is_a_line_of_the_fault_log(tmp_path: Path) -> None:
    log = FaultLog(tmp_path / "faults.jsonl")
    plan = FaultPlan(parse_faults("stream_record:1,notice:1,end_event:1"), log=log, dice=Dice())
    plan.strikes("stream_record", runId="r1", sk="NODE#Interrupt")
    plan.strikes_call("sns.Publish", runId="r2", function=None)
    plan.strikes("end_event", execution="r3", status="ABORTED")
    entries = log.entries()
    assert [(e["hop"], e["answer"], e.get("runId")) for e in entries] == [
        ("stream_record", "dropped", "r1"),
        ("notice", "ThrottlingException", "r2"),
        ("end_event", "dropped", None),
    ]
    assert (entries[2]["execution"], entries[2]["status"]) == ("r3", "ABORTED")
    assert entries[1]["operation"] == "sns.Publish" and "function" not in entries[1]
    assert all(entry["at"].endswith("Z") for entry in entries)


def sfn_client(plan: FaultPlan) -> Any:
    client = boto3.client(
        "stepfunctions",
        region_name="us-east-1",
        endpoint_url="http://127.0.0.1:9",  # nothing listens: a call that got past the hook would fail
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    client.meta.events.register("before-call", plan.before_call)
    return client


def test_an_aws_call_gets_the_injected_answer_before_it_is_sent() -> None:
    plan = FaultPlan(parse_faults("send_task_success:1=InvalidOutput"), dice=Dice())
    with pytest.raises(ClientError) as raised:
        sfn_client(plan).send_task_success(taskToken="t" * 20, output=json.dumps({"ok": True}))
    assert raised.value.response["Error"]["Code"] == "InvalidOutput"


def test_a_kill_strikes_a_resolver_after_its_commit_but_not_the_outbox(tmp_path: Path) -> None:
    log = FaultLog(tmp_path / "faults.jsonl")
    plan = FaultPlan(parse_faults("kill_after_commit:1"), log=log, dice=Dice())
    plan.spared = frozenset({"waitgate-local-StreamDispatchFunction"})
    client = sfn_client(plan)
    request = {"pathParameters": {"runId": "r-5", "nodeId": "Interrupt"}}
    resolver = invocation_logs.invocation({"function_name": "waitgate-local-ResolveByRunFunction"}, request)
    with resolver, pytest.raises(HandlerKilled):
        client.send_task_success(taskToken="t" * 20, output="{}")
    outbox = invocation_logs.invocation({"function_name": "waitgate-local-StreamDispatchFunction"})
    with outbox, pytest.raises(Exception) as spared:  # not killed: the call was sent (and found nobody)
        client.send_task_success(taskToken="t" * 20, output="{}")
    assert not isinstance(spared.value, HandlerKilled)
    assert [(e["hop"], e["function"], e["runId"]) for e in log.entries()] == [
        ("kill_after_commit", "waitgate-local-ResolveByRunFunction", "r-5")
    ]


@pytest.mark.parametrize(
    ("event", "run"),
    [
        ({"pathParameters": {"runId": "r-7", "nodeId": "Interrupt"}}, "r-7"),
        ({"tenantId": "default", "runId": "r-8", "interruptId": "i"}, "r-8"),
        (
            {"Records": [{"dynamodb": {"Keys": {"pk": {"S": "RUN#default#r-9"}, "sk": {"S": "NODE#A"}}}}]},
            "r-9",
        ),
        (
            {
                "Records": [
                    {"dynamodb": {"Keys": {"pk": {"S": "RUN#default#r-1"}}}},
                    {"dynamodb": {"Keys": {"pk": {"S": "RUN#default#r-2"}}}},
                ]
            },
            None,
        ),
        ({"pathParameters": {"token": "secret"}}, None),
        ("not a dict", None),
    ],
)
def test_the_run_an_invocation_is_about_names_the_faults_it_meets(event: Any, run: str | None) -> None:
    assert invocation_logs.run_of_event(event) == run
    with invocation_logs.invocation({"function_name": "f"}, event):
        assert invocation_logs.current_run() == run
    assert invocation_logs.current_run() is None
