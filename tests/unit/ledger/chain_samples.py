"""A real chain for the ledger's tests: entries built by the pure rules, the head signed with a real
ECDSA P-256 key (as KMS signs: DER, SHA-256 over the head's canonical JSON)."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from waitgate.ledger.chain import Head, head_after, head_to_sign, next_entry, signed_message
from waitgate.ledger.entries import facts_of

KEY = ec.generate_private_key(ec.SECP256R1())


def vote_facts(n: int) -> dict[str, Any]:
    vote = {
        "principal": f"user-{n}",
        "action": "accept",
        "decidedAt": "2026-12-01T10:00:00Z",
        "feedback": f"looks right {n}",
        "eligibility": {"principal": f"user-{n}", "matchedBy": "approversList", "resolvedAt": "x"},
    }
    payload = {"nodeId": "Approve", "interruptId": f"i-{n}", "vote": vote}
    return facts_of("interrupt.voted", "2026-12-01T10:00:00Z", "run-1", "Approve", payload)


def chain(length: int, tenant: str = "acme") -> tuple[list[dict[str, Any]], dict[str, Any]]:
    head, entries = Head(tenant), []
    for n in range(1, length + 1):
        entry = next_entry(head, f"run-1#{n}", vote_facts(n))
        entries.append(entry)
        head = head_after(entry)
    return entries, sign(head)


def sign(head: Head, key: ec.EllipticCurvePrivateKey = KEY) -> dict[str, Any]:
    unsigned = head_to_sign(head, "local-key", "2026-12-01T10:00:01Z")
    signature = key.sign(signed_message(unsigned), ec.ECDSA(hashes.SHA256()))
    return {**unsigned, "signature": base64.b64encode(signature).decode()}


def check_with(key: ec.EllipticCurvePrivateKey = KEY) -> Any:
    public = key.public_key()

    def check(message: bytes, signature: bytes, head: Any) -> bool:
        try:
            public.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return False
        return True

    return check
