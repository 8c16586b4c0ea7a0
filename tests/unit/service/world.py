"""A host on in-memory ports for the use-case tests: the fakes, a real keyring (HMAC key of random
bytes), and the request and resolve use cases to bring a run where a test needs it."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from tests.fakes.memory import (
    CountingIds,
    FixedClock,
    MemoryDirectory,
    MemoryRunIndex,
    MemoryStore,
    RecordingNotifier,
    RecordingWorkflow,
)
from tests.fakes.telemetry import RecordingTelemetry
from waitgate.approval.approver_config import ApprovalConfig
from waitgate.run.identity import Caller
from waitgate.run.records import InterruptRecord, RunEvent, RunRef
from waitgate.service.deliver_resolution import DeliveryDependencies
from waitgate.service.mint_token import LinkSettings, MintDependencies
from waitgate.service.notify import NotificationDependencies
from waitgate.service.request_interrupt import (
    InterruptRequest,
    RequestDependencies,
    RequestOutcome,
    request_interrupt,
)
from waitgate.service.resolve_interrupt import (
    ResolveCommand,
    ResolveDependencies,
    ResolveOutcome,
    resolve_interrupt,
)
from waitgate.service.token_access import TokenDependencies
from waitgate.tokens import Keyring

RUN = RunRef("default", "run-1")
ALICE = Caller(principal="alice", tenant_id="default", via="jwt")
CUSTOM: dict[str, Any] = {"kind": "custom", "key": "label", "data": {"customKind": "acme.label"}}
APPROVAL: dict[str, Any] = {
    "kind": "approval",
    "key": "ship",
    "data": {"artifactId": "a1", "artifactType": "doc", "title": "Ship?", "actions": ["accept", "reject"]},
}
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
BASE_URL = "https://links.example.com"
LIFETIME = timedelta(minutes=30)


def with_data(payload: dict[str, Any], **data: Any) -> dict[str, Any]:
    return {**payload, "data": {**payload["data"], **data}}


class World:
    def __init__(self) -> None:
        self.store = MemoryStore()
        self.workflow = RecordingWorkflow()
        self.clock = FixedClock()
        self.ids = CountingIds()
        self.index = MemoryRunIndex(self.store)
        self.directory = MemoryDirectory()
        self.notifier = RecordingNotifier()
        self.keyring = Keyring("k1", {"k1": secrets.token_bytes(32)})
        self.conversation_capability = True
        self.notifying = False  # request_interrupt announces to the notifier when True
        self.ref_kinds = frozenset({"principal", "group", "role"})
        self.telemetry = RecordingTelemetry()  # what every use case counted and correlated

    # the dependencies of each use case, built from the same fakes
    def delivery(self) -> DeliveryDependencies:
        return DeliveryDependencies(self.store, self.workflow, self.clock, self.telemetry)

    def links(self) -> LinkSettings:
        return LinkSettings(LIFETIME, BASE_URL)

    def minting(self) -> MintDependencies:
        return MintDependencies(self.store, self.keyring, self.clock, self.links())

    def tokens(self) -> TokenDependencies:
        return TokenDependencies(self.store, self.keyring, self.clock, self.telemetry)

    def notifications(self) -> NotificationDependencies:
        return NotificationDependencies(
            self.notifier,
            self.keyring,
            self.directory,
            self.ref_kinds,
            self.links(),
            telemetry=self.telemetry,
        )

    def resolving(self) -> ResolveDependencies:
        config = ApprovalConfig(ref_kinds=self.ref_kinds)
        return ResolveDependencies(
            self.store, self.workflow, self.clock, self.directory, config, self.notifier, self.telemetry
        )

    def requesting(self) -> RequestDependencies:
        return RequestDependencies(
            self.store,
            self.workflow,
            self.clock,
            self.ids,
            conversation_capability=self.conversation_capability,
            notifications=self.notifications() if self.notifying else None,
            telemetry=self.telemetry,
        )

    # bringing a run where a test needs it
    def request(
        self,
        payload: dict[str, Any] = CUSTOM,
        *,
        token: str = "task-1",
        node: str = "Gate",
        run: RunRef = RUN,
        execution_arn: str | None = None,
        notify: Any = None,
    ) -> RequestOutcome:
        request = InterruptRequest(token, run, node, payload, execution_arn=execution_arn, notify=notify)
        return request_interrupt(request, self.requesting())

    def resolve(
        self, value: Any, *, node: str = "Gate", run: RunRef = RUN, caller: Caller = ALICE
    ) -> ResolveOutcome:
        command = ResolveCommand(run=run, node_id=node, resume_value=value, caller=caller)
        return resolve_interrupt(command, self.resolving())

    # what the store holds
    def interrupt(self, node: str = "Gate", run: RunRef = RUN) -> InterruptRecord:
        return self.store.interrupts[(run, node)]

    def log(self, run: RunRef = RUN) -> list[RunEvent]:
        return self.store.events_of(run)

    def types(self, run: RunRef = RUN) -> list[str]:
        return [event.type for event in self.log(run)]
