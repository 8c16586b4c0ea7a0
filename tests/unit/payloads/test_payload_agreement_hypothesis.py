"""Property: on any JSON-ish input the schema file and the models agree, and the parser
only ever raises InterruptPayloadInvalidError."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from tests.unit.payloads.payload_corpus import corpus_files, load, model_accepts, schema_validator
from waitgate.payloads import INTERRUPT_KINDS

VALIDATOR = schema_validator()
VALID_PAYLOADS = [load(path) for path in corpus_files("valid")]
MEMBER_NAMES = [
    "kind", "key", "data", "timeoutMs", "resumeSchema", "metadata", "artifactId",
    "artifactType", "title", "actions", "requiredApprovals", "rejectionPolicy", "questions",
    "id", "question", "schema", "eventType", "correlation", "customKind", "payload",
    "conversationId", "prompt", "outcomeSchema", "agentId", "threshold", "observed", "type",
    "timeout_ms", "extra",
]  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 1, 0.5, 1.0, 2.0, "", "1", "accept", "ask", "majority", *INTERRUPT_KINDS]),
    st.text(max_size=8),
)
KEYS = st.one_of(st.sampled_from(MEMBER_NAMES), st.text(max_size=6))
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
RANDOM_PAYLOADS = st.fixed_dictionaries(
    {"kind": st.one_of(st.sampled_from(INTERRUPT_KINDS), SCALARS), "key": SCALARS},
    optional={"data": st.dictionaries(KEYS, JSON, max_size=6), "timeoutMs": SCALARS,
              "resumeSchema": JSON, "metadata": JSON},
)  # fmt: skip


def _containers(value: Any) -> list[Any]:
    """Every dict and list inside `value`, itself included."""
    found: list[Any] = []
    if isinstance(value, dict | list):
        found.append(value)
        children = value.values() if isinstance(value, dict) else value
        for child in children:
            found.extend(_containers(child))
    return found


@st.composite
def mutated_payloads(draw: st.DrawFn) -> Any:
    payload = copy.deepcopy(draw(st.sampled_from(VALID_PAYLOADS)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        target = draw(st.sampled_from(_containers(payload)))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        op = draw(st.sampled_from(["drop", "add", "retype"]))
        if op == "add" and isinstance(target, dict):
            target[draw(KEYS)] = draw(JSON)
        elif op == "add":
            target.append(draw(JSON))
        elif keys and op == "drop":
            del target[draw(st.sampled_from(keys))]
        elif keys:
            target[draw(st.sampled_from(keys))] = draw(JSON)
    return payload


def _has_duplicate_question_ids(payload: Any) -> bool:
    """The one rule only the models enforce (see test_payload_extra_rules)."""
    try:
        ids = [q["id"] for q in payload["data"]["questions"]]
        return len(ids) != len(set(map(repr, ids)))
    except (KeyError, TypeError, IndexError):
        return False


def _assert_agree(payload: Any) -> None:
    assume(not _has_duplicate_question_ids(payload))
    # When both judge it (the parser must not raise anything but its own error)
    by_models = model_accepts(payload)
    by_schema = VALIDATOR.is_valid(payload)
    # Then they agree
    assert by_models == by_schema, payload


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=RANDOM_PAYLOADS)
def test_random_objects_get_the_same_verdict(payload: dict[str, Any]) -> None:
    # Given a random object built from payload-like members and values
    _assert_agree(payload)


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=mutated_payloads())
def test_mutated_corpus_payloads_get_the_same_verdict(payload: Any) -> None:
    # Given a valid corpus payload with members dropped, added or retyped
    _assert_agree(payload)


@settings(max_examples=examples(200), deadline=None)
@given(value=JSON)
def test_any_json_value_gets_the_same_verdict(value: Any) -> None:
    # Given any JSON value at all (list, scalar, object)
    _assert_agree(value)
