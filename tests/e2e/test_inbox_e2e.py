"""The inbox over the local stack's HTTP, as issue 18 says we will know it works: three pending
interrupts, two of them alice's (one by list, one by group): her inbox lists those two, then one after
she approves; ben sees only the third; a caller of another tenant sees nothing; a quorum item shows
"1 of 2" after one vote. And what the browser's sign-in needs of the local issuer, without a browser:
discovery, authorize, a token for the PKCE verifier only; the SDK's `pending()` pages."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.waiting import wait_for
from waitgate.sdk import WaitgateClient

pytestmark = pytest.mark.e2e
SCOPES = "approvals:respond runs:read"


def approval(title: str, **data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "ship",
        "data": {
            "artifactId": "a",
            "artifactType": "release",
            "title": title,
            "actions": ["accept", "reject"],
            **data,
        },
    }


def start(stack: LocalStackHandle, tenant: str, interrupt: dict[str, Any]) -> str:
    run_id = f"inbox-{uuid.uuid4().hex[:10]}"
    stack.sfn.start_execution(
        stateMachineArn=stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"tenantId": tenant, "interrupt": interrupt}),
    )
    return run_id


def release_team_tenant(stack: LocalStackHandle, prefix: str) -> str:
    """A tenant of its own whose group release-team holds alice (added with `waitgate directory`)."""
    tenant = f"{prefix}{uuid.uuid4().hex[:8]}"
    added = run_local(
        ["directory", "add-member", "--group", "release-team", "--principal", "alice", "--tenant", tenant],
        stack.environment,
    )
    assert added.returncode == 0, added.stderr
    return tenant


def inbox(stack: LocalStackHandle, sub: str, tenant: str, query: str = "status=pending") -> dict[str, Any]:
    answer = stack.http.get(f"/interrupts?{query}", token=stack.jwt(sub, SCOPES, tenant=tenant))
    assert answer.status == 200, answer.body
    assert answer.headers["cache-control"] == "no-store"
    body: dict[str, Any] = answer.json()
    return body


def runs(body: dict[str, Any]) -> set[str]:
    return {item["runId"] for item in body["items"]}


def until(probe: Any, what: str) -> Any:
    """The first truthy result of `probe()`."""
    return wait_for(lambda: probe() or None, what=what)


def test_each_person_sees_what_waits_for_them_and_it_leaves_once_decided(
    local_stack: LocalStackHandle,
) -> None:
    tenant = release_team_tenant(local_stack, "t")
    # Given three pending interrupts: alice's by list, alice's by group, ben's
    by_list = start(local_stack, tenant, approval("By list", approversList=["alice"]))
    by_group = start(local_stack, tenant, approval("By group", approverGroupRefs=["release-team"]))
    bens = start(local_stack, tenant, approval("Ben's", approversList=["ben"]))
    # Then alice's inbox lists her two, ben's only his, and another tenant's caller sees nothing
    until(lambda: runs(inbox(local_stack, "alice", tenant)) == {by_list, by_group}, "alice's two")
    assert runs(inbox(local_stack, "ben", tenant)) == {bens}
    assert inbox(local_stack, "alice", f"other{tenant}")["items"] == []
    # When alice approves the one by list
    answer = local_stack.http.post(
        f"/runs/{by_list}/interrupts/Interrupt",
        {"resumeValue": {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}},
        token=local_stack.jwt("alice", SCOPES, tenant=tenant),
    )
    assert answer.status == 200, answer.body
    # Then her inbox lists one: the index lost it in the resolution's own write
    assert runs(inbox(local_stack, "alice", tenant)) == {by_group}
    # And what she decided lists it
    decided = inbox(local_stack, "alice", tenant, "status=resolved&decidedBy=me")
    assert runs(decided) == {by_list} and decided["items"][0]["action"] == "accept"


def test_a_quorum_item_shows_one_of_two_after_one_vote(local_stack: LocalStackHandle) -> None:
    tenant = f"q{uuid.uuid4().hex[:8]}"
    run_id = start(
        local_stack, tenant, approval("Two of us", approversList=["carol", "dave"], requiredApprovals=2)
    )
    until(lambda: runs(inbox(local_stack, "dave", tenant)) == {run_id}, "the quorum item")
    vote = local_stack.http.post(
        f"/runs/{run_id}/interrupts/Interrupt",
        {"resumeValue": {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}},
        token=local_stack.jwt("carol", SCOPES, tenant=tenant),
    )
    assert vote.status == 202, vote.body
    (item,) = inbox(local_stack, "dave", tenant, f"status=pending&runId={run_id}")["items"]
    progress = item["progress"]
    assert f"{progress['approvals']} of {progress['requiredApprovals']}" == "1 of 2"
    (carols,) = inbox(local_stack, "carol", tenant)["items"]
    assert carols["myVote"]["action"] == "accept"


def test_the_sdk_pages_through_the_inbox(local_stack: LocalStackHandle) -> None:
    tenant = f"s{uuid.uuid4().hex[:8]}"
    started = {start(local_stack, tenant, approval(f"n{n}", approversList=["erin"])) for n in range(3)}
    token = local_stack.jwt("erin", SCOPES, tenant=tenant)
    client = WaitgateClient(local_stack.api_url, token_provider=lambda: token)
    until(lambda: sum(len(p.items) for p in client.pending(limit=100)) == 3, "erin's three")
    pages = list(client.pending(limit=2))
    assert [len(page.items) for page in pages][:1] == [2] and pages[-1].next is None
    assert {item["runId"] for page in pages for item in page.items} == started


def _refused_cursor(stack: LocalStackHandle, sub: str, tenant: str, query: str) -> None:
    answer = stack.http.get(f"/interrupts?{query}", token=stack.jwt(sub, SCOPES, tenant=tenant))
    assert (answer.status, answer.json()["code"], answer.json().get("path")) == (
        400,
        "validation_error",
        "cursor",
    ), answer.body
    assert answer.headers["content-type"] == "application/problem+json"


def test_a_cursor_this_host_did_not_give_or_gave_someone_else_is_400(local_stack: LocalStackHandle) -> None:
    # Given a page of frank's inbox with a next page
    tenant = f"c{uuid.uuid4().hex[:8]}"
    for n in range(3):
        start(local_stack, tenant, approval(f"c{n}", approversList=["frank", "gina"]))
    until(lambda: len(inbox(local_stack, "frank", tenant)["items"]) == 3, "frank's three")
    given = inbox(local_stack, "frank", tenant, "status=pending&limit=1")["next"]
    # When a forged cursor (the store's own layout, without this host's MAC) or an altered one is sent
    position = json.dumps(["~#2026-01-01T00:00:00.000Z#0", "nothing", "Interrupt"]).encode()
    forged = base64.urlsafe_b64encode(position).rstrip(b"=").decode()
    altered = given[:-2] + ("AA" if not given.endswith("AA") else "BB")
    for cursor in (forged, altered, "A" * 60):
        _refused_cursor(local_stack, "frank", tenant, f"status=pending&limit=1&cursor={cursor}")
    # Or frank's own cursor by gina, or with another filter: 400 too
    _refused_cursor(local_stack, "gina", tenant, f"status=pending&limit=1&cursor={given}")
    _refused_cursor(local_stack, "frank", tenant, f"status=pending&limit=1&kind=approval&cursor={given}")
    # And frank's own still leads him on
    assert inbox(local_stack, "frank", tenant, f"status=pending&limit=1&cursor={given}")["items"]


def test_openapi_lists_the_inbox_operations(local_stack: LocalStackHandle) -> None:
    document = local_stack.http.get("/openapi.json").json()
    ids = {
        operation["operationId"]: (method, path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }
    assert ids["listInterrupts"] == ("get", "/interrupts")
    assert ids["getInboxPage"] == ("get", "/inbox")
    assert ids["getInboxItem"] == ("get", "/inbox/interrupts/{runId}/{nodeId}")


def _s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _post_form(url: str, fields: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_local_issuer_signs_a_browser_in_with_pkce(local_stack: LocalStackHandle) -> None:
    # Given local.json's inbox URL and the issuer's discovery document
    assert local_stack.description["inboxUrl"] == local_stack.api_url + "/inbox"
    page = local_stack.http.get("/inbox", headers={"Accept": "text/html"})
    assert page.status == 200 and "script-src 'nonce-" in page.headers["content-security-policy"]
    issuer = local_stack.description["jwt"]["issuer"]
    discovery = json.loads(urllib.request.urlopen(issuer + "/.well-known/openid-configuration").read())
    assert discovery["code_challenge_methods_supported"] == ["S256"]
    # When a browser would sign in as alice of tenant acme, with the page's PKCE challenge
    verifier = secrets.token_urlsafe(48)
    redirect = local_stack.description["inboxUrl"]
    authorize = {
        "response_type": "code", "client_id": "waitgate-local", "redirect_uri": redirect, "state": "s1",
        "code_challenge": _s256(verifier), "code_challenge_method": "S256", "scope": "openid " + SCOPES,
    }  # fmt: skip
    form = urllib.request.urlopen(
        discovery["authorization_endpoint"] + "?" + urllib.parse.urlencode(authorize)
    )
    assert b'name="sub"' in form.read()
    status, headers, _ = _post_form(
        discovery["authorization_endpoint"], {**authorize, "sub": "alice", "tenant": "acme", "scope": SCOPES}
    )
    assert status == 302
    back = urllib.parse.urlsplit(headers["Location"])
    query = dict(urllib.parse.parse_qsl(back.query))
    assert back.path == "/inbox" and query["state"] == "s1"
    exchange = {"grant_type": "authorization_code", "code": query["code"], "redirect_uri": redirect,
                "client_id": "waitgate-local"}  # fmt: skip
    # Then the token endpoint refuses another verifier, and answers the right one once
    assert (
        _post_form(discovery["token_endpoint"], {**exchange, "code_verifier": secrets.token_urlsafe(48)})[0]
        == 400
    )
    status, _, body = _post_form(discovery["token_endpoint"], {**exchange, "code_verifier": verifier})
    assert (
        status == 400 and json.loads(body)["error"] == "invalid_grant"
    )  # the code was used up by the refusal
    status, headers, _ = _post_form(
        discovery["authorization_endpoint"], {**authorize, "sub": "alice", "tenant": "acme", "scope": SCOPES}
    )
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers["Location"]).query))["code"]
    status, _, body = _post_form(
        discovery["token_endpoint"], {**exchange, "code": code, "code_verifier": verifier}
    )
    assert status == 200, body
    token = json.loads(body)["access_token"]
    listed = local_stack.http.get("/interrupts?status=pending", token=token)
    assert listed.status == 200 and listed.json() == {"items": []}
