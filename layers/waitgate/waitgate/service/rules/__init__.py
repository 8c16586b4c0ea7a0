"""The rules the use cases apply: what a resume value must be, what it decides, how events, re-entry
keys, conversations and execution links are kept, and the one optimistic-concurrency loop."""
