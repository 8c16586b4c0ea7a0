"""`ledger verify`'s rules: an intact chain holds; each kind of tampering is named at its entry."""

from __future__ import annotations

import copy

from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.ledger.chain_samples import chain, check_with, sign
from waitgate.ledger.chain import entry_hash, head_after
from waitgate.ledger.verification import verify_chain

CHECK = check_with()


def problems(entries: list[dict], head: dict | None) -> list[tuple[str, int | None]]:
    return [(problem.kind, problem.seq) for problem in verify_chain(entries, head, CHECK).problems]


def test_an_intact_chain_holds() -> None:
    entries, head = chain(10)
    verdict = verify_chain(entries, head, CHECK)
    assert verdict.holds and verdict.entries == 10 and verdict.first_seq == 1 and verdict.head_seq == 10


def test_a_changed_entry_is_named() -> None:
    entries, head = chain(10)
    entries[3]["comment"] = "approved, honest"
    assert problems(entries, head) == [("changed", 4)]


def test_a_changed_entry_whose_hash_was_recomputed_is_named_by_the_next_link() -> None:
    entries, head = chain(10)
    entries[3]["comment"] = "approved, honest"
    entries[3]["hash"] = entry_hash(entries[3])
    assert problems(entries, head) == [("changed", 4)]


def test_a_removed_entry_is_named() -> None:
    entries, head = chain(10)
    del entries[6]
    assert problems(entries, head) == [("removed", 7)]


def test_two_swapped_entries_are_named() -> None:
    entries, head = chain(10)
    entries[2], entries[3] = entries[3], entries[2]
    assert problems(entries, head) == [("reordered", 3)]


def test_the_last_entries_removed_are_named_by_the_signed_head() -> None:
    entries, head = chain(10)
    assert problems(entries[:8], head) == [("removed", 9), ("removed", 10)]


def test_a_chain_rewritten_from_an_entry_on_fails_on_the_signature() -> None:
    entries, _signed = chain(5)
    forged_key = ec.generate_private_key(ec.SECP256R1())
    assert problems(entries, sign(head_after(entries[-1]), forged_key)) == [("head", 5)]


def test_a_changed_head_fails_on_the_signature() -> None:
    entries, head = chain(5)
    assert problems(entries, {**head, "seq": 4}) == [("head", 4)]
    assert problems(entries, None) == [("head", None)]


def test_each_tampering_is_named_and_the_first_comes_first() -> None:
    entries, head = chain(12)
    entries[1]["action"] = "reject"  # entry 2 changed
    del entries[5]  # entry 6 removed
    entries[7], entries[8] = entries[8], entries[7]  # entries 9 and 10 swapped
    assert problems(entries, head) == [("changed", 2), ("removed", 6), ("reordered", 9)]


def test_an_export_from_a_later_entry_takes_its_first_link_as_given() -> None:
    entries, head = chain(10)
    assert verify_chain(entries[4:], head, CHECK).holds


@given(st.integers(1, 8), st.sampled_from(["comment", "type", "seq", "prev", "tenantId"]))
def test_any_changed_member_is_found(index: int, member: str) -> None:
    entries, head = chain(9)
    tampered = copy.deepcopy(entries)
    tampered[index][member] = 999 if member == "seq" else "forged"
    assert not verify_chain(tampered, head, CHECK).holds


MEMBER_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
HOSTILE_ENTRY = st.dictionaries(
    st.sampled_from(["seq", "hash", "prev", "type", "x"]), MEMBER_VALUES, max_size=5
)


@given(st.lists(HOSTILE_ENTRY, max_size=6), st.one_of(st.none(), HOSTILE_ENTRY, MEMBER_VALUES))
def test_a_hostile_file_is_refused_never_crashes(entries: list[dict], head: object) -> None:
    # Given any JSON objects as entries (integers beyond I-JSON, floats, wrong types) and any head
    verdict = verify_chain(entries, head, CHECK)  # type: ignore[arg-type]
    # Then verify answers, and nothing unsigned holds
    assert not verdict.holds
