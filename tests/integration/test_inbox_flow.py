"""The inbox on moto, with the table built from template.yaml: the sparse index of pending interrupts
(an interrupt leaves it in the write that ends it, that write alone), the listInterrupts handler and
its pages, the inbox page and the interrupt it opens, and the page's form sent to the run surface."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.fakes.memory import FixedClock
from tests.integration.kind_steps import KindSteps
from tests.support.handlers import http_event, sample_event

APPROVAL: dict[str, Any] = {
    "kind": "approval",
    "key": "ship",
    "data": {"artifactId": "a1", "artifactType": "doc", "title": "Ship it?", "actions": ["accept", "reject"]},
}
INDEX = "InboxByDeadline"


def approval(**data: Any) -> dict[str, Any]:
    return {**APPROVAL, "data": {**APPROVAL["data"], **data}}


def indexed(dynamodb: Any, table: str, tenant: str = "default") -> list[dict[str, Any]]:
    answer = dynamodb.query(
        TableName=table,
        IndexName=INDEX,
        KeyConditionExpression="pendingTenant = :t",
        ExpressionAttributeValues={":t": {"S": f"TENANT#{tenant}"}},
    )
    return list(answer["Items"])


def list_event(sub: str = "alice", scope: str = "approvals:respond", tenant: str | None = None, **query: str):
    event = sample_event("list_interrupts")
    claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
    claims.update(sub=sub, scope=scope)
    if tenant is None:
        claims.pop("tenant", None)
    else:
        claims["tenant"] = tenant
    event["rawQueryString"] = urlencode(query)
    event["queryStringParameters"] = dict(query) or None
    return event


def listed(steps: KindSteps, **options: Any) -> tuple[int, Any]:
    answer = steps.handler("list_interrupts")(list_event(**options))
    return answer["statusCode"], json.loads(answer["body"])


def test_the_index_holds_pending_interrupts_only_and_a_resolution_leaves_it_in_its_own_write(
    steps: KindSteps, dynamodb: Any, table_name: str, dynamodb_calls: list[str]
) -> None:
    # Given a suspended approval: its node item is in the pending index, without its task token
    run, _ = steps.suspend(approval(approversList=["alice"]))
    (entry,) = indexed(dynamodb, table_name)
    assert entry["runId"]["S"] == run.run_id and "taskToken" not in entry
    assert entry["pendingOrder"]["S"].startswith("~#")  # no deadline: after every one that has one
    # When alice resolves it on the run surface
    dynamodb_calls.clear()
    status, _ = steps.resolve(
        run.run_id, "Interrupt", {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
    )
    # Then one transaction committed the decision, and the index no longer holds it: no other write did
    assert status == 200
    assert (
        dynamodb_calls.count("TransactWriteItems") == 1
        and "PutItem" not in dynamodb_calls
        and "DeleteItem" not in dynamodb_calls
    )
    assert indexed(dynamodb, table_name) == []
    node = dynamodb.get_item(
        TableName=table_name, Key={"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    )
    assert "pendingTenant" not in node["Item"] and "pendingOrder" not in node["Item"]
    # And alice's receipt was written by that same transaction
    receipts = dynamodb.query(
        TableName=table_name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": "DECIDED#default#alice"}},
    )["Items"]
    assert [r["runId"]["S"] for r in receipts] == [run.run_id] and "ttl" in receipts[0]


def test_a_vote_keeps_it_indexed_and_the_deadline_takes_it_out(
    steps: KindSteps, dynamodb: Any, table_name: str
) -> None:
    from waitgate.run.records import RunRef
    from waitgate.service.deliver_resolution import DeliveryDependencies
    from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
    from waitgate.wiring import composition

    run, _ = steps.suspend(
        {**approval(approversList=["alice", "ben"], requiredApprovals=2), "timeoutMs": 60_000}
    )
    assert (
        steps.resolve(run.run_id, "Interrupt", {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"})[0]
        == 202
    )
    (entry,) = indexed(dynamodb, table_name)
    assert json.loads(entry["inboxSummary"]["S"])["approval"]["votes"][0]["principal"] == "alice"
    record = composition.store().load(RunRef("default", run.run_id), "Interrupt").interrupt
    assert record is not None and record.deadline is not None
    later = FixedClock(composition.SystemClock().now() + timedelta(minutes=2))
    deps = DeliveryDependencies(composition.store(), composition.workflow(), later)
    assert (
        expire_interrupt(ExpiryRequest(RunRef("default", run.run_id), "Interrupt", record.interrupt_id), deps)
        == "expired"
    )
    assert indexed(dynamodb, table_name) == []


def test_list_interrupts_answers_each_caller_their_own_by_the_directory(
    steps: KindSteps, dynamodb: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.integration.conftest import create_table_from_template
    from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
    from waitgate.wiring import composition, settings

    # Given the directory puts alice in release-managers, and three approvals
    table = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-inbox")
    DynamoDbDirectory(dynamodb, table).add_member("default", "group", "release-managers", "alice")
    monkeypatch.setenv("DIRECTORY_TABLE_NAME", table)
    settings.settings.cache_clear()
    composition.aws_client.cache_clear()
    by_list, _ = steps.suspend(approval(approversList=["alice"]))
    by_group, _ = steps.suspend(approval(approverGroupRefs=["release-managers"]))
    by_ben, _ = steps.suspend(approval(approversList=["ben"]))
    # Then alice sees hers by list and by group, ben his
    status, body = listed(steps)
    assert status == 200 and sorted(i["runId"] for i in body["items"]) == sorted(
        [by_list.run_id, by_group.run_id]
    )
    assert {i["matchedBy"] for i in body["items"]} == {"list", "group:release-managers"}
    assert {i["title"] for i in body["items"]} == {"Ship it?"}
    assert [i["runId"] for i in listed(steps, sub="ben")[1]["items"]] == [by_ben.run_id]
    # And another tenant nothing; eligible=any needs runs:read
    assert listed(steps, tenant="acme")[1] == {"items": []}
    assert listed(steps, eligible="any")[0] == 403
    assert len(listed(steps, scope="runs:read", eligible="any")[1]["items"]) == 3


def test_pages_follow_next_to_the_end_and_a_forged_cursor_is_400(steps: KindSteps) -> None:
    runs = {steps.suspend(approval(approversList=["alice"]))[0].run_id for _ in range(5)}
    seen: list[str] = []
    query: dict[str, str] = {"limit": "2"}
    for _ in range(5):
        status, page = listed(steps, **query)
        assert status == 200 and len(page["items"]) <= 2
        seen += [i["runId"] for i in page["items"]]
        if "next" not in page:
            break
        query["cursor"] = page["next"]
    assert sorted(seen) == sorted(runs) and "next" not in page
    for forged in ("not-a-cursor", "WyJ4Il0"):
        status, problem = listed(steps, cursor=forged)
        assert (status, problem["path"]) == (400, "cursor")


def test_the_pages_form_resolves_on_the_run_surface_as_on_the_link(steps: KindSteps) -> None:
    # Given alice's approval
    run, _ = steps.suspend(approval(approversList=["alice"]))
    # When the inbox sends the page's form (urlencoded) with her JWT
    event = http_event(run.run_id, "Interrupt", None, raw_body="action=accept&feedback=Fine")
    event["headers"]["content-type"] = "application/x-www-form-urlencoded"
    answer = steps.handler("resolve_by_run")(event)
    # Then it is resolved with the resume value the link page's form makes
    assert answer["statusCode"] == 200, answer["body"]
    output = steps.output_of(run)
    assert (output["action"], output["feedback"], output["decidedBy"]) == ("accept", "Fine", "alice")
    # And a field the page does not render is refused, naming it; an outsider gets 403 first
    other, _ = steps.suspend(approval(approversList=["alice"]))
    for sub, body, expected in (
        ("alice", "action=accept&evil=1", 400),
        ("mallory", "action=accept&evil=1", 403),
    ):
        event = http_event(other.run_id, "Interrupt", None, raw_body=body, sub=sub)
        event["headers"]["content-type"] = "application/x-www-form-urlencoded"
        assert steps.handler("resolve_by_run")(event)["statusCode"] == expected


def page_event(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv("INBOX_CLIENT_ID", "inbox-client")
    monkeypatch.setenv("INBOX_AUTHORIZATION_ENDPOINT", "https://login.example.com/oauth2/authorize")
    monkeypatch.setenv("INBOX_TOKEN_ENDPOINT", "https://login.example.com/oauth2/token")
    from waitgate.wiring import settings

    settings.settings.cache_clear()
    return sample_event("inbox_page")


def test_the_inbox_page_is_strict_csp_with_nothing_inline_but_under_its_nonce(
    steps: KindSteps, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = steps.handler("inbox_page")(page_event(monkeypatch))
    assert answer["statusCode"] == 200 and answer["headers"]["Content-Type"].startswith("text/html")
    policy, html = answer["headers"]["Content-Security-Policy"], answer["body"]
    nonce = re.search(r"script-src 'nonce-([^']+)'", policy)
    assert nonce is not None and "unsafe" not in policy
    assert "connect-src 'self' https://login.example.com;" in policy  # the token endpoint, no other origin
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    tags = re.findall(r"<(script|style)\b([^>]*)>", html)
    assert tags and all(f'nonce="{nonce.group(1)}"' in attributes for _, attributes in tags)
    assert not re.search(r"\son[a-z]+=", html) and "src=" not in html and "href=" not in html
    assert "client_secret" not in html and "localStorage" not in html
    assert answer["headers"]["Cache-Control"] == "no-store"
    config = json.loads(re.search(r'id="inbox-config"[^>]*>(.*?)</script>', html, re.DOTALL).group(1))
    assert config["clientId"] == "inbox-client" and config["base"] == ""


def test_the_inbox_page_says_when_sign_in_is_not_configured(steps: KindSteps) -> None:
    answer = steps.handler("inbox_page")(sample_event("inbox_page"))
    assert answer["statusCode"] == 200 and "Sign-in is not configured" in answer["body"]


def item_event(run_id: str, sub: str, scope: str = "approvals:respond") -> dict[str, Any]:
    event = sample_event("inbox_item")
    event["pathParameters"] = {"runId": run_id, "nodeId": "Interrupt"}
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/inbox/interrupts/{run_id}/Interrupt"
    event["requestContext"]["authorizer"]["jwt"]["claims"].update(sub=sub, scope=scope)
    event["requestContext"]["authorizer"]["jwt"]["claims"].pop("tenant", None)
    return event


def test_an_opened_item_is_the_link_pages_form_for_who_may_act_and_403_for_others(steps: KindSteps) -> None:
    run, _ = steps.suspend(approval(approversList=["alice"]))
    answer = steps.handler("inbox_page")(item_event(run.run_id, "alice"))
    assert answer["statusCode"] == 200, answer["body"]
    fragment = answer["body"]
    assert '<form id="decide" method="post"' in fragment and 'value="accept"' in fragment
    assert "<h1" not in fragment and "<script" not in fragment and "<style" not in fragment
    assert "sandbox" in answer["headers"]["Content-Security-Policy"]
    assert steps.handler("inbox_page")(item_event(run.run_id, "mallory"))["statusCode"] == 403
    viewed = steps.handler("inbox_page")(item_event(run.run_id, "mallory", "runs:read"))
    assert viewed["statusCode"] == 200 and "<form" not in viewed["body"]
    assert steps.handler("inbox_page")(item_event("no-such-run", "alice"))["statusCode"] == 404


def test_pending_interrupts_written_before_the_index_are_backfilled_once(
    steps: KindSteps, dynamodb: Any, table_name: str
) -> None:
    from waitgate.adapters.dynamodb_inbox_backfill import backfill_pending_index

    # Given a pending interrupt as a version without the index wrote it (no index attributes), and a
    # resolved one
    run, _ = steps.suspend(approval(approversList=["alice"]))
    done, _ = steps.suspend(approval(approversList=["alice"]))
    assert (
        steps.resolve(done.run_id, "Interrupt", {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"})[0]
        == 200
    )
    key = {"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    dynamodb.update_item(
        TableName=table_name, Key=key, UpdateExpression="REMOVE pendingTenant, pendingOrder, inboxSummary"
    )
    assert indexed(dynamodb, table_name) == [] and listed(steps)[1]["items"] == []
    # When the backfill runs (a dry run first)
    assert backfill_pending_index(dynamodb, table_name, dry_run=True) == 1
    assert indexed(dynamodb, table_name) == []
    assert backfill_pending_index(dynamodb, table_name) == 1
    # Then the inbox lists it again, and a second run finds nothing to do
    assert [i["runId"] for i in listed(steps)[1]["items"]] == [run.run_id]
    assert backfill_pending_index(dynamodb, table_name) == 0


def test_a_pending_interrupt_that_changes_during_the_backfill_is_left_to_its_own_write(
    steps: KindSteps, dynamodb: Any, table_name: str
) -> None:
    from waitgate.adapters.dynamodb_inbox_backfill import backfill_pending_index

    # Given a pending interrupt without index keys, which is voted on between the Scan and the Update
    run, _ = steps.suspend(approval(approversList=["alice"]))
    key = {"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}
    dynamodb.update_item(
        TableName=table_name, Key=key, UpdateExpression="REMOVE pendingTenant, pendingOrder, inboxSummary"
    )

    def vote_first(**_: Any) -> None:
        dynamodb.meta.events.unregister("before-call.dynamodb.UpdateItem", vote_first)
        dynamodb.update_item(
            TableName=table_name,
            Key=key,
            UpdateExpression="SET version = version + :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
        )

    dynamodb.meta.events.register("before-call.dynamodb.UpdateItem", vote_first)
    # When the backfill runs, Then it counts nothing and leaves the changed item as its write left it
    assert backfill_pending_index(dynamodb, table_name) == 0
    assert indexed(dynamodb, table_name) == []
