"""The webhook surface under forged signatures and hostile bodies, on moto: never a 5xx; a refusal
(401, 400, 413) stores nothing; a signed hostile body is either refused or kept as an event."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.kind_steps import KindSteps
from tests.integration.test_hostile_input import hostile_bytes
from tests.integration.webhook_steps import SOURCES, WebhookSteps, configure_sources, waiting_for
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.hypothesis_profiles import examples
from tests.support.webhook_senders import signed_delivery

HOSTILE = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SIGNATURE_HEADERS = st.sampled_from(
    [
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
        "stripe-signature",
        "x-hub-signature-256",
        "x-github-delivery",
        "x-github-event",
        "x-signature",
        "content-type",
    ]
)
header_values = st.text(
    st.characters(codec="latin-1", exclude_categories=["Cc"]), max_size=80
) | st.sampled_from(
    [
        "v1,",
        "v1,====",
        "t=,v1=",
        "t=99999999999999,v1=00",
        "sha256=",
        "sha256=zz",
        str(int(time.time())),
        "v2,abc",
    ]
)
bodies = hostile_bytes  # hostile JSON as bytes, as a form, not UTF-8 at all: before the signature too
source_names = st.sampled_from([*SOURCES, "nobody", "events", "UPPER", "a" * 80, "standard.", "stan dard"])


@pytest.fixture
def steps(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[WebhookSteps]:
    yield WebhookSteps(KindSteps(WorkflowHarness()), configure_sources(monkeypatch))


def item_count(dynamodb: Any, table_name: str) -> int:
    return int(dynamodb.scan(TableName=table_name, Select="COUNT")["Count"])


@HOSTILE
@given(
    source=source_names,
    headers=st.dictionaries(SIGNATURE_HEADERS, header_values, max_size=6),
    body=bodies,
)
def test_forged_deliveries_are_401_and_store_nothing(
    steps: WebhookSteps, dynamodb: Any, table_name: str, source: str, headers: dict[str, str], body: bytes
) -> None:
    before = item_count(dynamodb, table_name)
    status, answer = steps.post(source, body, headers)
    assert status in (401, 413), answer
    assert item_count(dynamodb, table_name) == before


@HOSTILE
@given(source=st.sampled_from(sorted(SOURCES)), body=bodies, event_type=st.text(max_size=300))
def test_signed_hostile_bodies_never_get_a_5xx_and_a_refusal_stores_nothing(
    steps: WebhookSteps, dynamodb: Any, table_name: str, source: str, body: bytes, event_type: str
) -> None:
    before = item_count(dynamodb, table_name)
    raw, headers = signed_delivery(steps.sources[source], body, event_type=event_type)
    status, answer = steps.post(source, raw, headers)
    # (Standard Webhooks signs text: a body that is not UTF-8 is not one a sender can sign)
    assert status in (200, 400, 413) or (status == 401 and not _is_text(raw)), answer
    if status != 200:
        assert item_count(dynamodb, table_name) == before


@settings(HOSTILE, max_examples=examples(15))
@given(
    data=st.dictionaries(
        st.text(max_size=20), st.none() | st.booleans() | st.integers() | st.text(max_size=30), max_size=40
    ),
    event_type=st.text(min_size=1, max_size=40),
)
def test_any_signed_event_is_kept_and_a_wait_for_it_is_resolved(
    steps: WebhookSteps, data: dict[str, Any], event_type: str
) -> None:
    # Given any event data a provider may send, signed / Then it is taken, and listed
    status, receipt = steps.deliver("standard", {"type": event_type, "data": data})
    assert (status, receipt["status"]) == (200, "kept")
    # And a wait on any of its string members is resolved by it at once
    members = sorted((name, value) for name, value in data.items() if isinstance(value, str))
    if members and members[0][0]:
        run, _ = steps.kinds.suspend(waiting_for(event_type, dict(members[:1]), key="fuzz"))
        assert steps.kinds.output_of(run) == {"type": event_type, "data": json.loads(json.dumps(data))}


def _is_text(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
