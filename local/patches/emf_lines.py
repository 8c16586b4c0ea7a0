"""Keep every EMF line the functions print (local.standins.metrics_log): Powertools' EMF provider
still prints it to the stack's log, as on Lambda, and the patch appends the same document to
`metrics.jsonl` for `waitgate dev-metrics`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from local.patches import replace_attribute
from local.standins.metrics_log import MetricsLog

_LOGS: list[MetricsLog] = []  # the running stack's (a process may start a second stack)


def install(log: MetricsLog) -> None:
    from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider

    _LOGS[:] = [log]
    replace_attribute(AmazonCloudWatchEMFProvider, "flush_metrics", _kept)


def _kept(flush: Callable[..., None]) -> Callable[..., None]:
    def flush_and_keep(self: Any, raise_on_empty_metrics: bool = False) -> None:
        if self.metric_set and _LOGS:
            _LOGS[0].append(dict(self.serialize_metric_set()))
        flush(self, raise_on_empty_metrics)

    return flush_and_keep
