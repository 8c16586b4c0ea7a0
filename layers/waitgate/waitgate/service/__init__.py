"""Use cases on ports — each module is one thing the product does (request, resolve, inspect, mint,
deliver, expire, end a run, record a decision, read runs, notify); `rules/` holds what they apply.
No boto3, no Powertools, no HTTP here (import-linter holds it)."""
