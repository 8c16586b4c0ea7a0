"""waitgate: the shared layer — pure rules (run/, approval/, escalation/, payloads/, tokens/, …), use
cases (service/), ports, adapters, and the wiring that builds them (wiring/; docs/architecture.md)."""
