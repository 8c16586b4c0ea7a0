"""An action-bound approval's fingerprint (docs/approvals.md, issue 33): µs per `action_fingerprint` of
a typical action (a transfer: name, four args, a target) and of a larger one (a deploy with 50 changed
settings), beside the same SHA-256 over `json.dumps(sort_keys=True)` (not canonical: number spelling
and Unicode escapes differ, so not a fingerprint; the floor of hashing a JSON text in Python)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bench.report import Row, median_seconds
from waitgate.payloads.action_fingerprint import action_fingerprint

GROUP = "fingerprint"
TARGET_MICROSECONDS = 100.0  # a fifth of the in-memory resolve use case's budget (bench/cpu.py, 0.5 ms)
TRANSFER: dict[str, Any] = {
    "name": "transfer",
    "args": {"amount": 100, "currency": "EUR", "from": "acct-1029", "to": "acct-5521"},
    "target": "payments/eu-west-1",
}
DEPLOY: dict[str, Any] = {
    "name": "deploy",
    "args": {
        "service": "checkout",
        "version": "4.2.0",
        "settings": {f"feature_{n:02d}": {"enabled": n % 2 == 0, "weight": n / 10} for n in range(50)},
    },
    "target": "prod/eu-west-1",
}


def _sorted_json_digest(action: Any) -> str:
    text = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def run() -> list[Row]:
    rows = []
    for name, action in (("transfer, 4 args + target", TRANSFER), ("deploy, 50 settings", DEPLOY)):
        ours = median_seconds(lambda action=action: action_fingerprint(action), number=2000) * 1e6
        floor = median_seconds(lambda action=action: _sorted_json_digest(action), number=2000) * 1e6
        size = len(json.dumps(action, separators=(",", ":")))
        typical = action is TRANSFER
        rows += [
            Row(
                GROUP,
                f"action_fingerprint: {name} ({size} B)",
                ours,
                "µs",
                f"≤ {TARGET_MICROSECONDS:.0f} µs" if typical else "",
                ours <= TARGET_MICROSECONDS if typical else None,
                "RFC 8785 (rfc8785) + SHA-256; median of 7 batches of 2,000",
            ),
            Row(
                GROUP,
                f"sorted json.dumps + SHA-256: {name}",
                floor,
                "µs",
                "anchor",
                note=f"fingerprint ÷ this: {ours / floor:.1f}×",
            ),
        ]
    return rows


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
