"""Whom a link's recipient decides for (service.link_viewer), and the page saying so."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.fakes.memory import MemoryDirectory
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.approval.delegation import Delegation
from waitgate.page import PageContext, interrupt_page
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.service.link_viewer import decides_for

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)


def record(kind: str = "approval", **data: Any) -> InterruptRecord:
    base = {"artifactId": "a", "artifactType": "doc", "title": "Ship?", "actions": ["accept", "reject"]}
    return InterruptRecord(
        run=RunRef("acme", "run-1"),
        node_id="Gate",
        interrupt_id="i-1",
        kind=kind,
        key="k",
        payload={"kind": kind, "key": "k", "data": {**base, **data}},
        task_token="t",
        requested_at="2026-12-03T09:00:00.000Z",
    )


def test_a_delegate_decides_for_the_delegator_and_nobody_else_is_told_so() -> None:
    directory = MemoryDirectory()
    directory.delegate("acme", Delegation("alice", "bob", until=NOW + timedelta(hours=1)))
    config = ApprovalConfig()
    hers = record(approversList=["alice"])
    assert decides_for(hers, "bob", directory, config, NOW) == "alice"
    assert decides_for(hers, "alice", directory, config, NOW) is None  # as herself
    assert decides_for(hers, "carol", directory, config, NOW) is None  # not eligible: the vote says why
    assert decides_for(hers, "bob", directory, config, NOW + timedelta(hours=2)) is None  # ended
    assert decides_for(hers, None, directory, config, NOW) is None  # a link for nobody
    assert decides_for(record(approversList=["alice", "bob"]), "bob", directory, config, NOW) is None


def test_the_page_says_it_escaped() -> None:
    context = PageContext(
        payload=record().payload, run_id="run-1", node_id="Gate", expires_at="2026-12-03T11:00:00Z",
        principal="bob", now=NOW, decides_for="<alice>",
    )  # fmt: skip
    html = interrupt_page(context).html
    assert "You decide for <strong>&lt;alice&gt;</strong>, as their delegate." in html
    plain = PageContext(
        payload=record().payload, run_id="run-1", node_id="Gate", expires_at="2026-12-03T11:00:00Z"
    )
    assert "On behalf of" not in interrupt_page(plain).html
