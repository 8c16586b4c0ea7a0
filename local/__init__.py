"""The local stack: waitgate's template, handlers and state machines on moto, on one machine."""
