"""The Telemetry port in memory: every fact and correlation a use case stated, in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from waitgate.run.telemetry import Correlation, Fact, MetricPoint, points_of

F = TypeVar("F")


@dataclass
class RecordingTelemetry:
    facts: list[Fact] = field(default_factory=list)
    correlations: list[Correlation] = field(default_factory=list)

    def record(self, fact: Fact) -> None:
        self.facts.append(fact)

    def correlate(self, correlation: Correlation) -> None:
        self.correlations.append(correlation)

    def of(self, kind: type[F]) -> list[F]:
        return [fact for fact in self.facts if isinstance(fact, kind)]

    def points(self) -> list[MetricPoint]:
        return [point for fact in self.facts for point in points_of(fact)]

    def names(self) -> list[str]:
        return [point.name for point in self.points()]
