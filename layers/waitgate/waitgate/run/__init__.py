"""What a run is and the pure rules of its life: the records the store keeps (snapshot, interrupts,
events), the event log, answerability, re-entry keys, conversations, kept answers, the reconciler's
plan, and the values every room shares (answers, identity, clock, ids, size and wait limits, notices,
telemetry facts). No use cases, adapters, HTTP or wiring here (import-linter holds it)."""
