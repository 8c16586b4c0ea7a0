"""Checking an exported chain: every entry's own hash, the links between them, their order and
completeness, and the signed head. Each problem names the entry it is at, in the chain's order, so
the first one is the first entry that was changed, removed or reordered.

- **changed**: an entry's members do not give its `hash`; or its hash was recomputed, and the next
  entry still links to the old one (the link breaks right after the changed entry).
- **removed**: a sequence number missing from the file (also one the signed head still counts).
- **reordered**: an entry found after a later one.
- **head**: the signature does not verify, or the head does not name the last entry it counts.
An export that starts later (`--since`) is checked from its first entry on: that entry's `prev` is
taken as given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from waitgate.ledger.chain import GENESIS, entry_hash, signed_message

ProblemKind = Literal["changed", "removed", "reordered", "head", "unreadable"]
SignatureCheck = Callable[[bytes, bytes, Any], bool]  # (message, signature, head) → it verifies


@dataclass(frozen=True)
class Problem:
    kind: ProblemKind
    seq: int | None
    message: str


@dataclass(frozen=True)
class Verdict:
    problems: tuple[Problem, ...]
    entries: int
    first_seq: int | None
    head_seq: int | None

    @property
    def holds(self) -> bool:
        return not self.problems


def verify_chain(
    entries: Sequence[dict[str, Any]], head: dict[str, Any] | None, check_signature: SignatureCheck
) -> Verdict:
    """The problems of an exported chain (`entries` in file order), first first."""
    problems: list[Problem] = []
    problems += _contents(entries)
    problems += _order(entries)
    problems += _links(entries, {p.seq for p in problems})
    problems += _head(entries, head, check_signature)
    problems.sort(key=lambda problem: (problem.seq is None, problem.seq or 0, problem.kind))
    first = min((int(e["seq"]) for e in entries if _seq(e) is not None), default=None)
    return Verdict(tuple(problems), len(entries), first, _seq(head) if head else None)


def _seq(value: Any) -> int | None:
    seq = value.get("seq") if isinstance(value, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def _contents(entries: Sequence[dict[str, Any]]) -> list[Problem]:
    found = []
    for entry in entries:
        if _hash_of(entry) != entry.get("hash"):
            found.append(
                Problem(
                    "changed",
                    _seq(entry),
                    f"entry {_seq(entry)} was changed: its hash does not match its members",
                )
            )
    return found


def _order(entries: Sequence[dict[str, Any]]) -> list[Problem]:
    """Gaps are removals unless the missing entry comes later (then it was reordered)."""
    seqs = [seq for seq in (_seq(entry) for entry in entries) if seq is not None]
    present, found, reported = set(seqs), [], set()
    expected: int | None = None
    for seq in seqs:
        if expected is not None and seq < expected:
            if seq not in reported:
                found.append(
                    Problem(
                        "reordered", seq, f"entry {seq} was reordered: it comes after entry {expected - 1}"
                    )
                )
                reported.add(seq)
            continue
        for missing in range(seq if expected is None else expected, seq):
            if missing in present:
                found.append(
                    Problem(
                        "reordered", missing, f"entry {missing} was reordered: it comes after entry {seq}"
                    )
                )
            else:
                found.append(Problem("removed", missing, f"entry {missing} was removed"))
            reported.add(missing)
        expected = seq + 1
    return found


def _links(entries: Sequence[dict[str, Any]], flagged: set[int | None]) -> list[Problem]:
    """Each entry links to the stored hash of the one before it (by sequence number, wherever it is)."""
    hashes = {_seq(entry): entry.get("hash") for entry in entries}
    first = min((seq for seq in hashes if seq is not None), default=None)
    found = []
    for entry in entries:
        seq = _seq(entry)
        if seq is None or seq == first or seq - 1 not in hashes:
            if seq == 1 and entry.get("prev") != GENESIS:
                found.append(
                    Problem("changed", 1, "entry 1 was changed: it links to an entry before the first")
                )
            continue
        if entry.get("prev") != hashes[seq - 1] and seq - 1 not in flagged and seq not in flagged:
            found.append(
                Problem("changed", seq - 1, f"entry {seq - 1} was changed: entry {seq} links to another hash")
            )
    return found


def _head(
    entries: Sequence[dict[str, Any]], head: dict[str, Any] | None, check_signature: SignatureCheck
) -> list[Problem]:
    if not isinstance(head, dict):
        return [Problem("head", None, "the signed head is missing: nothing proves the chain is complete")]
    signature = head.get("signature")
    if not isinstance(signature, str) or not check_signature(_message(head), _b64(signature), head):
        return [Problem("head", _seq(head), "the head's signature does not verify with the ledger's key")]
    seq, by_seq = _seq(head), {_seq(entry): entry for entry in entries}
    last = max((s for s in by_seq if s is not None), default=0)
    if seq is None or seq < last:
        return [Problem("head", seq, f"entries after the signed head ({seq}) are not signed")]
    if seq > last:
        return [
            Problem("removed", n, f"entry {n} was removed (the signed head counts {seq})")
            for n in range(last + 1, seq + 1)
        ]
    if by_seq[seq].get("hash") != head.get("hash"):
        return [Problem("changed", seq, f"entry {seq} was changed: the signed head names another hash")]
    return []


def _message(head: dict[str, Any]) -> bytes:
    try:
        return signed_message(head)
    except (TypeError, ValueError):
        return b""


def _hash_of(entry: dict[str, Any]) -> str | None:
    """The entry's hash, or None for members no entry can hold (an integer beyond I-JSON's range)."""
    try:
        return entry_hash(entry)
    except (TypeError, ValueError):  # rfc8785's domain errors are ValueErrors
        return None


def _b64(text: str) -> bytes:
    import base64
    import binascii

    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return b""
