"""Fault injection for the local stack (off by default): a share of an AWS call, or of a hop the local
stack stands in for, fails as it could on AWS — so a test or a soak sees every hop's loss healed
(docs/durability.md, "The invariant: nothing hangs").

The grammar (`WAITGATE_FAULTS`, or the file `faults` in the state directory), entries comma-separated:

    entry  = hop ":" share [ "@" window ] [ "=" answer ]
    hop    = [service "."] operation   an AWS call, boto3's snake_case name; the service is botocore's
                                       event name (sfn, sns, lambda, sesv2, dynamodb), sfn by default
           | "stream_record"           a DynamoDB stream record never reaches its consumer (the mapping
                                       gave up on it): local.patches.stream_dispatch drops it
           | "schedule"                a due one-time schedule's invocation is lost (Scheduler spent its
                                       retries): local.standins.schedule_pump deletes it unfired
           | "kill_after_commit"       a handler dies after its commit, before its delivery: the
                                       SendTaskSuccess/Failure (or durable callback) of a resolver, the
                                       expiry, a webhook's match... raises HandlerKilled, which nothing
                                       in the handler catches; the local Lambda answers Runtime.ExitError
                                       (not the outbox, the reconciler or request_interrupt: their own
                                       hops)
           | "notice"                  a notice is lost: the SNS Publish fails
           | "end_event"               a run's end event is lost: an execution's (or a durable
                                       execution's) status change never reaches the run lifecycle
                                       (EventBridge gave up): local.standins.execution_events and
                                       durable_events drop it
    share  = a number from 0 to 1: the share of the hop's calls (or records) that fail
    window = N "s"                     only in the first N seconds after the faults were switched on
           | A "s-" B "s"              only from A to B seconds after it
    answer = the error code AWS answers (AWS calls and notice; default ThrottlingException):
             InvalidOutput, TaskTimedOut, ServiceUnavailable, ...

    send_task_success:0.2                  20% of SendTaskSuccess calls throttled
    send_task_success:1@60s                every SendTaskSuccess throttled for a minute
    send_task_success:0.05=InvalidOutput   5% of them refused: Step Functions will never take the answer
    stream_record:0.03,schedule:0.03,kill_after_commit:0.03,notice:0.03,end_event:0.03

Switched on at the stack's start from WAITGATE_FAULTS, and at any time by writing the file `faults` in
the state directory (read again whenever it changes; while it exists its faults replace the
variable's, an empty file means none; removing it brings the variable's back). A window counts from
that moment. Every fault that strikes is a line of `faults.jsonl` (local.patches.fault_log) and an
info line in the log. AWS calls are failed by a botocore hook on boto3's default session (every
client the handlers build afterwards carries it), before they are sent; the soak (bench/) and
tests/e2e/test_hop_faults_e2e.py use them.
"""

from __future__ import annotations

import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
from botocore.awsrequest import AWSResponse

from local.patches import invocation_logs
from local.patches.fault_log import FaultLog

logger = logging.getLogger(__name__)
FAULTS_VARIABLE = "WAITGATE_FAULTS"
FAULTS_FILE_NAME = "faults"
DEFAULT_SERVICE = "sfn"
DEFAULT_ANSWER = "ThrottlingException"
LOCAL_HOPS = frozenset({"stream_record", "schedule", "kill_after_commit", "notice", "end_event"})
DROPPED_HOPS = frozenset({"stream_record", "schedule", "end_event"})  # a lost event, not an answer
NOTICE_CALL = "sns.Publish"
DELIVERY_CALLS = frozenset(
    {
        "sfn.SendTaskSuccess",
        "sfn.SendTaskFailure",
        "lambda.SendDurableExecutionCallbackSuccess",
        "lambda.SendDurableExecutionCallbackFailure",
    }
)
# Whose sends a kill spares (template logical ids): each is a hop of its own (the outbox, the
# reconciler, the request); the stack names their functions once it made them (`spare`).
NOT_KILLED = ("StreamDispatchFunction", "ReconcileInterruptsFunction", "RequestInterruptFunction")
_WINDOW = re.compile(r"(?:(\d+(?:\.\d+)?)s-)?(\d+(?:\.\d+)?)s")
_PARAMS = "waitgate_fault_params"  # where the request context keeps the call's parameters


class HandlerKilled(BaseException):  # a death, not an error: nothing of the handler catches it
    """`kill_after_commit` struck: the handler dies here (local.patches.lambda_runtime answers for it)."""


@dataclass(frozen=True)
class Fault:
    hop: str  # a local hop (stream_record, ...) or an AWS call, "sfn.SendTaskSuccess"
    share: float
    starts: float = 0.0  # seconds after the faults were switched on
    ends: float | None = None
    answer: str = DEFAULT_ANSWER

    def strikes_call(self, call: str) -> bool:
        return self.hop == call or (self.hop == "notice" and call == NOTICE_CALL)

    def in_window(self, elapsed: float) -> bool:
        return self.starts <= elapsed and (self.ends is None or elapsed < self.ends)


def parse_faults(text: str) -> list[Fault]:
    """`send_task_success:0.2,stream_record:0.05@30s` → faults; a malformed entry is a ValueError."""
    return [_entry(entry) for entry in filter(None, (part.strip() for part in text.split(",")))]


def _entry(entry: str) -> Fault:
    rest, _, answer = entry.partition("=")
    rest, _, window = rest.partition("@")
    name, _, share = rest.partition(":")
    try:
        value = float(share)
    except ValueError:
        value = -1.0
    if not name or not 0 <= value <= 1:
        shape = "<hop>:<share between 0 and 1>[@<window>][=<code>]"
        raise ValueError(f"{FAULTS_VARIABLE}: {entry!r} is not {shape}")
    starts, ends = _window(window, entry)
    return Fault(_hop(name.strip()), value, starts, ends, answer.strip() or DEFAULT_ANSWER)


def _hop(name: str) -> str:
    if name in LOCAL_HOPS:
        return name
    service, _, operation = name.rpartition(".")
    camel = "".join(word.capitalize() for word in operation.split("_"))
    return f"{service or DEFAULT_SERVICE}.{camel}"


def _window(text: str, entry: str) -> tuple[float, float | None]:
    if not text:
        return 0.0, None
    match = _WINDOW.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{FAULTS_VARIABLE}: {entry!r}: a window is <N>s or <A>s-<B>s")
    first, second = match.groups()
    return (float(first), float(second)) if first is not None else (0.0, float(second))


def answered(operation: str, code: str = DEFAULT_ANSWER) -> tuple[AWSResponse, dict[str, Any]]:
    """What botocore would have parsed from AWS's error answer `code` to `operation`."""
    status = 503 if "Unavailable" in code else 500 if "Internal" in code else 400
    parsed = {
        "Error": {"Code": code, "Message": f"{code} (injected on {operation})"},
        "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": {}},
    }
    return AWSResponse("https://local.invalid/", status, {}, None), parsed


def throttled(operation: str) -> tuple[AWSResponse, dict[str, Any]]:
    """A throttled answer (HTTP 400, ThrottlingException)."""
    return answered(operation)


class FaultPlan:
    """The faults in force: the variable's, or the file's while it exists; the dice; the log."""

    def __init__(
        self,
        base: list[Fault],
        switch: Path | None = None,
        log: FaultLog | None = None,
        dice: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base, self._switch, self._log, self._clock = base, switch, log, clock
        self._dice = dice or random.Random()  # noqa: S311 - fault dice, not secrets
        self._lock = threading.Lock()
        self._faults, self._since = base, clock()
        self.spared: frozenset[str] = frozenset()  # the functions a kill spares (NOT_KILLED's)
        self._seen: tuple[int, int] | None = None
        self._reload()

    def faults(self) -> list[Fault]:
        """The faults of the plan now in force (windows aside)."""
        with self._lock:
            self._reload()
            return list(self._faults)

    def strikes(self, hop: str, **details: Any) -> Fault | None:  # (a Fault is always true)
        """The fault that hits this event of a local hop (stream_record, ...), logged; or None."""
        return self._first(lambda fault: fault.hop == hop, details)

    def strikes_call(self, call: str, **details: Any) -> Fault | None:
        """The fault that hits this AWS call ("sfn.SendTaskSuccess"), logged; or None."""
        return self._first(lambda fault: fault.strikes_call(call), {"operation": call, **details})

    def _first(self, matches: Callable[[Fault], bool], details: dict[str, Any]) -> Fault | None:
        with self._lock:
            self._reload()
            elapsed = self._clock() - self._since
            for fault in self._faults:
                if matches(fault) and fault.in_window(elapsed) and self._dice.random() < fault.share:
                    self._record(fault, details)
                    return fault
        return None

    def _record(self, fault: Fault, details: dict[str, Any]) -> None:
        answer = "dropped" if fault.hop in DROPPED_HOPS else fault.answer
        answer = "killed" if fault.hop == "kill_after_commit" else answer
        logger.info("fault injected: %s (%s)", fault.hop, answer)
        if self._log is not None:
            self._log.record(fault.hop, answer, **details)

    def _file_version(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self._switch) if self._switch is not None else None
        except FileNotFoundError:
            return None
        return None if stat is None else (stat.st_mtime_ns, stat.st_size)

    def _reload(self) -> None:
        version = self._file_version()
        if version == self._seen:  # (the file, or its absence, as last read)
            return
        self._seen = version
        try:
            text = self._switch.read_text(encoding="utf-8") if version and self._switch else None
            faults = self._base if text is None else parse_faults(text.replace("\n", ","))
        except (OSError, ValueError) as error:
            logger.warning("faults file not applied (%s); the faults in force stay", error)
            return
        self._faults, self._since = faults, self._clock()
        logger.warning("faults switched (%s): %s", self._switch, ", ".join(f.hop for f in faults) or "none")

    def before_call(self, event_name: str = "", context: Any = None, **_: Any) -> Any:
        """botocore's before-call: a killed handler, an injected answer, or None (the call goes on)."""
        call = event_name.removeprefix("before-call.")
        function = invocation_logs.current_function()
        run = invocation_logs.current_run()
        killable = call in DELIVERY_CALLS and function is not None and function not in self.spared
        if killable and self.strikes("kill_after_commit", operation=call, function=function, runId=run):
            raise HandlerKilled(f"killed after its commit, before {call} (injected)")
        params = context.get(_PARAMS, {}) if isinstance(context, dict) else {}
        fault = self.strikes_call(call, runId=_run_of(params) or run, function=function)
        return None if fault is None else answered(call.rpartition(".")[2], fault.answer)


def _run_of(params: dict[str, Any]) -> str | None:
    """The run a call is about, where its parameters say (a notice's `runId` attribute)."""
    attribute = params.get("MessageAttributes", {}).get("runId", {})
    return attribute.get("StringValue") if isinstance(attribute, dict) else None


def _keep_params(params: Any = None, context: Any = None, **_: Any) -> None:
    if isinstance(context, dict) and isinstance(params, dict):
        context[_PARAMS] = params


_PLAN: list[FaultPlan] = []


def strikes(hop: str, **details: Any) -> bool:
    """Whether the stack's faults drop this event of a local hop (False when none are installed)."""
    return bool(_PLAN) and _PLAN[0].strikes(hop, **details) is not None


def spare(function_names: list[str]) -> None:
    """The functions of NOT_KILLED, as the stack named them: `kill_after_commit` never strikes them."""
    if _PLAN:
        _PLAN[0].spared = frozenset(function_names)


def install_faults(
    state_dir: Path | None = None, text: str | None = None, chance: random.Random | None = None
) -> FaultPlan:
    """The faults WAITGATE_FAULTS (or `text`) asks for, and the state directory's `faults` file while
    it exists; the botocore hooks registered once per process, on boto3's default session."""
    base = parse_faults(os.environ.get(FAULTS_VARIABLE, "") if text is None else text)
    switch = state_dir / FAULTS_FILE_NAME if state_dir is not None else None
    log = FaultLog.in_state_dir(state_dir) if state_dir is not None else None
    plan = FaultPlan(base, switch, log, chance)
    first = not _PLAN
    _PLAN[:] = [plan]
    if first:
        events = boto3._get_default_session().events
        events.register("before-parameter-build", _keep_params)
        events.register("before-call", lambda **kwargs: _PLAN[0].before_call(**kwargs))
    for fault in base:
        logger.warning("fault injection on: %.0f%% of %s (%s)", fault.share * 100, fault.hop, fault.answer)
    return plan
