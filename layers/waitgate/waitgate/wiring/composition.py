"""Builds the service's dependencies from AWS adapters, lazily and once per Lambda instance.

boto3, the adapters and the use cases are imported on first use, not at import time: a function's
cold start pays only for what that function uses (docs/performance.md).
"""

from __future__ import annotations

import os
from datetime import timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.run.clock import SystemClock
from waitgate.wiring.boto_clients import CLIENT_RETRIES as CLIENT_RETRIES
from waitgate.wiring.boto_clients import CLIENT_TIMEOUTS as CLIENT_TIMEOUTS
from waitgate.wiring.boto_clients import aws_client as aws_client
from waitgate.wiring.boto_clients import client_config as client_config
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.adapters.powertools_telemetry import PowertoolsTelemetry
    from waitgate.approval.approver_config import ApprovalConfig
    from waitgate.ports import (
        DeadlineScheduler,
        Directory,
        InterruptStore,
        Notifier,
        Telemetry,
        Workflow,
    )
    from waitgate.service.consume_decision import ConsumeDependencies
    from waitgate.service.deliver_resolution import DeliveryDependencies
    from waitgate.service.list_interrupts import InboxDependencies
    from waitgate.service.mint_token import LinkSettings, MintDependencies
    from waitgate.service.record_decision import DecisionDependencies
    from waitgate.service.resolve_interrupt import ResolveDependencies
    from waitgate.service.run_lifecycle import LifecycleDependencies
    from waitgate.service.token_access import TokenDependencies
    from waitgate.tokens import CachedKeyring


@lru_cache(maxsize=1)
def powertools_telemetry() -> PowertoolsTelemetry:
    """EMF metrics in the `waitgate` namespace (POWERTOOLS_METRICS_NAMESPACE), dimension `service`
    (POWERTOOLS_SERVICE_NAME); read from the environment alone, so a function without a table (the
    OpenAPI document's) can log with it too."""
    from waitgate.adapters.powertools_telemetry import PowertoolsTelemetry
    from waitgate.run.telemetry import NAMESPACE

    namespace = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or NAMESPACE
    return PowertoolsTelemetry(namespace, os.environ.get("POWERTOOLS_SERVICE_NAME") or "waitgate")


def telemetry() -> Telemetry:
    return powertools_telemetry()


def log_keys(keys: dict[str, str]) -> None:
    """Keys on every later log line of this invocation (waitgate.wiring.observability)."""
    powertools_telemetry().append_log_keys(keys)


@lru_cache(maxsize=1)
def store() -> InterruptStore:
    from waitgate.adapters.dynamodb_store import DynamoDbStore

    return DynamoDbStore(aws_client("dynamodb"), settings().table_name)


@lru_cache(maxsize=1)
def workflow() -> Workflow:
    """Step Functions for task tokens, Lambda durable functions for callback ids (resume_handles)."""
    from waitgate.adapters.sfn_workflow import StepFunctionsWorkflow
    from waitgate.adapters.workflow_engines import WorkflowEngines

    return WorkflowEngines(StepFunctionsWorkflow(aws_client("stepfunctions")), durable_workflow)


def durable_workflow() -> Workflow:
    """The callback API at DURABLE_ENDPOINT_URL when set (the local stack's runner), else Lambda's own."""
    import boto3

    from waitgate.adapters.durable_workflow import DurableFunctionsWorkflow
    from waitgate.wiring.durable_sdk import check_durable_botocore

    check_durable_botocore()
    endpoint = settings().durable_endpoint_url or None
    return DurableFunctionsWorkflow(boto3.client("lambda", endpoint_url=endpoint, config=client_config()))


def deadline_scheduler() -> DeadlineScheduler | None:
    """EventBridge Scheduler when the template names the group, the target and its role; else none.
    (The escalation steps' target is ESCALATE_FUNCTION_ARN; without it a policy with steps fails.)"""
    from waitgate.adapters.scheduler_deadlines import SchedulerDeadlines

    configured = settings()
    wiring = (configured.schedule_group_name, configured.expire_function_arn, configured.scheduler_role_arn)
    if not all(wiring):
        return None
    return SchedulerDeadlines(
        aws_client("scheduler"),
        configured.schedule_group_name,
        configured.expire_function_arn,
        configured.scheduler_role_arn,
        configured.escalate_function_arn,
        configured.schedule_dead_letter_arn,
    )


def delivery_dependencies() -> DeliveryDependencies:
    from waitgate.service.deliver_resolution import DeliveryDependencies

    return DeliveryDependencies(
        store=store(), workflow=workflow(), clock=SystemClock(), telemetry=telemetry()
    )


def lifecycle_dependencies() -> LifecycleDependencies:
    from waitgate.adapters.dynamodb_run_index import DynamoDbRunIndex
    from waitgate.service.run_lifecycle import LifecycleDependencies

    index = DynamoDbRunIndex(aws_client("dynamodb"), settings().table_name)
    return LifecycleDependencies(store=store(), index=index, clock=SystemClock(), telemetry=telemetry())


@lru_cache(maxsize=1)
def keyring() -> CachedKeyring:
    """The token keyring from TOKEN_SECRET_ARN, fetched on first use and cached in the instance
    (reloaded every 5 minutes, and early when a token names a kid it does not hold)."""
    from waitgate.adapters.secrets_keyring import secret_loader
    from waitgate.tokens import CachedKeyring, KeyringError

    secret_arn = settings().token_secret_arn
    if not secret_arn:
        raise KeyringError("TOKEN_SECRET_ARN is not set: this host cannot sign or verify links")
    return CachedKeyring(secret_loader(lambda: aws_client("secretsmanager"), secret_arn))


def link_settings() -> LinkSettings:
    from waitgate.service.mint_token import LinkSettings

    configured = settings()
    return LinkSettings(timedelta(seconds=configured.token_lifetime_seconds), public_base_url())


def notice_link_settings() -> LinkSettings:
    """The links notifications carry (e-mail, Slack, the topic's other subscribers, reminders, a
    fresh link): until the interrupt's deadline, at most LINK_MAX_HOURS (`link_for` caps them)."""
    from waitgate.service.mint_token import LinkSettings

    return LinkSettings(timedelta(hours=settings().notice_link_max_hours), public_base_url())


def token_dependencies() -> TokenDependencies:
    from waitgate.service.token_access import TokenDependencies

    return TokenDependencies(
        store=store(),
        keyring=keyring(),
        clock=SystemClock(),
        telemetry=telemetry(),
        directory=directory(),
        approval=approval_config(),
    )


def mint_dependencies() -> MintDependencies:
    from waitgate.service.mint_token import MintDependencies

    return MintDependencies(store=store(), keyring=keyring(), clock=SystemClock(), links=link_settings())


def consume_dependencies() -> ConsumeDependencies:
    from waitgate.adapters.dynamodb_consumed_decisions import DynamoDbConsumedDecisions
    from waitgate.service.consume_decision import ConsumeDependencies

    consumed = DynamoDbConsumedDecisions(aws_client("dynamodb"), settings().table_name)
    return ConsumeDependencies(store=store(), consumed=consumed, clock=SystemClock())


def decision_dependencies() -> DecisionDependencies:
    from waitgate.service.record_decision import DecisionDependencies

    return DecisionDependencies(
        store=store(), clock=SystemClock(), default_threshold=settings().escalation_threshold
    )


def directory() -> Directory:
    """The DynamoDB directory (DIRECTORY_TABLE_NAME); without one, nobody is in any group or role."""
    from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
    from waitgate.approval.approver_config import NoDirectory

    name = settings().directory_table_name
    return DynamoDbDirectory(aws_client("dynamodb"), name) if name else NoDirectory()


def notifier() -> Notifier | None:
    """SNS on TOPIC_ARN; without a topic, nobody is notified."""
    from waitgate.adapters.sns_notifier import SnsNotifier

    topic_arn = settings().topic_arn
    return SnsNotifier(aws_client("sns"), topic_arn) if topic_arn else None


def approval_config() -> ApprovalConfig:
    from waitgate.approval.approver_config import ApprovalConfig

    configured = settings()
    return ApprovalConfig(
        override_principals=frozenset(configured.override_principals),
        ref_kinds=frozenset(configured.ref_kinds),
    )


def resolve_dependencies() -> ResolveDependencies:
    from waitgate.service.resolve_interrupt import ResolveDependencies

    return ResolveDependencies(
        store=store(),
        workflow=workflow(),
        clock=SystemClock(),
        directory=directory(),
        approval=approval_config(),
        notifier=notifier(),
        telemetry=telemetry(),
    )


def inbox_dependencies() -> InboxDependencies:
    from waitgate.adapters.dynamodb_inbox import DynamoDbInbox
    from waitgate.service.list_interrupts import InboxDependencies

    return InboxDependencies(
        inbox=DynamoDbInbox(aws_client("dynamodb"), settings().table_name, settings().pending_index),
        clock=SystemClock(),
        keyring=keyring(),
        directory=directory(),
        approval=approval_config(),
    )


@lru_cache(maxsize=1)
def public_base_url() -> str:
    """PUBLIC_BASE_URL when set; else the SSM parameter the template fills with the API's URL."""
    configured = settings()
    if configured.public_base_url or not configured.public_base_url_parameter:
        return configured.public_base_url
    from waitgate.adapters.ssm_parameters import parameter_value

    return parameter_value(aws_client("ssm"), configured.public_base_url_parameter).rstrip("/")


WIRING_MODULES = (
    "waitgate.wiring.composition",
    "waitgate.wiring.channel_composition",
    "waitgate.wiring.webhook_composition",
    "waitgate.wiring.request_composition",
    "waitgate.wiring.stream_composition",
    "waitgate.wiring.subscription_composition",
    "waitgate.wiring.reconcile_composition",
    "waitgate.wiring.slack_ack_composition",
    "waitgate.wiring.boto_clients",
    "waitgate.wiring.delivery_queue",
    "waitgate.wiring.inbox_sign_in",
)


def forget_instances() -> None:
    """Forget the settings and every instance built from them (clients, stores, keyrings), in each
    wiring module loaded: what a test or a bench does after it changes the environment."""
    import sys

    settings.cache_clear()
    for name in WIRING_MODULES:
        module = sys.modules.get(name)
        for value in vars(module).values() if module else ():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
