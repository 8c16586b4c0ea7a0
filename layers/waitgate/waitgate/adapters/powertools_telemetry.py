"""The Telemetry port on Powertools: each fact one CloudWatch EMF line (Powertools Metrics' EMF
provider, printed to stdout: CloudWatch Logs turns it into metrics, no API call on the request's path);
correlation ids on every later log line of the invocation (Powertools Logger's context keys) and as
X-Ray annotations when the invocation is traced.

A metric never fails the use case: a line that cannot be written is logged and let go.
"""

from __future__ import annotations

import logging
from functools import cached_property
from typing import Any

from waitgate.adapters import xray_tracing
from waitgate.run.telemetry import Correlation, Fact, MetricPoint, points_of

logger = logging.getLogger(__name__)
HIGH_RESOLUTION = 1  # StorageResolution: 1-second metrics, percentiles over any period
STANDARD_RESOLUTION = 60


class PowertoolsTelemetry:
    def __init__(self, namespace: str, service: str) -> None:
        self.namespace = namespace
        self.service = service

    def record(self, fact: Fact) -> None:
        try:
            for point in points_of(fact):
                self._emit(point)
        except Exception as error:  # noqa: BLE001 - a metric is never a reason to fail
            logger.warning("metric not written", extra={"error_type": type(error).__name__})

    def _emit(self, point: MetricPoint) -> None:
        from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import (
            AmazonCloudWatchEMFProvider,
        )

        emf = AmazonCloudWatchEMFProvider(namespace=self.namespace, service=self.service)
        for name, value in point.dimensions:
            emf.add_dimension(name=name, value=value)
        if point.rollup:  # a second dimension set: the same values over every kind
            emf.add_dimensions(service=self.service)
        resolution = HIGH_RESOLUTION if point.high_resolution else STANDARD_RESOLUTION
        emf.add_metric(name=point.name, unit=point.unit, value=point.value, resolution=resolution)
        if point.tenant_id:
            emf.add_metadata(key="tenantId", value=point.tenant_id)  # a property, never a dimension
        emf.flush_metrics()

    def correlate(self, correlation: Correlation) -> None:
        self.append_log_keys(correlation.log_keys())
        xray_tracing.annotate(correlation.annotations())

    def append_log_keys(self, keys: dict[str, str]) -> None:
        append_log_keys(self._logger, keys)

    @cached_property
    def _logger(self) -> Any:
        from aws_lambda_powertools import Logger

        return Logger(service=self.service, child=True)


def append_log_keys(powertools_logger: Any, keys: dict[str, str]) -> None:
    """Keys on every later line of the invocation, whichever module logs it: Powertools' context
    keys live in a context variable, which the handler's `observed` wrapper scopes to one invocation
    (`waitgate.wiring.observability`), so they never leak into the next one, nor into another thread's."""
    try:
        powertools_logger.thread_safe_append_keys(**keys)
    except Exception as error:  # noqa: BLE001 - no Powertools logger set up (a script, a test)
        logger.debug("log keys not set", extra={"error_type": type(error).__name__})
