"""Webhooks in, on the local stack (docs/webhooks.md): runs of the generic workflow await
`payment.settled` of an order; the demo sources of local.json sign events exactly as the providers
do, read from that file alone, and post them to `POST /webhooks/{source}` over HTTP."""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any
from urllib.parse import quote

import pytest

from tests.e2e.conftest import HttpAnswer, LocalStackHandle, run_local
from tests.e2e.test_kinds_e2e import SampleRun, token_for, wait_for
from tests.support.webhook_senders import signed_delivery, stripe_event

pytestmark = pytest.mark.e2e
SETTLED = "payment.settled"


def awaiting(stack: LocalStackHandle, correlation: Any) -> SampleRun:
    payload = {
        "kind": "external-event",
        "key": "payment",
        "data": {"eventType": SETTLED, "correlation": correlation},
    }
    return SampleRun(stack, "interrupt", {"interrupt": payload})


def order() -> str:
    return f"o-{uuid.uuid4().hex[:10]}"


def send(stack: LocalStackHandle, source: str, body: Any, **options: Any) -> HttpAnswer:
    entry = stack.description["webhooks"][source]
    raw, headers = signed_delivery(entry, body, **options)
    path = entry["url"].removeprefix(stack.api_url)
    return stack.http.request("POST", path, data=raw, headers=headers)


def listed(stack: LocalStackHandle, source: str, status: str = "unmatched") -> list[dict[str, Any]]:
    answer = stack.http.get(
        f"/webhooks/events?source={source}&status={status}", token=token_for(stack, "ops", "runs:read")
    )
    assert answer.status == 200, answer.body
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def test_local_json_lists_one_demo_source_per_scheme(local_stack: LocalStackHandle) -> None:
    webhooks = local_stack.description["webhooks"]
    assert {entry["scheme"] for entry in webhooks.values()} == {
        "standard-webhooks",
        "stripe",
        "github",
        "hmac-sha256",
    }
    for name, entry in webhooks.items():
        assert entry["url"] == f"{local_stack.api_url}/webhooks/{name}"
        assert {"secret", "typePath", "dataPath"} <= set(entry)


def test_a_standard_webhooks_event_and_a_stripe_event_resolve_the_runs_awaiting_them(
    local_stack: LocalStackHandle,
) -> None:
    # Given two runs awaiting payment.settled, each of its own order
    first_order, second_order = order(), order()
    first, second = (
        awaiting(local_stack, {"orderId": first_order}),
        awaiting(local_stack, {"orderId": second_order}),
    )
    first.suspended_at("Interrupt")
    second.suspended_at("Interrupt")
    # When a Standard Webhooks event and a Stripe-style event carry their orders
    event = {"type": SETTLED, "data": {"orderId": first_order, "amount": 1999}}
    answer = send(local_stack, "demo-standard", event)
    assert (answer.status, answer.json()["status"]) == (200, "matched"), answer.body
    stripe = stripe_event(SETTLED, {"orderId": second_order})
    answer = send(local_stack, "demo-stripe", stripe)
    assert (answer.status, answer.json()["status"]) == (200, "matched"), answer.body
    # Then each run goes on with its event (the Stripe source resumes with data.object)
    assert first.output() == event
    assert second.output() == stripe["data"]["object"]
    assert first.types("updates") == ["interrupt.requested", "interrupt.resolved", "run.status_changed"]
    first.assert_events_valid()


def test_an_event_for_another_order_resolves_nothing_and_is_listed_unmatched(
    local_stack: LocalStackHandle,
) -> None:
    waiting_order, other_order = order(), order()
    run = awaiting(local_stack, {"orderId": waiting_order})
    run.suspended_at("Interrupt")
    answer = send(local_stack, "demo-standard", {"type": SETTLED, "data": {"orderId": other_order}})
    assert (answer.status, answer.json()["status"]) == (200, "kept")
    assert run.snapshot()[1]["status"] == "waiting-external"
    assert [
        e["data"] for e in listed(local_stack, "demo-standard") if e["data"].get("orderId") == other_order
    ] == [{"orderId": other_order}]
    # And `waitgate webhooks events` lists it too
    printed = run_local(
        ["webhooks", "events", "--source", "demo-standard", "--status", "unmatched", "--json"],
        local_stack.environment,
    )
    assert printed.returncode == 0, printed.stderr
    assert other_order in printed.stdout


def test_an_event_sent_before_the_run_suspends_resolves_it_the_moment_it_suspends(
    local_stack: LocalStackHandle,
) -> None:
    early_order = order()
    event = {"type": SETTLED, "data": {"orderId": early_order}}
    answer = send(local_stack, "demo-hmac", event)
    assert (answer.status, answer.json()["status"]) == (200, "kept")
    # When the run asks for it: resolved at once, nobody notified, the debug log says it came early
    run = awaiting(local_stack, {"orderId": early_order})
    assert run.output() == event
    assert run.types("updates") == ["interrupt.requested", "interrupt.resolved", "run.status_changed"]
    debug = run.events("debug")
    assert [e["payload"]["early"] for e in debug if e["type"] == "webhook.matched"] == [True]
    assert not [e for e in debug if e["type"].startswith("notification.")]
    run.assert_events_valid()


def test_the_same_event_delivered_three_times_resolves_once(local_stack: LocalStackHandle) -> None:
    thrice = order()
    run = awaiting(local_stack, {"orderId": thrice})
    run.suspended_at("Interrupt")
    entry = local_stack.description["webhooks"]["demo-standard"]
    raw, headers = signed_delivery(
        entry, {"type": SETTLED, "data": {"orderId": thrice}}, delivery_id=f"msg_{thrice}"
    )
    path = entry["url"].removeprefix(local_stack.api_url)
    answers = [local_stack.http.request("POST", path, data=raw, headers=headers) for _ in range(3)]
    assert [(a.status, a.json()["status"]) for a in answers] == [
        (200, "matched"),
        (200, "duplicate"),
        (200, "duplicate"),
    ]
    run.output()
    assert run.types("updates").count("interrupt.resolved") == 1


def test_forged_stale_and_wrong_secret_signatures_get_401(local_stack: LocalStackHandle) -> None:
    event = {"type": SETTLED, "data": {"orderId": order()}}
    answers = [
        send(local_stack, "demo-standard", event, secret="whsec_" + "Zm9yZ2VkLWZvcmdlZC1mb3JnZWQtZm9yZ2Vk"),
        send(local_stack, "demo-standard", event, timestamp=int(time.time()) - 3600),
        send(local_stack, "demo-stripe", stripe_event(SETTLED, {"orderId": "x"}), secret="whsec_wrong"),
        send(local_stack, "demo-github", event, secret="wrong", event_type=SETTLED),
        local_stack.http.request("POST", "/webhooks/nobody", data=json.dumps(event).encode()),
    ]
    assert [a.status for a in answers] == [401] * len(answers)
    assert len({a.body for a in answers}) == 1
    assert answers[0].headers["content-type"].startswith("application/problem+json")


def test_a_webhook_racing_a_token_resolve_gives_exactly_one_resolution(local_stack: LocalStackHandle) -> None:
    duel = order()
    run = awaiting(local_stack, {"orderId": duel})
    run.suspended_at("Interrupt")
    minted = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt/tokens",
        {"intent": "resolve", "sub": "payment-provider", "ttlSeconds": 900},
        token=token_for(local_stack, "shop-backend", "interrupts:mint"),
    )
    assert minted.status == 201, minted.body
    by_token = {"via": "token"}
    event = {"type": SETTLED, "data": {"orderId": duel}}
    answers: dict[str, HttpAnswer] = {}
    barrier = threading.Barrier(2)

    def post(name: str, action: Any) -> None:
        barrier.wait()
        answers[name] = action()

    threads = [
        threading.Thread(target=post, args=("hook", lambda: send(local_stack, "demo-standard", event))),
        threading.Thread(
            target=post,
            args=(
                "token",
                lambda: local_stack.http.post(
                    f"/interrupts/{minted.json()['token']}", {"resumeValue": by_token}
                ),
            ),
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    output = run.output()
    assert run.types("updates").count("interrupt.resolved") == 1
    if answers["token"].status == 200:
        assert (output, answers["hook"].json()["status"]) == (by_token, "kept")
    else:
        assert answers["token"].status == 409
        assert (output, answers["hook"].json()["status"]) == (event, "matched")


def test_a_source_added_with_the_cli_signs_and_is_listed(local_stack: LocalStackHandle) -> None:
    secret = f"cli-{uuid.uuid4().hex}"
    added = run_local(
        [
            "webhooks",
            "add-source",
            "--name",
            "acme-hooks",
            "--scheme",
            "hmac-sha256",
            "--secret",
            secret,
            "--signature-header",
            "X-Acme-Signature",
            "--data-path",
            "payload",
        ],
        local_stack.environment,
    )
    assert added.returncode == 0, added.stderr
    sources = run_local(["webhooks", "list-sources"], local_stack.environment)
    assert "acme-hooks" in sources.stdout and secret not in sources.stdout
    acme_order = order()
    run = awaiting(local_stack, acme_order)  # a plain-string correlation: {"id": ...}
    run.suspended_at("Interrupt")
    entry = {"scheme": "hmac-sha256", "secret": secret, "signatureHeader": "X-Acme-Signature"}
    raw, headers = signed_delivery(entry, {"type": SETTLED, "payload": {"id": acme_order}})

    def answered() -> HttpAnswer | None:  # the function instance re-reads its sources within a minute
        answer = local_stack.http.request("POST", "/webhooks/acme-hooks", data=raw, headers=headers)
        return answer if answer.status == 200 else None

    assert wait_for(answered, timeout=90).json()["status"] == "matched"
    assert run.output()["payload"] == {"id": acme_order}


def test_a_person_whose_sub_is_a_webhooks_principal_reads_none_of_its_decisions(
    local_stack: LocalStackHandle,
) -> None:
    # Given a wait the demo-standard source resolved (it decides as `webhook:demo-standard`)
    paid = order()
    run = awaiting(local_stack, {"orderId": paid})
    run.suspended_at("Interrupt")
    answer = send(local_stack, "demo-standard", {"type": SETTLED, "data": {"orderId": paid}})
    assert (answer.status, answer.json()["status"]) == (200, "matched"), answer.body
    assert run.output() == {"type": SETTLED, "data": {"orderId": paid}}
    # When a person whose JWT `sub` is that principal asks for what they decided
    impostor = token_for(local_stack, "webhook:demo-standard", "approvals:respond runs:read")
    for path in ("/interrupts?status=resolved&decidedBy=me", "/interrupts", f"/runs/{run.run_id}"):
        refused = local_stack.http.get(path, token=impostor)
        # Then 403 forbidden problem+json, and nothing of the webhook's decisions
        assert (refused.status, refused.json()["code"]) == (403, "forbidden"), (path, refused.body)
        assert refused.headers["content-type"] == "application/problem+json"
        assert paid.encode() not in refused.body


@pytest.mark.parametrize("limit", ["abc", "1e3", "+5", "²", "①", "0", "101", "5" * 5000])
def test_a_limit_that_is_not_an_advertised_integer_is_400(local_stack: LocalStackHandle, limit: str) -> None:
    ops = token_for(local_stack, "ops", "runs:read")
    answer = local_stack.http.get(f"/webhooks/events?source=demo-standard&limit={quote(limit)}", token=ops)
    assert (answer.status, answer.json()["code"], answer.json()["path"]) == (400, "validation_error", "limit")
    assert answer.headers["content-type"] == "application/problem+json"
