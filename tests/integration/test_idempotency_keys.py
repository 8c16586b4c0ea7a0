"""Idempotency-Key on every resolve and mint: one effect, the same answer again, byte for byte."""

from __future__ import annotations

import html
import json
import threading
from collections import Counter
from typing import Any

import pytest

from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
REJECT = {"action": "reject", "decidedAt": "2026-11-30T10:00:00Z"}


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


@pytest.fixture
def run_id(harness: WorkflowHarness) -> str:
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    return run.run_id


@pytest.fixture(scope="module")
def resolve() -> Handler:
    return Handler("resolve_by_run")


def keyed(run_id: str, value: Any, key: str | None, **claims: Any) -> dict[str, Any]:
    event = http_event(run_id, "Interrupt", {"resumeValue": value}, **claims)
    if key is not None:
        event["headers"]["idempotency-key"] = key
    return event


def dynamodb_calls(client: Any) -> list[str]:
    calls: list[str] = []
    client.meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
    return calls


def test_a_replay_after_success_is_the_same_answer_byte_for_byte(run_id: str, resolve: Handler) -> None:
    # Given a resolve that succeeded under a key
    first = resolve(keyed(run_id, ACCEPT, "k-1"))
    assert first["statusCode"] == 200
    # When the client retries with the same key and body
    again = resolve(keyed(run_id, ACCEPT, "k-1"))
    # Then it gets the same status and body, marked as replayed
    assert (again["statusCode"], again["body"]) == (200, first["body"])
    assert again["headers"]["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first["headers"]


def test_the_losers_409_replays_as_409_even_after_more_happened(run_id: str, resolve: Handler) -> None:
    # Given bob resolved first, and alice's keyed resolve lost with 409
    assert resolve(keyed(run_id, ACCEPT, None, sub="bob"))["statusCode"] == 200
    lost = resolve(keyed(run_id, REJECT, "alice-1", sub="alice"))
    assert lost["statusCode"] == 409
    # When alice retries with her key / Then the same 409, replayed
    again = resolve(keyed(run_id, REJECT, "alice-1", sub="alice"))
    assert (again["statusCode"], again["body"], again["headers"]["Idempotent-Replayed"]) == (
        409,
        lost["body"],
        "true",
    )


def test_a_replay_after_someone_else_resolved_later_is_still_the_original(
    harness: WorkflowHarness, resolve: Handler
) -> None:
    # Given a 2-of-2 approval where alice's keyed vote was recorded (202)
    run = harness.suspend({**APPROVAL, "data": {**APPROVAL["data"], "requiredApprovals": 2}})
    Handler("request_interrupt")(run.task_event)
    vote = resolve(keyed(run.run_id, ACCEPT, "vote-1", sub="alice"))
    assert vote["statusCode"] == 202
    # When bob's vote decides, and alice retries her request
    assert resolve(keyed(run.run_id, ACCEPT, None, sub="bob"))["statusCode"] == 200
    again = resolve(keyed(run.run_id, ACCEPT, "vote-1", sub="alice"))
    # Then alice gets her original 202, not a 409 and not a second vote
    assert (again["statusCode"], again["body"]) == (202, vote["body"])


def test_validation_failures_are_not_kept(run_id: str, resolve: Handler) -> None:
    # Given a keyed request refused with 400
    bad = resolve(keyed(run_id, {"action": "accept"}, "k-400"))
    assert bad["statusCode"] == 400
    # When the client corrects it under the same key / Then it succeeds (the 400 was not stored)
    assert resolve(keyed(run_id, ACCEPT, "k-400"))["statusCode"] == 200


def test_the_same_key_with_another_body_is_422(run_id: str, resolve: Handler) -> None:
    assert resolve(keyed(run_id, ACCEPT, "k-2"))["statusCode"] == 200
    reused = resolve(keyed(run_id, REJECT, "k-2"))
    assert reused["statusCode"] == 422
    assert json.loads(reused["body"])["code"] == "idempotency_key_reused"


def test_the_same_body_with_other_whitespace_is_the_same_request(run_id: str, resolve: Handler) -> None:
    first = resolve(keyed(run_id, ACCEPT, "k-ws"))
    event = keyed(run_id, ACCEPT, "k-ws")
    event["body"] = json.dumps({"resumeValue": dict(reversed(list(ACCEPT.items())))}, indent=2)
    assert resolve(event)["body"] == first["body"]


def test_two_callers_with_the_same_key_never_collide(harness: WorkflowHarness, resolve: Handler) -> None:
    run = harness.suspend({**APPROVAL, "data": {**APPROVAL["data"], "requiredApprovals": 2}})
    Handler("request_interrupt")(run.task_event)
    alice = resolve(keyed(run.run_id, ACCEPT, "same", sub="alice"))
    bob = resolve(keyed(run.run_id, ACCEPT, "same", sub="bob"))
    assert (alice["statusCode"], bob["statusCode"]) == (202, 200)
    assert "Idempotent-Replayed" not in bob["headers"]


def test_the_same_key_on_another_run_is_422_and_changes_nothing(
    harness: WorkflowHarness, run_id: str, resolve: Handler
) -> None:
    from waitgate.wiring import composition

    # Given alice resolved one run under a key
    assert resolve(keyed(run_id, ACCEPT, "k-runs"))["statusCode"] == 200
    other = harness.suspend(APPROVAL)
    Handler("request_interrupt")(other.task_event)
    calls = dynamodb_calls(composition.aws_client("dynamodb"))
    # When she reuses the key on another run, with another body
    reused = resolve(keyed(other.run_id, REJECT, "k-runs"))
    # Then 422 idempotency_key_reused, found in the one read (no write), and that run still waits
    assert (reused["statusCode"], json.loads(reused["body"])["code"]) == (422, "idempotency_key_reused")
    assert calls == ["BatchGetItem"]
    assert resolve(keyed(other.run_id, REJECT, None))["statusCode"] == 200


def test_a_key_is_the_callers_within_their_tenant(harness: WorkflowHarness, resolve: Handler) -> None:
    # Given "alice" of two tenants, each with a suspended run of her own tenant
    runs = {}
    for tenant in ("acme", "globex"):
        run = harness.suspend(APPROVAL, tenant_id=tenant)
        Handler("request_interrupt")(run.task_event)
        runs[tenant] = run.run_id
    # When each uses the same key / Then neither is the other's replay
    for tenant, run in runs.items():
        answer = resolve(keyed(run, ACCEPT, "shared", tenant=tenant))
        assert answer["statusCode"] == 200 and "Idempotent-Replayed" not in answer["headers"]


@pytest.mark.parametrize("key", ["", "x" * 256, "tab\there", "naïve", "line\nbreak"])
def test_malformed_keys_are_400(run_id: str, resolve: Handler, key: str) -> None:
    response = resolve(keyed(run_id, ACCEPT, key))
    assert response["statusCode"] == 400
    assert json.loads(response["body"])["code"] == "validation_error"


def test_concurrent_requests_with_one_key_make_one_effect(run_id: str, environment: None) -> None:
    # Given eight Lambda instances retrying the same keyed request at once
    instances = [Handler("resolve_by_run") for _ in range(8)]
    from waitgate.wiring import composition

    sends: Counter[str] = Counter()
    composition.aws_client("stepfunctions").meta.events.register(
        "before-call.sfn.SendTaskSuccess", lambda **_: sends.update(["send"])
    )
    barrier = threading.Barrier(8)
    answers: list[dict[str, Any]] = []

    def call(instance: Handler) -> None:
        barrier.wait()
        answers.append(instance(keyed(run_id, ACCEPT, "retry-storm")))

    threads = [threading.Thread(target=call, args=(h,)) for h in instances]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then one resolution, one delivery, and every answer is that 200
    assert {a["statusCode"] for a in answers} == {200}
    assert len({a["body"] for a in answers}) == 1
    assert sum(a["headers"].get("Idempotent-Replayed") == "true" for a in answers) == 7
    assert sends["send"] == 1


def test_round_trips_two_to_decide_one_to_replay(run_id: str, resolve: Handler) -> None:
    # Given a keyed first resolve, then its replay
    from waitgate.wiring import composition

    calls = dynamodb_calls(composition.aws_client("dynamodb"))
    resolve(keyed(run_id, ACCEPT, "count-me"))
    first = list(calls)
    calls.clear()
    resolve(keyed(run_id, ACCEPT, "count-me"))
    # Then the decision (answer included) is one read and one transaction; what follows is delivery
    # bookkeeping after SendTaskSuccess (docs/durability.md); and the replay is one read
    assert first[:2] == ["BatchGetItem", "TransactWriteItems"]
    assert calls == ["BatchGetItem"]


def test_mint_under_a_key_gives_the_same_link_again(run_id: str, environment: None) -> None:
    mint = Handler("mint_token")
    event = http_event(run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}, scope="interrupts:mint")
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/runs/{run_id}/interrupts/Interrupt/tokens"
    event["routeKey"] = "POST /runs/{runId}/interrupts/{nodeId}/tokens"
    event["headers"]["idempotency-key"] = "mint-1"
    first, again = mint(event), mint(event)
    assert first["statusCode"] == 201
    assert (again["statusCode"], again["body"], again["headers"]["Idempotent-Replayed"]) == (
        201,
        first["body"],
        "true",
    )
    other = dict(event, body=json.dumps({"intent": "inspect"}))
    assert mint(other)["statusCode"] == 422


def test_a_keyed_resolve_by_token_replays_and_is_scoped_to_the_token(run_id: str) -> None:
    from tests.support.links import mint_event, token_event

    # Given a link minted for alice
    minted = Handler("mint_token")(mint_event(run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}))
    token = json.loads(minted["body"])["token"]
    resolve_by_token = Handler("resolve_by_token")
    event = token_event(token, method="POST", body={"resumeValue": ACCEPT})
    event["headers"]["idempotency-key"] = "click-1"
    # When the page's POST is retried under its key
    first, again = resolve_by_token(event), resolve_by_token(event)
    # Then one resolution, the same answer, replayed
    assert first["statusCode"] == 200
    assert (again["statusCode"], again["body"], again["headers"]["Idempotent-Replayed"]) == (
        200,
        first["body"],
        "true",
    )


def as_kept_before_meaning(dynamodb: Any, table_name: str) -> list[dict[str, Any]]:
    """Every kept answer rewritten to the form an item had before its meaning was kept beside its
    bytes (status, body, content type alone), as items of the last deploy still are for 24 h."""
    items = [
        item for item in dynamodb.scan(TableName=table_name)["Items"] if item["pk"]["S"].startswith("IDEM#")
    ]
    for item in items:
        dynamodb.update_item(
            TableName=table_name,
            Key={"pk": item["pk"], "sk": item["sk"]},
            UpdateExpression="REMOVE code, detail, #path, #value",
            ExpressionAttributeNames={"#path": "path", "#value": "value"},
        )
    return items


def test_an_answer_kept_before_its_meaning_was_still_replays_and_means_the_same(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    from tests.support.links import BROWSER_ACCEPT, mint_event, token_event

    # Given alice's link to a 2-of-2 approval: her keyed vote (202), then her keyed second vote (409)
    run = harness.suspend({**APPROVAL, "data": {**APPROVAL["data"], "requiredApprovals": 2}})
    Handler("request_interrupt")(run.task_event)
    minted = Handler("mint_token")(mint_event(run.run_id, "Interrupt", {"intent": "resolve", "sub": "alice"}))
    token, resolve_by_token = json.loads(minted["body"])["token"], Handler("resolve_by_token")

    def posted(key: str, accept: str = "application/json") -> dict[str, Any]:
        event = token_event(token, method="POST", body={"resumeValue": ACCEPT}, accept=accept)
        event["headers"]["idempotency-key"] = key
        return resolve_by_token(event)

    vote, twice = posted("vote-1"), posted("vote-2")
    assert (vote["statusCode"], twice["statusCode"]) == (202, 409)
    # And both kept in the form of the last deploy (the new form said their meaning beside the bytes)
    kept = as_kept_before_meaning(dynamodb, table_name)
    assert sorted(("code" in item, "value" in item) for item in kept) == [(False, True), (True, False)]
    # When each is retried, Then the same bytes again, replayed
    for key, first in (("vote-1", vote), ("vote-2", twice)):
        again = posted(key)
        assert (again["statusCode"], again["body"], again["headers"]["Idempotent-Replayed"]) == (
            first["statusCode"],
            first["body"],
            "true",
        )
    # And a browser's retry reads what each meant: the vote recorded; the second vote refused, and why
    recorded, refused = posted("vote-1", BROWSER_ACCEPT), posted("vote-2", BROWSER_ACCEPT)
    assert recorded["statusCode"] == 202 and "Your answer was recorded" in recorded["body"]
    assert "still open" in recorded["body"]
    detail = json.loads(twice["body"])["detail"]
    assert refused["statusCode"] == 409 and "You already answered" in refused["body"]
    assert detail and html.escape(detail) in refused["body"]
