"""The signed-link surfaces on moto: mint, inspect (GET/HEAD), resolve by token, and key rotation
through the Secrets Manager adapter. Real HMAC tokens, real Step Functions executions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, sample_event
from tests.support.links import BROWSER_ACCEPT, generated_secret, mint_event, random_key, token_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
BASE_URL = "https://links.example.com"


@dataclass
class Secret:
    client: Any
    arn: str

    def put(self, document: dict[str, Any]) -> None:
        self.client.put_secret_value(SecretId=self.arn, SecretString=json.dumps(document))

    def current(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(self.client.get_secret_value(SecretId=self.arn)["SecretString"])
        return document


def new_instances() -> None:
    """What a cold start does: settings and the keyring read afresh."""
    from waitgate.wiring import composition, settings

    settings.settings.cache_clear()
    composition.keyring.cache_clear()


@pytest.fixture
def secret(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Secret]:
    client = boto3.client("secretsmanager", region_name="us-east-1")
    arn = client.create_secret(Name="waitgate-token-secret", SecretString=generated_secret())["ARN"]
    monkeypatch.setenv("TOKEN_SECRET_ARN", arn)
    monkeypatch.setenv("PUBLIC_BASE_URL", BASE_URL)
    new_instances()
    yield Secret(client, arn)
    new_instances()


@pytest.fixture
def harness(secret: Secret) -> WorkflowHarness:
    return WorkflowHarness()


def suspended(harness: WorkflowHarness, interrupt: dict[str, Any] = APPROVAL) -> SuspendedRun:
    run = harness.suspend(interrupt)
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    return run


def minted(run: SuspendedRun, body: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = Handler("mint_token")(
        mint_event(run.run_id, "Interrupt", body or {"intent": "resolve", "sub": "bob"})
    )
    assert answer["statusCode"] == 201, answer["body"]
    link: dict[str, Any] = json.loads(answer["body"])
    return link


def snapshot_and_events(dynamodb: Any, table_name: str, run_id: str) -> tuple[str, int]:
    items = dynamodb.query(
        TableName=table_name,
        ConsistentRead=True,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"RUN#default#{run_id}"}},
    )["Items"]
    status = next(i["status"]["S"] for i in items if i["sk"]["S"] == "RUN")
    return status, sum(i["sk"]["S"].startswith("EVT#") for i in items)


def problem_of(answer: dict[str, Any], status: int, code: str) -> dict[str, Any]:
    assert answer["statusCode"] == status, answer["body"]
    assert answer["headers"]["Content-Type"] == "application/problem+json"
    assert answer["headers"]["Cache-Control"] == "no-store"
    assert answer["headers"]["Referrer-Policy"] == "no-referrer"
    problem: dict[str, Any] = json.loads(answer["body"])
    assert (problem["status"], problem["code"]) == (status, code)
    return problem


def test_mint_answers_a_link_that_never_outlives_the_interrupt(harness: WorkflowHarness) -> None:
    # Given a run suspended on an approval with a 10-minute deadline
    run = suspended(harness, {**APPROVAL, "timeoutMs": 600_000})
    before = datetime.now(UTC).replace(microsecond=0)
    # When a bot with interrupts:mint asks for a one-hour link for bob
    answer = Handler("mint_token")(
        mint_event(run.run_id, "Interrupt", {"intent": "resolve", "sub": "bob", "ttlSeconds": 3600})
    )
    # Then it gets 201 {token, url, expiresAt}: an ow2 token, a URL on the public base, capped at the deadline
    assert answer["statusCode"] == 201
    assert answer["headers"]["Cache-Control"] == "no-store"
    assert answer["headers"]["Referrer-Policy"] == "no-referrer"
    assert "Location" not in answer["headers"]
    link = json.loads(answer["body"])
    assert set(link) == {"token", "url", "expiresAt"}
    assert link["token"].startswith("ow2.hs256.k1.")
    assert link["url"] == f"{BASE_URL}/interrupts/{link['token']}"
    expires = datetime.fromisoformat(link["expiresAt"])
    assert expires <= before + timedelta(minutes=10, seconds=1)


def test_mint_needs_its_scope_and_a_closed_body(harness: WorkflowHarness) -> None:
    # Given a suspended run
    run = suspended(harness)
    handler = Handler("mint_token")
    # When the caller lacks the scope, sends an unknown member, a bad intent or ttl, or names no node
    no_scope = handler(mint_event(run.run_id, "Interrupt", {"intent": "resolve"}, scope="approvals:respond"))
    unknown = handler(mint_event(run.run_id, "Interrupt", {"intent": "resolve", "admin": True}))
    intent = handler(mint_event(run.run_id, "Interrupt", {"intent": "delete"}))
    ttl = handler(mint_event(run.run_id, "Interrupt", {"intent": "inspect", "ttlSeconds": 0}))
    missing = handler(mint_event(run.run_id, "Elsewhere", {"intent": "inspect"}))
    # Then 403, 400, 400, 400 and 404
    assert no_scope["statusCode"] == 403
    assert [r["statusCode"] for r in (unknown, intent, ttl)] == [400, 400, 400]
    assert missing["statusCode"] == 404


def test_get_and_head_any_number_of_times_leave_the_interrupt_pending(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a suspended run and a resolve link
    run = suspended(harness)
    token = minted(run)["token"]
    before = snapshot_and_events(dynamodb, table_name, run.run_id)
    inspect = Handler("inspect_by_token")
    # When the link is fetched as JSON, as HTML and with HEAD, many times over
    answers = [inspect(token_event(token)) for _ in range(5)]
    pages = [inspect(token_event(token, accept=BROWSER_ACCEPT)) for _ in range(3)]
    heads = [inspect(token_event(token, method="HEAD")) for _ in range(3)]
    # Then every answer is 200: JSON is the InterruptPayload verbatim, with where it waits in headers
    assert {a["statusCode"] for a in answers + pages + heads} == {200}
    assert json.loads(answers[0]["body"]) == APPROVAL
    headers = answers[0]["headers"]
    assert headers["Waitgate-Run-Id"] == run.run_id
    assert headers["Waitgate-Node-Id"] == "Interrupt"
    assert headers["Waitgate-Status"] == "pending"
    assert headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
    assert heads[0]["body"] == "" and heads[0]["headers"]["Waitgate-Status"] == "pending"
    # And nothing changed: same snapshot status, no event written, the execution still waits
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == before == ("waiting-approval", 2)
    assert harness.sfn.describe_execution(executionArn=run.execution_arn)["status"] == "RUNNING"


def test_resolve_by_token_decides_as_the_tokens_sub_then_the_link_is_spent(harness: WorkflowHarness) -> None:
    # Given a suspended run and bob's resolve link
    run = suspended(harness)
    token = minted(run)["token"]
    # When the link POSTs an accept
    answer = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    # Then 200 resolved, decided by bob (the token's sub), and the execution goes on with that decision
    assert answer["statusCode"] == 200, answer["body"]
    assert answer["headers"]["Referrer-Policy"] == "no-referrer"
    body = json.loads(answer["body"])
    assert body["status"] == "resolved"
    assert body["resumeValue"]["decidedBy"] == "bob"
    assert body["resumeValue"]["votes"][0]["principal"] == "bob"
    ended = harness.wait_for_end(run.execution_arn)
    assert ended["status"] == "SUCCEEDED"
    assert json.loads(ended["output"]) == body["resumeValue"]
    # And afterwards the same link answers 409 to GET and POST, and HTML clients get a readable 409 page
    again = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    problem_of(again, 409, "interrupt_already_resolved")
    problem_of(Handler("inspect_by_token")(token_event(token)), 409, "interrupt_already_resolved")
    page = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    assert page["statusCode"] == 409
    assert page["headers"]["Content-Type"].startswith("text/html")
    assert "Already resolved" in page["body"]


def test_an_inspect_token_cannot_resolve(harness: WorkflowHarness, dynamodb: Any, table_name: str) -> None:
    # Given a view-only link
    run = suspended(harness)
    token = minted(run, {"intent": "inspect"})["token"]
    # When it is used to view, then to resolve
    viewed = Handler("inspect_by_token")(token_event(token))
    refused = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    # Then viewing works, resolving is 403 and nothing changed
    assert viewed["statusCode"] == 200
    problem_of(refused, 403, "forbidden")
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == ("waiting-approval", 2)


def test_every_broken_token_gets_the_same_401(harness: WorkflowHarness) -> None:
    # Given a good token and mutations of it
    run = suspended(harness)
    token = minted(run)["token"]
    prefix, alg, kid, payload, mac = token.split(".")
    broken = [
        f"{prefix}.HS256.{kid}.{payload}.{mac}",
        f"{prefix}.{alg}.k2.{payload}.{mac}",
        f"{prefix}.{alg}.legacy.{payload}.{mac}",
        f"{prefix}.{alg}.{kid}.{payload}.{mac[:-2]}",
        f"{prefix}.{alg}.{kid}.{payload}.{mac}=",
        f"{prefix}.{alg}.{kid}.{payload[:-4]}AAAA.{mac}",
        "ow2.hs256.%2e%2e.x.y",
        "x" * 5000,
    ]
    # When each is used on every surface
    answers = [Handler("inspect_by_token")(token_event(b)) for b in broken]
    answers += [
        Handler("resolve_by_token")(token_event(b, method="POST", raw_body="{not json")) for b in broken
    ]
    # Then each is 401 interrupt_token_invalid with one and the same body (the bad body is never read)
    bodies = {json.dumps(problem_of(a, 401, "interrupt_token_invalid"), sort_keys=True) for a in answers}
    assert len(bodies) == 1


def test_a_good_token_with_a_bad_body_is_400(harness: WorkflowHarness) -> None:
    # Given bob's link
    run = suspended(harness)
    token = minted(run)["token"]
    # When the body is not {resumeValue}, or the action is not allowed
    extra = Handler("resolve_by_token")(
        token_event(token, method="POST", body={"resumeValue": ACCEPT, "x": 1})
    )
    action = {"resumeValue": {"action": "delete", "decidedAt": "2026-11-30T10:00:00Z"}}
    wrong = Handler("resolve_by_token")(token_event(token, method="POST", body=action))
    # Then 400 validation_error, as on the run surface
    problem_of(extra, 400, "validation_error")
    problem_of(wrong, 400, "validation_error")


def expired_token(secret: Secret, run: SuspendedRun, interrupt_id: str) -> str:
    from waitgate.adapters.secrets_keyring import normalized_secret
    from waitgate.tokens import Keyring, TokenClaims, mint

    keyring = Keyring.from_secret_json(normalized_secret(json.dumps(secret.current())))
    claims = TokenClaims(
        interrupt_id=interrupt_id,
        run_id=run.run_id,
        node_id="Interrupt",
        tenant_id="default",
        intent="resolve",
        expires_at=datetime(2020, 1, 1, tzinfo=UTC),
        sub="bob",
    )
    return mint(claims, keyring)


def test_an_expired_link_is_410_and_a_person_sees_why(harness: WorkflowHarness, secret: Secret) -> None:
    # Given a link whose expiresAt has passed (signed with the stack's own key)
    run = suspended(harness)
    interrupt_id = Handler("inspect_by_token")(token_event(minted(run)["token"]))["headers"][
        "Waitgate-Interrupt-Id"
    ]
    token = expired_token(secret, run, interrupt_id)
    # When it is opened and used
    viewed = Handler("inspect_by_token")(token_event(token))
    used = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    page = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    # Then 410 interrupt_expired, and the person gets a page that says the link expired
    problem_of(viewed, 410, "interrupt_expired")
    problem_of(used, 410, "interrupt_expired")
    assert page["statusCode"] == 410 and "This link has expired" in page["body"]


def test_a_cancelled_run_invalidates_its_links(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given bob's link, then the run's snapshot says cancelled (lifecycle handling writes this)
    run = suspended(harness)
    token = minted(run)["token"]
    dynamodb.update_item(
        TableName=table_name,
        Key={"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "RUN"}},
        UpdateExpression="SET #s = :c",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":c": {"S": "cancelled"}},
    )
    # When the link is used
    used = Handler("resolve_by_token")(token_event(token, method="POST", body={"resumeValue": ACCEPT}))
    # Then 409 interrupt_already_resolved
    problem_of(used, 409, "interrupt_already_resolved")


def test_rotation_keeps_old_links_working_and_a_removed_kid_fails_closed(
    harness: WorkflowHarness, secret: Secret
) -> None:
    # Given a link signed with k1 (the generated key, normalized from the CloudFormation shape)
    run = suspended(harness)
    old = minted(run)["token"]
    k1 = secret.current()["k1"]
    # When the operator adds k2 and makes it the signing kid
    secret.put({"signingKid": "k2", "keys": {"k1": k1, "k2": random_key()}})
    new_instances()
    new = minted(run)["token"]
    # Then new links are signed with k2, and both old and new links verify
    assert new.split(".")[2] == "k2"
    assert Handler("inspect_by_token")(token_event(old))["statusCode"] == 200
    assert Handler("inspect_by_token")(token_event(new))["statusCode"] == 200
    # When k1 is removed
    secret.put({"signingKid": "k2", "keys": {"k2": secret.current()["keys"]["k2"]}})
    new_instances()
    # Then the old link fails closed (401) and the new one still works
    problem_of(Handler("inspect_by_token")(token_event(old)), 401, "interrupt_token_invalid")
    assert Handler("inspect_by_token")(token_event(new))["statusCode"] == 200


def test_a_warm_instance_learns_a_rotated_in_kid_without_a_restart(
    harness: WorkflowHarness, secret: Secret
) -> None:
    from waitgate.adapters.secrets_keyring import secret_loader
    from waitgate.tokens import CachedKeyring, TokenClaims, mint, verify

    def loader() -> Any:
        return secret_loader(lambda: boto3.client("secretsmanager", region_name="us-east-1"), secret.arn)

    # Given a warm instance that loaded the keyring when only k1 existed (its clock is ours to move)
    ticks = [0.0]
    warm = CachedKeyring(loader(), clock=lambda: ticks[0])
    assert warm.signing_kid == "k1"
    # When k2 is rotated in, another instance mints with it, and the warm one's reload limit has passed
    secret.put({"signingKid": "k2", "keys": {"k1": secret.current()["k1"], "k2": random_key()}})
    claims = TokenClaims("i", "run", "Interrupt", "default", "inspect", datetime(2099, 1, 1, tzinfo=UTC))
    token = mint(claims, CachedKeyring(loader()))
    ticks[0] += 31
    # Then the warm instance verifies it: one early reload on the unknown kid, no restart, TTL not reached
    assert token.split(".")[2] == "k2"
    assert verify(token, warm, datetime.now(UTC)) == claims
