"""Idempotency-Key, the effectful half (the rules are waitgate.run.kept_answers): the first answer to a
keyed request written as the key's, once."""

from __future__ import annotations

from datetime import datetime

from waitgate.errors import ConcurrentUpdateError, WaitgateError
from waitgate.ports import InterruptStore
from waitgate.run.answers import Answer
from waitgate.run.kept_answers import refusal_to_keep, stored
from waitgate.run.records import IdempotencyRef


def kept_refusal(error: WaitgateError, ref: IdempotencyRef, store: InterruptStore, now: datetime) -> Answer:
    """A state refusal (409, 410) kept as the key's answer. A refusal of the request itself (400, 403,
    404) is raised again: a corrected retry may succeed."""
    refusal = refusal_to_keep(error)
    if refusal is None:
        raise error
    return saved_answer(refusal, ref, store, now)


def saved_answer(answer: Answer, ref: IdempotencyRef, store: InterruptStore, now: datetime) -> Answer:
    """The answer, kept as the key's; a conflict if the same key was answered meanwhile (replay that)."""
    if not store.save_answer(ref, stored(ref, answer, now)):
        raise ConcurrentUpdateError("The key was answered meanwhile.")
    return answer
