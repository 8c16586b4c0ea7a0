"""The errors by name a waiting run is failed with (SendTaskFailure, or a durable function's callback
failure), and that its workflow catches by name: one place for the host that sends them and the SDK
that catches them (docs/workflows.md, docs/durability.md)."""

from __future__ import annotations

TIMED_OUT = "InterruptTimedOut"  # its deadline passed with `onDeadline: fail` (the default)
CANCELLED = "InterruptCancelled"  # a re-entry key asked again after its interrupt was cancelled
SUPERSEDED = "InterruptSuperseded"  # a key's interrupt was replaced at its node by another key's
RESULT_TOO_LARGE = "InterruptResultTooLarge"  # the resume value is one no engine takes
PAYLOAD_INVALID = "InterruptPayloadInvalid"  # requestInterrupt refused the Task's payload
