"""Fault injection for the local stack (off by default): WAITGATE_FAULTS makes a share of AWS calls
fail before they are sent, as a throttled AWS would answer them.

WAITGATE_FAULTS="send_task_success:0.2" throttles 20% of Step Functions SendTaskSuccess calls;
several entries are comma-separated, `<service>.<operation>:<share>` names another service
(`sfn.send_task_failure:0.5`). The hook sits on boto3's default session, so every client the
handlers build afterwards carries it; the bench's soak (bench/soak.py) uses it.
"""

from __future__ import annotations

import logging
import os
import random
from dataclasses import dataclass
from typing import Any

import boto3
from botocore.awsrequest import AWSResponse

logger = logging.getLogger(__name__)
FAULTS_VARIABLE = "WAITGATE_FAULTS"
DEFAULT_SERVICE = "sfn"


@dataclass(frozen=True)
class Fault:
    service: str
    operation: str  # botocore's name: SendTaskSuccess
    share: float

    @property
    def event_name(self) -> str:
        return f"before-call.{self.service}.{self.operation}"


def parse_faults(text: str) -> list[Fault]:
    """`send_task_success:0.2,sfn.send_task_failure:0.1` → faults; a malformed entry is an error."""
    faults = []
    for entry in filter(None, (part.strip() for part in text.split(","))):
        name, _, share = entry.partition(":")
        service, _, operation = name.rpartition(".")
        value = float(share)
        if not operation or not 0 <= value <= 1:
            raise ValueError(f"{FAULTS_VARIABLE}: {entry!r} is not <operation>:<share between 0 and 1>")
        camel = "".join(word.capitalize() for word in operation.split("_"))
        faults.append(Fault(service or DEFAULT_SERVICE, camel, value))
    return faults


def throttled(operation: str) -> tuple[AWSResponse, dict[str, Any]]:
    """What botocore would have parsed from a throttled answer (HTTP 400, ThrottlingException)."""
    parsed = {
        "Error": {"Code": "ThrottlingException", "Message": f"Rate exceeded (injected on {operation})"},
        "ResponseMetadata": {"HTTPStatusCode": 400, "HTTPHeaders": {}},
    }
    return AWSResponse("https://local.invalid/", 400, {}, None), parsed


def install_faults(text: str | None = None, chance: random.Random | None = None) -> list[Fault]:
    """Register the hooks WAITGATE_FAULTS (or `text`) asks for; nothing when it is empty."""
    faults = parse_faults(os.environ.get(FAULTS_VARIABLE, "") if text is None else text)
    dice = chance or random.Random()  # noqa: S311 - fault dice, not secrets
    session = boto3._get_default_session()
    for fault in faults:
        session.events.register(fault.event_name, _hook(fault, dice))
        logger.warning("fault injection on: %.0f%% of %s fail", fault.share * 100, fault.operation)
    return faults


def _hook(fault: Fault, dice: random.Random) -> Any:
    def maybe_fail(**_: Any) -> tuple[AWSResponse, dict[str, Any]] | None:
        return throttled(fault.operation) if dice.random() < fault.share else None

    return maybe_fail
