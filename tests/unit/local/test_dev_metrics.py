"""`waitgate dev-metrics`'s arithmetic on EMF documents as Powertools writes them."""

from __future__ import annotations

from local.cli.dev_metrics import percentile, summary
from local.standins.metrics_log import points_of


def emf(name: str, unit: str, value: float, tenant: str = "acme", **dimensions: str) -> dict[str, object]:
    return {
        "_aws": {
            "Timestamp": 1,
            "CloudWatchMetrics": [
                {
                    "Namespace": "waitgate",
                    "Dimensions": [[*dimensions, "service"], ["service"]],
                    "Metrics": [{"Name": name, "Unit": unit}],
                }
            ],
        },
        **dimensions,
        "service": "waitgate",
        "tenantId": tenant,
        name: [value],
    }


def test_counts_add_up_per_dimensions_and_times_give_their_percentiles() -> None:
    # Given three decisions of two kinds and their times
    documents = [
        emf("InterruptsResolved", "Count", 1, kind="approval", outcome="accept"),
        emf("InterruptsResolved", "Count", 1, kind="approval", outcome="accept"),
        emf("InterruptsResolved", "Count", 1, kind="custom", outcome="answered"),
        *(emf("TimeToDecision", "Milliseconds", ms, kind="approval") for ms in (100, 200, 300, 400, 1000)),
    ]
    points = [point for document in documents for point in points_of(document)]
    # When summed up / Then counts per dimensions (service left out), times with p50, p90, max
    lines = summary(points)
    assert lines[0].split() == ["metric", "dimensions", "values", "sum", "p50", "p90", "max"]
    assert lines[1].split() == ["InterruptsResolved", "kind=approval", "outcome=accept", "2", "2"]
    assert lines[2].split() == ["InterruptsResolved", "kind=custom", "outcome=answered", "1", "1"]
    times = ["300", "ms", "1000", "ms", "1000", "ms"]
    assert lines[3].split() == ["TimeToDecision", "kind=approval", "5", "2000", *times]
    assert {point.tenant_id for point in points} == {"acme"}


def test_percentiles_are_nearest_rank() -> None:
    assert percentile([5.0], 90) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.0
    assert percentile([float(n) for n in range(1, 11)], 90) == 9.0
