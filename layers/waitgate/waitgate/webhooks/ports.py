"""The ports of the webhooks in (docs/webhooks.md): the configured sources, and the events kept with
the indexes that match them to waits."""

from __future__ import annotations

from typing import Protocol

from waitgate.run.records import ExternalEventRef, JSONObject
from waitgate.run.webhook_records import KeptEvent, WaitingInterrupt
from waitgate.webhooks.sources import ConfiguredSource


class WebhookSources(Protocol):
    def source(self, name: str) -> ConfiguredSource | None:
        """The named source with its secrets, or None when there is no such source."""
        ...


class ExternalEvents(Protocol):
    """The webhook events kept, and the indexes that match them to waits (never a Scan)."""

    def register_shape(self, tenant_id: str, event_type: str, names: tuple[str, ...]) -> None:
        """Record that waits of this type correlate on these member names (idempotent)."""
        ...

    def shapes(self, tenant_id: str, event_type: str) -> tuple[tuple[str, ...], ...]:
        """Every set of member names waits of this type were registered with."""
        ...

    def waiting(self, correlation_key: str) -> tuple[WaitingInterrupt, ...]:
        """The pending waits indexed under this correlation key (a consistent read)."""
        ...

    def keep(self, event: KeptEvent) -> KeptEvent | None:
        """Keep a new event with its member index; None when kept now, else the one kept before
        under the same ref (a provider's retry), as it is."""
        ...

    def kept_with(self, member_key: str) -> tuple[KeptEvent, ...]:
        """The kept events indexed under this member key, read consistently, oldest first."""
        ...

    def record_refusal(self, ref: ExternalEventRef, refusal: JSONObject) -> None:
        """Note on the kept event why a wait could not be resolved with it."""
        ...

    def listed(self, source: str, limit: int) -> tuple[KeptEvent, ...]:
        """The source's kept events (expired ones too, until the table's TTL removes them), newest first."""
        ...
