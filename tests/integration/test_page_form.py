"""The human page's form as a browser posts it — `application/x-www-form-urlencoded` to the link's
own URL — through resolve_by_token on moto: the decision reaches the workflow, a browser gets the
answer as a page (what was decided; a refused answer, the form again with the error beside its
field; a vote that does not decide, the page saying it waits), a program that prefers JSON gets
JSON, and a refused form changes nothing."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import boto3
import pytest
from botocore.awsrequest import AWSResponse

from tests.integration.test_token_surfaces import minted, new_instances, snapshot_and_events, suspended
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler
from tests.support.links import BROWSER_ACCEPT, generated_secret, token_event

APPROVAL = {
    "kind": "approval",
    "key": "form",
    "data": {
        "artifactId": "r-1",
        "artifactType": "release",
        "title": "Ship it?",
        "artifact": {"version": "4.2.0", "changes": 37},
        "actions": ["accept", "reject", "refine", "edit-accept"],
    },
}
# What chromium posts for the approval page: every field of the form, the pressed button last
PAGE_FIELDS = {
    "feedback": "",
    "scope": "whole",
    "sectionPath": "",
    "itemIds": "",
    "text": "",
    "editedArtifactData.version": "4.2.0",
    "editedArtifactData.changes": "37",
}
CSP = re.compile(r"default-src 'none'; script-src 'nonce-([\w-]+)'; style-src 'nonce-\1'; ")


@pytest.fixture
def harness(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkflowHarness]:
    secrets = boto3.client("secretsmanager", region_name="us-east-1")
    secret = secrets.create_secret(Name="waitgate-token-secret", SecretString=generated_secret())
    monkeypatch.setenv("TOKEN_SECRET_ARN", secret["ARN"])
    new_instances()
    yield WorkflowHarness()
    new_instances()


def posted_form(token: str, fields: dict[str, str], accept: str = BROWSER_ACCEPT) -> dict[str, Any]:
    """resolve_by_token's answer to the form, as API Gateway hands a form over (base64)."""
    event = token_event(token, method="POST", accept=accept, raw_body="")
    event["headers"]["content-type"] = "application/x-www-form-urlencoded"
    event["body"] = base64.b64encode(urlencode(fields).encode("ascii")).decode("ascii")
    event["isBase64Encoded"] = True
    answer: dict[str, Any] = Handler("resolve_by_token")(event)
    return answer


def assert_page(answer: dict[str, Any], status: int) -> str:
    assert answer["statusCode"] == status, answer["body"]
    headers = answer["headers"]
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert (headers["Cache-Control"], headers["Referrer-Policy"]) == ("no-store", "no-referrer")
    csp = CSP.match(headers["Content-Security-Policy"])
    assert csp, headers["Content-Security-Policy"]
    html: str = answer["body"]
    assert re.findall(r"<script[^>]*>", html) in ([], [f'<script nonce="{csp.group(1)}">'])
    return html


def test_a_browser_without_scripts_accepts_and_reads_what_was_decided(harness: WorkflowHarness) -> None:
    # Given a run waiting on an approval, and bob's link
    run = suspended(harness, APPROVAL)
    token = minted(run)["token"]
    # When his browser posts the form with a comment and the Accept button
    comment = 'Fine <b>& "well"</b>\r\nü'
    answer = posted_form(token, {**PAGE_FIELDS, "feedback": comment, "action": "accept"})
    # Then 200 with a page saying it was recorded, the decision and the comment (escaped)
    html = assert_page(answer, 200)
    assert "<h1>Your answer was recorded</h1>" in html
    assert "<dd>Accept</dd>" in html and "<dd>bob</dd>" in html
    assert "Fine &lt;b&gt;&amp; &quot;well&quot;&lt;/b&gt;" in html and "<b>" not in html
    # And the workflow goes on with the decision the page's script would have sent
    ended = harness.wait_for_end(run.execution_arn)
    output = json.loads(ended["output"])
    assert (ended["status"], output["action"], output["decidedBy"]) == ("SUCCEEDED", "accept", "bob")
    assert output["feedback"] == 'Fine <b>& "well"</b>\nü'  # a text area's CRLF, read as the page shows it
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", output["decidedAt"])
    # And posting it again is refused with a 409 page
    again = posted_form(token, {**PAGE_FIELDS, "action": "accept"})
    assert "Already resolved" in assert_page(again, 409)


def test_a_program_that_prefers_json_gets_the_json_answer(harness: WorkflowHarness) -> None:
    run = suspended(harness, APPROVAL)
    token = minted(run)["token"]
    fields = {
        **PAGE_FIELDS,
        "action": "refine",
        "scope": "section",
        "sectionPath": "intro",
        "text": "Shorter",
    }
    answer = posted_form(token, fields, accept="application/json")
    assert (answer["statusCode"], answer["headers"]["Content-Type"]) == (200, "application/json")
    assert answer["headers"]["Referrer-Policy"] == "no-referrer"
    resume = json.loads(answer["body"])["resumeValue"]
    assert resume["refineFeedback"] == {"scope": "section", "text": "Shorter", "sectionPath": "intro"}


@pytest.mark.parametrize(
    ("fields", "status", "says"),
    [
        ({**PAGE_FIELDS, "action": "accept", "decidedBy": "mallory"}, 400, "field this page does not send"),
        ({**PAGE_FIELDS, "action": "refine"}, 400, "Say what should change"),
        ({**PAGE_FIELDS, "action": "edit-accept", "editedArtifactData.changes": "many"}, 400, "whole number"),
        ({**PAGE_FIELDS, "action": "accept", "feedback": "x" * 5000}, 413, "feedback"),
        ({**PAGE_FIELDS, "action": "accept", "feedback": "x" * 300_000}, 413, "larger than 256 KB"),
        ({**PAGE_FIELDS}, 400, "Press one of the page's buttons"),
    ],
    ids=[
        "unknown field",
        "refine without text",
        "edited artifact, not its type",
        "comment too long",
        "body too large",
        "no button",
    ],
)
def test_a_refused_form_is_a_page_with_its_status_and_reason_and_changes_nothing(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, fields: dict[str, str], status: int, says: str
) -> None:
    # Given a waiting approval and bob's link
    run = suspended(harness, APPROVAL)
    token = minted(run)["token"]
    before = snapshot_and_events(dynamodb, table_name, run.run_id)
    # When the form is posted by a browser, then by a program that prefers JSON
    page = posted_form(token, fields)
    problem = posted_form(token, fields, accept="application/json")
    # Then the browser reads why, with the refusal's status; the program gets problem+json
    html = assert_page(page, status)
    assert "Your answer was not accepted" in html and says in html.replace("&#x27;", "'")
    assert (problem["statusCode"], problem["headers"]["Content-Type"]) == (status, "application/problem+json")
    assert problem["headers"]["Referrer-Policy"] == "no-referrer"
    assert json.loads(problem["body"])["code"] in {"validation_error", "payload_too_large"}
    # And nothing changed: the interrupt still waits, no event was appended
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == before
    assert Handler("inspect_by_token")(token_event(token))["headers"]["Waitgate-Status"] == "pending"


def test_a_view_only_link_cannot_post_the_form(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    run = suspended(harness, APPROVAL)
    token = minted(run, {"intent": "inspect", "sub": "bob"})["token"]
    before = snapshot_and_events(dynamodb, table_name, run.run_id)
    html = assert_page(posted_form(token, {**PAGE_FIELDS, "action": "accept"}), 403)
    assert "This link cannot do that" in html
    assert snapshot_and_events(dynamodb, table_name, run.run_id) == before


def test_a_vote_of_a_quorum_is_recorded_and_the_page_says_it_still_waits(harness: WorkflowHarness) -> None:
    data = {**APPROVAL["data"], "requiredApprovals": 2, "approversList": ["bob", "carol"]}
    run = suspended(harness, {**APPROVAL, "data": data})
    token = minted(run)["token"]
    html = assert_page(posted_form(token, {**PAGE_FIELDS, "action": "accept"}), 202)
    assert "Your vote is recorded" in html and "Waiting for 1 more approval." in html
    assert 'name="action" value="accept"' not in html  # not the form again
    assert harness.sfn.describe_execution(executionArn=run.execution_arn)["status"] == "RUNNING"
    # And reopening the link says the same
    reopened = Handler("inspect_by_token")(token_event(token, accept=BROWSER_ACCEPT))
    assert reopened["statusCode"] == 200 and "Waiting for 1 more approval." in reopened["body"]


def test_a_clarification_form_answers_each_question_typed_by_its_schema(harness: WorkflowHarness) -> None:
    questions = [
        {"id": "region", "question": "Where?", "schema": {"enum": ["eu-west-1", "us-east-1"]}},
        {"id": "replicas", "question": "How many?", "schema": {"type": "integer", "minimum": 1}},
        {"id": "dry", "question": "Dry run?", "schema": {"type": "boolean"}},
        {"id": "notes", "question": "Anything else?"},
    ]
    run = suspended(harness, {"kind": "clarification", "key": "q", "data": {"questions": questions}})
    token = minted(run)["token"]
    # When replicas is 0 (below its minimum), Then a 400 page naming the question, and nothing resolved
    fields = {"answers.region": "us-east-1", "answers.replicas": "0", "answers.notes": "", "action": "submit"}
    again = assert_page(posted_form(token, fields), 400)
    assert "Enter a whole number, at least 1." in again  # beside the field, what was chosen kept:
    assert re.search(r'value="us-east-1"[^>]* checked>', again) and 'aria-invalid="true"' in again
    # When it is 3, Then the workflow gets typed answers (the unticked box is false)
    assert_page(posted_form(token, {**fields, "answers.replicas": "3"}), 200)
    output = json.loads(harness.wait_for_end(run.execution_arn)["output"])
    assert output == {"answers": {"region": "us-east-1", "replicas": 3, "dry": False, "notes": ""}}


def test_a_custom_form_sends_its_json_answer_box(harness: WorkflowHarness) -> None:
    run = suspended(harness, {"kind": "custom", "key": "c", "data": {"customKind": "acme.label"}})
    token = minted(run)["token"]
    html = assert_page(posted_form(token, {"resumeValue": '{"printed": true}', "action": "submit"}), 200)
    assert "What was sent" in html and '<th scope="row">printed</th><td>yes</td>' in html
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == {"printed": True}


def test_a_page_never_says_the_run_goes_on_when_the_engine_says_it_no_longer_waits(
    harness: WorkflowHarness,
) -> None:
    from waitgate.wiring import composition

    # Given a run waiting on an approval whose execution Step Functions no longer knows
    run = suspended(harness, APPROVAL)
    token = minted(run)["token"]

    def gone(**_: Any) -> tuple[AWSResponse, dict[str, Any]]:
        parsed = {
            "Error": {"Code": "TaskDoesNotExist", "Message": "Task does not exist anymore"},
            "ResponseMetadata": {"HTTPStatusCode": 400, "HTTPHeaders": {}},
        }
        return AWSResponse("https://states.invalid/", 400, {}, None), parsed

    events = composition.aws_client("stepfunctions").meta.events
    events.register("before-call.sfn.SendTaskSuccess", gone)
    try:
        # When bob's browser posts the form
        answer = posted_form(token, {**PAGE_FIELDS, "action": "accept"})
    finally:
        events.unregister("before-call.sfn.SendTaskSuccess", gone)
    # Then the page says his answer was recorded, and that nothing goes on with it
    html = assert_page(answer, 200)
    assert "<h1>Your answer was recorded</h1>" in html
    assert "no longer waiting for it" in html and "The run goes on" not in html


READS = {"GetItem", "BatchGetItem", "Query", "Scan"}


@pytest.mark.parametrize(
    ("fields", "status"),
    [({**PAGE_FIELDS, "action": "accept"}, 202), ({**PAGE_FIELDS, "action": "refine"}, 400)],
    ids=["a vote", "a refused answer"],
)
def test_a_posted_form_reads_the_interrupt_once_on_dynamodb(
    harness: WorkflowHarness, fields: dict[str, str], status: int
) -> None:
    from waitgate.wiring import composition

    # Given a 2-of-2 approval and bob's link
    data = {**APPROVAL["data"], "requiredApprovals": 2, "approversList": ["bob", "carol"]}
    token = minted(suspended(harness, {**APPROVAL, "data": data}))["token"]
    calls: list[str] = []

    def called(model: Any, **_: Any) -> None:
        calls.append(model.name)

    events = composition.aws_client("dynamodb").meta.events
    events.register("before-call.dynamodb", called)
    try:
        # When his browser posts the form
        page = posted_form(token, fields)
    finally:
        events.unregister("before-call.dynamodb", called)
    # Then its page comes from the resolve's one read of the interrupt
    assert_page(page, status)
    assert [call for call in calls if call in READS] == ["BatchGetItem"], calls
