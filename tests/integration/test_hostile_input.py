"""Hostile JSON on every JSON surface — by run, by token, mint, and the payload a workflow hands
request_interrupt — never gets a 5xx, and a refusal never changes anything."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event
from tests.support.hypothesis_profiles import examples
from tests.support.links import mint_event, token_event
from waitgate.payloads.json_rules import MAX_DEPTH

DECIDED_AT = "2026-11-30T10:00:00Z"
HOSTILE = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# --- hostile JSON text -------------------------------------------------------------------------
nested = st.integers(MAX_DEPTH + 1, 6000).map(lambda depth: "[" * depth + "]" * depth)
surrogate = st.sampled_from(['"\\ud800"', '"\\udfff"', '"a\\udc00b"', '"\\udc00\\ud800"', '"\\uDBFF"'])
not_a_number = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1E+400"])
huge_number = st.integers(4400, 20_000).map(lambda digits: "9" * digits)
huge_string = st.integers(256 * 1024, 300 * 1024).map(lambda n: json.dumps("x" * n))
odd_text = st.text(
    st.characters(codec="utf-8", categories=["Cc", "Cf", "Co", "Mn", "Zl", "Zp", "Zs", "So", "Lo"]),
    max_size=40,
).map(lambda text: json.dumps(text, ensure_ascii=False))
plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
).map(json.dumps)
nested_objects = st.integers(MAX_DEPTH + 1, 3000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth)
duplicates = st.sampled_from(['{"type": "a", "type": "b"}', '{"a": 1, "a": {"a": 2}}'])
hostile_value = (
    nested
    | nested_objects
    | surrogate
    | not_a_number
    | huge_number
    | huge_string
    | odd_text
    | plain
    | duplicates
)

# --- hostile bytes: what reaches a signature check before anything is parsed --------------------------
not_utf8 = st.sampled_from(
    [b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b'{"a": "\xff"}']
) | st.binary(min_size=1, max_size=200).filter(lambda raw: not _is_utf8(raw))
as_bytes = hostile_value.map(lambda text: text.encode("utf-8", "surrogatepass"))
# Slack posts a form: `payload=<JSON>`, and what the JSON holds is anyone's to choose
as_form = hostile_value.map(lambda text: ("payload=" + quote(text, safe="", errors="surrogatepass")).encode())
form_fields = st.integers(9, 2000).map(lambda count: "&".join(f"f{n}=1" for n in range(count)).encode())
hostile_bytes = as_bytes | as_form | not_utf8 | form_fields | st.binary(max_size=300)


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@st.composite
def hostile_body(draw: st.DrawFn, members: tuple[str, ...]) -> str:
    """A body with a hostile value somewhere: top level, a member, or a member given twice."""
    value = draw(hostile_value)
    member = draw(st.sampled_from(members))
    shape = draw(st.sampled_from(["top", "member", "duplicate", "inner"]))
    if shape == "top":
        return value
    if shape == "duplicate":
        return f'{{"{member}": {value}, "{member}": {value}}}'
    if shape == "inner":
        return f'{{"{member}": {{"action": "reject", "decidedAt": "{DECIDED_AT}", "feedback": {value}}}}}'
    return f'{{"{member}": {value}}}'


# --- the interrupt under attack, and what "changed" means ----------------------------------------
APPROVAL = {
    "kind": "approval",
    "key": "k",
    "data": {"artifactId": "a", "artifactType": "release", "title": "Ship?", "actions": ["accept", "reject"]},
}
CUSTOM = {"kind": "custom", "key": "c", "data": {"customKind": "x", "payload": {}}}


class Target:
    """One suspended run, replaced by a fresh one whenever a hostile body happened to be valid."""

    def __init__(
        self, harness: WorkflowHarness, interrupt: dict[str, Any], dynamodb: Any, table: str
    ) -> None:
        self.harness, self.interrupt, self.dynamodb, self.table = harness, interrupt, dynamodb, table
        self.run = self.fresh()

    def fresh(self) -> SuspendedRun:
        run = self.harness.suspend(self.interrupt)
        Handler("request_interrupt")(run.task_event)
        return run

    def state(self) -> list[dict[str, Any]]:
        answer = self.dynamodb.query(
            TableName=self.table,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"RUN#default#{self.run.run_id}"}},
            ConsistentRead=True,
        )
        return sorted(answer["Items"], key=lambda item: item["sk"]["S"])

    def attack(self, send: Callable[[SuspendedRun], dict[str, Any]]) -> None:
        before = self.state()
        response = send(self.run)
        status = response["statusCode"]
        assert status < 500, response["body"]
        if status >= 400:
            assert response["headers"]["Content-Type"] == "application/problem+json"
            assert json.loads(response["body"])["status"] == status
            assert self.state() == before, "a refusal changed the run"
        elif status in (200, 202):
            self.run = self.fresh()  # valid after all: it resolved (or voted); attack a new one


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


@pytest.mark.parametrize("interrupt", [APPROVAL, CUSTOM], ids=["approval", "custom"])
def test_hostile_bodies_by_run(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, interrupt: dict[str, Any]
) -> None:
    target, resolve = Target(harness, interrupt, dynamodb, table_name), Handler("resolve_by_run")

    @HOSTILE
    @given(body=hostile_body(("resumeValue",)))
    def check(body: str) -> None:
        target.attack(lambda run: resolve(http_event(run.run_id, "Interrupt", None, raw_body=body)))

    check()


def test_hostile_bodies_by_token(harness: WorkflowHarness, dynamodb: Any, table_name: str) -> None:
    target, resolve, mint = (
        Target(harness, CUSTOM, dynamodb, table_name),
        Handler("resolve_by_token"),
        Handler("mint_token"),
    )

    def by_token(run: SuspendedRun, body: str) -> dict[str, Any]:
        minted = mint(mint_event(run.run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}))
        token = json.loads(minted["body"])["token"]
        return dict(resolve(token_event(token, method="POST", raw_body=body)))

    @HOSTILE
    @given(body=hostile_body(("resumeValue",)))
    def check(body: str) -> None:
        target.attack(lambda run: by_token(run, body))

    check()


def test_hostile_bodies_on_mint(harness: WorkflowHarness, dynamodb: Any, table_name: str) -> None:
    target, mint = Target(harness, APPROVAL, dynamodb, table_name), Handler("mint_token")

    def minting(run: SuspendedRun, body: str) -> dict[str, Any]:
        event = mint_event(run.run_id, "Interrupt", None)
        event["body"] = body
        return dict(mint(event))

    @HOSTILE
    @given(body=hostile_body(("sub", "intent", "ttlSeconds")))
    def check(body: str) -> None:
        target.attack(lambda run: minting(run, body))

    check()


# --- the payload a workflow hands request_interrupt (already parsed by the Lambda runtime) ---------
def deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


hostile_python = st.one_of(
    st.integers(MAX_DEPTH + 1, 900).map(deep),
    st.sampled_from([math.nan, math.inf, -math.inf, "\ud800", "a\udfffb", {"\ud800": 1}]),
    st.integers(70_000, 90_000).map(lambda n: "x" * n),
)


def test_hostile_payloads_fail_the_task_and_record_nothing(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    request = Handler("request_interrupt")

    @HOSTILE
    @given(value=hostile_python, where=st.sampled_from(["payload", "title", "configurable"]))
    def check(value: Any, where: str) -> None:
        # a long plain string is a valid `configurable` (it is not stored): only the payload is capped
        assume(not (where == "configurable" and isinstance(value, str) and value.isascii()))
        interrupt = json.loads(json.dumps(CUSTOM))
        run = harness.suspend(interrupt)
        event = dict(run.task_event)
        if where == "payload":
            event["interrupt"] = {**interrupt, "data": {**interrupt["data"], "payload": {"v": value}}}
        elif where == "title":
            event["interrupt"] = {**interrupt, "title": value}
        else:
            event["configurable"] = {"run": value}
        # When request_interrupt gets it, Then it answers (no invocation error) and fails the task
        assert request(event)["status"] == "rejected"
        ended = harness.wait_for_end(run.execution_arn)
        assert (ended["status"], ended.get("error")) == ("FAILED", "InterruptPayloadInvalid")
        # And nothing was recorded for the run
        items = dynamodb.query(
            TableName=table_name,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"RUN#default#{run.run_id}"}},
        )["Items"]
        assert items == []

    check()


# --- the numbered points, each on the surface where it was found ------------------------------------
FREE_FORM = {
    "custom": CUSTOM,
    "external-event": {
        "kind": "external-event",
        "key": "pay-1",
        "data": {"eventType": "payment.succeeded", "correlation": {"paymentId": "pay_123"}},
    },
    "low-confidence": {
        "kind": "low-confidence",
        "key": "lc-1",
        "data": {"agentId": "classifier", "threshold": 0.8, "observed": 0.5},
    },
    "conversation.start": {"kind": "conversation.start", "key": "cs", "data": {"conversationId": "conv-nan"}},
}


@pytest.mark.parametrize("kind", sorted(FREE_FORM))
@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_json_numbers_are_refused_in_free_form_resume_values(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, kind: str, number: str
) -> None:
    # Given a suspended interrupt whose resume value may be any JSON
    target, resolve = Target(harness, FREE_FORM[kind], dynamodb, table_name), Handler("resolve_by_run")
    before = target.state()
    # When its resume value carries a number JSON cannot hold
    body = f'{{"resumeValue": {{"score": {number}}}}}'
    response = resolve(http_event(target.run.run_id, "Interrupt", None, raw_body=body))
    # Then 400 validation_error, nothing changed, and a JSON answer resolves it afterwards
    assert (response["statusCode"], json.loads(response["body"])["code"]) == (400, "validation_error")
    assert target.state() == before
    good = resolve(http_event(target.run.run_id, "Interrupt", {"resumeValue": {"score": 1.5}}))
    assert good["statusCode"] == 200
    output = harness.wait_for_end(target.run.execution_arn)["output"]
    assert json.loads(output) == {"score": 1.5}


@pytest.mark.parametrize("scope", ["approvals:respond,interrupts:mint", "interrupts:mint,runs:read"])
def test_a_comma_joined_scope_cannot_mint(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, scope: str
) -> None:
    # Given a pending interrupt and a JWT whose scope is one comma-joined token
    target = Target(harness, APPROVAL, dynamodb, table_name)
    # When it asks for a link / Then 403 forbidden: it holds no interrupts:mint scope
    minted = Handler("mint_token")(
        mint_event(target.run.run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}, scope=scope)
    )
    assert (minted["statusCode"], json.loads(minted["body"])["code"]) == (403, "forbidden")
    assert minted["headers"]["Content-Type"] == "application/problem+json"
