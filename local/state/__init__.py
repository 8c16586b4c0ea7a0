"""The local stack's state across restarts, in its state directory (`.waitgate/` by default)."""
