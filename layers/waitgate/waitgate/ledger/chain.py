"""The chain: each entry holds the SHA-256 of the one before it (over its RFC 8785 canonical JSON) and
its tenant's next sequence number; the head names the last entry and is what gets signed.

An entry's `hash` is the SHA-256 of its canonical JSON without `hash`; the first entry's `prev` is
GENESIS. The head's signed message is the canonical JSON of the head without `signature`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import rfc8785

from waitgate.run.records import JSONObject

GENESIS = "0" * 64
SIGNING_ALGORITHM = "ECDSA_SHA_256"
FORMAT = "waitgate-ledger/1"


def canonical(value: Any) -> bytes:
    """RFC 8785 (JSON Canonicalization Scheme): the one byte form of a JSON value."""
    return bytes(rfc8785.dumps(value))


def digest(value: Any) -> str:
    """The SHA-256 (hex) of a JSON value's canonical form."""
    return hashlib.sha256(canonical(value)).hexdigest()


def entry_hash(entry: JSONObject) -> str:
    """The hash an entry is linked by: over every member but `hash` itself."""
    return digest({name: value for name, value in entry.items() if name != "hash"})


@dataclass(frozen=True)
class Head:
    """A tenant's last entry: `seq` 0 and GENESIS before the first."""

    tenant_id: str
    seq: int = 0
    hash: str = GENESIS

    def to_json(self) -> JSONObject:
        return {"format": FORMAT, "tenantId": self.tenant_id, "seq": self.seq, "hash": self.hash}


def next_entry(head: Head, source: str, facts: JSONObject) -> JSONObject:
    """The entry after `head` that records `facts` (entries.facts_of), from the source event `source`."""
    entry: JSONObject = {
        **facts,
        "tenantId": head.tenant_id,
        "seq": head.seq + 1,
        "prev": head.hash,
        "source": source,
    }
    return {**entry, "hash": entry_hash(entry)}


def head_after(entry: JSONObject) -> Head:
    return Head(str(entry["tenantId"]), int(entry["seq"]), str(entry["hash"]))


def signed_message(head_json: JSONObject) -> bytes:
    """What a head's signature is over: its canonical JSON without `signature`."""
    return canonical({name: value for name, value in head_json.items() if name != "signature"})


def head_to_sign(head: Head, key_id: str, signed_at: str) -> JSONObject:
    return {**head.to_json(), "keyId": key_id, "algorithm": SIGNING_ALGORITHM, "signedAt": signed_at}
