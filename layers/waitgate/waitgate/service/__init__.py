"""Use cases on ports — each module is one thing the product does (request, resolve, inspect, mint,
deliver, expire, end a run, record a decision, read runs, notify); a `_name` module is a step private
to them that touches a port (kept answers, eligibility by the directory, re-entry's replay, the resume
value's send). The rules they apply are pure and live in run/, approval/ and escalation/.
No boto3, no Powertools, no HTTP here (import-linter holds it)."""
