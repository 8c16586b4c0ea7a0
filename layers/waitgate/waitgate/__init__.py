"""waitgate: the shared layer — payloads, tokens, approval rules, use cases, ports and adapters."""
