"""moto in-process, with the table built from template.yaml's own properties (no drift possible)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from local.patches import (
    async_invocations,
    moto_queries,
    past_schedules,
    serializer_aliases,
    state_data_limit,
    strict_requests,
)
from local.patches.moto_atomicity import serialize_dynamodb_operations
from local.patches.transaction_tokens import honour_client_request_tokens
from local.template.sam_template import table_properties
from tests.integration.kind_steps import KindSteps
from tests.integration.workflow_harness import WorkflowHarness
from tests.support import coverage_boundary
from tests.support.links import Inbox, generated_secret

REGION = "us-east-1"
strict_requests.install()  # every boto3 call of the session is checked against its service model
coverage_boundary.install()  # moto's answers untraced, our handlers inside them traced (pytest-cov)


@pytest.fixture(autouse=True)
def refuses_what_aws_refuses() -> Iterator[None]:
    """A test whose code made a call AWS would refuse fails, even when the code caught the refusal
    (a test that means to make one takes them with `strict_requests.expected_refusals()`)."""
    strict_requests.TALLY.take()
    yield
    violations = strict_requests.TALLY.take()
    assert not violations, "AWS would refuse: " + "; ".join(map(str, violations))


@pytest.fixture(autouse=True)
def aws_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": REGION,
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)


@pytest.fixture
def aws() -> Iterator[None]:
    serialize_dynamodb_operations()
    moto_queries.install()
    serializer_aliases.install()  # moto's responses as they were, at a fraction of the CPU
    honour_client_request_tokens()
    state_data_limit.install()  # the limits moto lacks, as the local stack has them (local/patches)
    past_schedules.install()
    async_invocations.install()
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        yield


def create_table_from_template(
    client: Any, logical_id: str, name: str, parameters: dict[str, Any] | None = None
) -> str:
    properties = table_properties(logical_id, parameters)
    arguments = {
        key: properties[key]
        for key in (
            "AttributeDefinitions",
            "KeySchema",
            "BillingMode",
            "StreamSpecification",
            "GlobalSecondaryIndexes",
        )
        if key in properties
    }
    if "StreamSpecification" in arguments:
        arguments["StreamSpecification"] = {"StreamEnabled": True, **arguments["StreamSpecification"]}
    client.create_table(TableName=name, **arguments)
    ttl = properties.get("TimeToLiveSpecification")
    if ttl:
        client.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    return name


@pytest.fixture
def dynamodb(aws: None) -> Any:
    return boto3.client("dynamodb", region_name=REGION)


@pytest.fixture
def table_name(dynamodb: Any) -> str:
    return create_table_from_template(dynamodb, "InterruptsTable", "waitgate-interrupts-test")


@pytest.fixture
def sfn(aws: None) -> Any:
    return boto3.client("stepfunctions", region_name=REGION)


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, table_name: str) -> None:
    """What Globals.Function.Environment gives every function, pointed at the moto resources."""
    monkeypatch.setenv("TABLE_NAME", table_name)
    monkeypatch.setenv("POWERTOOLS_SERVICE_NAME", "waitgate")
    secrets = boto3.client("secretsmanager", region_name=REGION)
    secret = secrets.create_secret(Name="waitgate-test-token-secret", SecretString=generated_secret())
    monkeypatch.setenv("TOKEN_SECRET_ARN", secret["ARN"])
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://links.example.com")
    forget_wired_parts()


KEPT_WIRING = {"waitgate.wiring.boto_clients"}  # a client per service: moto's mock answers them in any test


def forget_wired_parts() -> None:
    """Every lazily built part of every wiring module loaded so far (settings, compositions, clients,
    sources) forgotten: one test's environment is never read by the next (a webhook composition kept
    from a test without sources refused the next test's signed delivery with 401)."""
    wiring = [
        module
        for name, module in list(sys.modules.items())
        if name.startswith("waitgate.wiring.") and name not in KEPT_WIRING
    ]
    for module in wiring:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.fixture
def steps(environment: None) -> KindSteps:
    """The kinds' steps on the template's state machine (a module with steps of its own overrides it)."""
    return KindSteps(WorkflowHarness())


@pytest.fixture
def dynamodb_calls() -> Iterator[list[str]]:
    """The DynamoDB operations the handlers' client sends, while the test runs."""
    from waitgate.wiring import composition

    sent: list[str] = []
    client = composition.aws_client("dynamodb")

    def record(model: Any = None, **_: Any) -> None:
        sent.append(model.name)

    client.meta.events.register("before-call.dynamodb", record)
    yield sent
    client.meta.events.unregister("before-call.dynamodb", record)


@pytest.fixture
def inbox(environment: None, dynamodb: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Inbox]:
    """Notices on: the notifications topic (its messages read from an SQS queue subscribed to it), the
    directory table and a token secret of their own, and every wiring instance built again from them
    (before and after). A module whose notices need other parts defines its own."""
    secrets = boto3.client("secretsmanager", region_name=REGION)
    sns = boto3.client("sns", region_name=REGION)
    topic_arn = sns.create_topic(Name="waitgate-notifications")["TopicArn"]
    directory = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-test")
    secret = secrets.create_secret(Name="waitgate-notice-links", SecretString=generated_secret())
    monkeypatch.setenv("TOKEN_SECRET_ARN", secret["ARN"])
    monkeypatch.setenv("TOPIC_ARN", topic_arn)
    monkeypatch.setenv("DIRECTORY_TABLE_NAME", directory)
    from waitgate.wiring import composition

    composition.forget_instances()
    yield Inbox.subscribe(boto3.client("sqs", region_name=REGION), sns, topic_arn)
    composition.forget_instances()
