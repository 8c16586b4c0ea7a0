"""Webhooks in (docs/webhooks.md): sources, their signatures, reading an event, matching it to waits.
Pure rules: no AWS, no HTTP."""
