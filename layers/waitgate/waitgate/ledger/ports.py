"""The ports of the decision ledger (docs/ledger.md): the per-tenant chain and its head's signer."""

from __future__ import annotations

from typing import Protocol

from waitgate.ledger.chain import Head
from waitgate.run.records import JSONObject


class Ledger(Protocol):
    """The per-tenant decision ledger (docs/ledger.md): its head, serial appends, its entries in order."""

    def head(self, tenant_id: str) -> tuple[Head, JSONObject | None]:
        """The tenant's head (seq 0 before the first entry) and its signed form (None before it)."""
        ...

    def append(self, entry: JSONObject, signed_head: JSONObject, expected_seq: int) -> bool:
        """Append `entry` and move the head, if the head is still at `expected_seq`: True; False when
        the entry's source was appended already (nothing written); ConcurrentUpdateError when the head
        moved (re-read and try again)."""
        ...


class LedgerSigner(Protocol):
    """Signs the ledger's head: KMS Sign with an asymmetric key (adapters/kms_ledger_signer)."""

    key_id: str

    def sign(self, message: bytes) -> bytes:
        """The DER-encoded ECDSA P-256 / SHA-256 signature of `message`."""
        ...
