"""The cost model of bench/cost.py: what one decided approval uses, per service, priced from
bench/prices.json; and how the bench times an invocation and counts the bytes it logs."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PRICES = json.loads((Path(__file__).with_name("prices.json")).read_text(encoding="utf-8"))


@dataclass
class Invocation:
    name: str
    memory_mb: int
    architecture: str
    durations_ms: list[float] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.durations_ms)

    def gb_seconds(self) -> float:
        step = PRICES["lambda_billing_granularity_ms"]
        billed = math.ceil(self.median_ms / step) * step
        return billed / 1000 * self.memory_mb / 1024


@dataclass
class Decision:
    """What one decided approval uses, per service."""

    invocations: dict[str, Invocation] = field(default_factory=dict)
    read_units: float = 0.0
    write_units: float = 0.0
    http_api_requests: int = 0
    rest_api_requests: int = 0
    transitions: int = 0
    sns_publishes: float = 0.0
    sns_emails: float = 0.0
    ses_emails: float = 0.0
    sqs_requests: float = 0.0
    log_bytes: float = 0.0
    durable_operations: float = 0.0
    durable_bytes: float = 0.0  # checkpointed: billed once written, and per month while retained
    durable_retention_days: int = 0

    def costs(self) -> dict[str, float]:
        """USD per decision, by what is paid for."""
        lambda_compute = sum(
            i.gb_seconds() * PRICES["lambda_gb_second"][i.architecture] for i in self.invocations.values()
        )
        platform_logs = len(self.invocations) * PRICES["lambda_platform_log_bytes_per_invocation"]
        return {
            "Lambda requests": len(self.invocations) * PRICES["lambda_request"],
            "Lambda GB-seconds": lambda_compute,
            "API Gateway": self.http_api_requests * PRICES["http_api_request"]
            + self.rest_api_requests * PRICES["rest_api_request"],
            "Step Functions transitions": self.transitions * PRICES["step_functions_standard_transition"],
            "Lambda durable operations, data": self.durable_usd(),
            "DynamoDB reads (RRU)": self.read_units * PRICES["dynamodb_read_request_unit"],
            "DynamoDB writes (WRU)": self.write_units * PRICES["dynamodb_write_request_unit"],
            "SNS (publishes, e-mails)": self.sns_publishes * PRICES["sns_publish"]
            + self.sns_emails * PRICES["sns_email_notification"],
            "SES e-mails, SQS requests": self.ses_emails * PRICES["ses_email"]
            + self.sqs_requests * PRICES["sqs_request"],
            "CloudWatch Logs ingestion": (self.log_bytes + platform_logs)
            / 1024**3
            * PRICES["cloudwatch_logs_ingested_gb"],
        }

    def durable_usd(self) -> float:
        """A durable execution's operations, and its checkpoints written and kept for the retention."""
        gigabytes = self.durable_bytes / 1024**3
        retained_months = self.durable_retention_days / 30
        return (
            self.durable_operations * PRICES["lambda_durable_operation"]
            + gigabytes * PRICES["lambda_durable_data_written_gb"]
            + gigabytes * retained_months * PRICES["lambda_durable_data_retained_gb_month"]
        )

    def total(self) -> float:
        return sum(self.costs().values())


def transitions_of(definition: dict[str, Any]) -> int:
    """States entered on the decided path: each Next, a Choice's first branch (the approval)."""
    count, name = 0, definition["StartAt"]
    while name:
        state = definition["States"][name]
        count += 1
        if state.get("End"):
            break
        name = state["Choices"][0]["Next"] if state["Type"] == "Choice" else state.get("Next")
    return count


@contextlib.contextmanager
def logged_bytes() -> Iterator[Callable[[], int]]:
    """What a block wrote to stdout (EMF lines, prints) and through the Powertools logger."""
    from aws_lambda_powertools import Logger

    Logger(service="waitgate")
    handler = logging.getLogger("waitgate").handlers[0]
    buffer = io.StringIO()
    previous = getattr(handler, "stream", None)
    handler.stream = buffer  # type: ignore[attr-defined]
    try:
        with contextlib.redirect_stdout(buffer):
            yield lambda: len(buffer.getvalue().encode())
    finally:
        handler.stream = previous  # type: ignore[attr-defined]


def timed(invocation: Invocation, measuring: bool, action: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    answer = action()
    if measuring:
        invocation.durations_ms.append((time.perf_counter() - started) * 1000)
    return answer
