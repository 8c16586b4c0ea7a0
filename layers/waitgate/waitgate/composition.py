"""Builds the service's dependencies from AWS adapters, lazily and once per Lambda instance.

boto3 is imported on first use, not at import time: a cold start pays only for what it uses.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from waitgate.clock import SystemClock
from waitgate.ids import UlidGenerator
from waitgate.service.agent_decision import DecisionDependencies
from waitgate.service.request import RequestDependencies
from waitgate.service.resolve import ResolveDependencies
from waitgate.settings import settings


@cache
def aws_client(service: str) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(
        retries={"mode": "standard", "max_attempts": 4},
        connect_timeout=3,
        read_timeout=10,
        tcp_keepalive=True,
    )
    return boto3.client(service, config=config)


@lru_cache(maxsize=1)
def store() -> Any:
    from waitgate.adapters.dynamodb_store import DynamoDbStore

    return DynamoDbStore(aws_client("dynamodb"), settings().table_name)


@lru_cache(maxsize=1)
def workflow() -> Any:
    from waitgate.adapters.sfn_workflow import StepFunctionsWorkflow

    return StepFunctionsWorkflow(aws_client("stepfunctions"))


def request_dependencies() -> RequestDependencies:
    return RequestDependencies(
        store=store(),
        workflow=workflow(),
        clock=SystemClock(),
        ids=UlidGenerator(),
        conversation_capability=settings().conversation_capability,
    )


def decision_dependencies() -> DecisionDependencies:
    return DecisionDependencies(
        store=store(), clock=SystemClock(), default_threshold=settings().escalation_threshold
    )


def resolve_dependencies() -> ResolveDependencies:
    return ResolveDependencies(store=store(), workflow=workflow(), clock=SystemClock())
