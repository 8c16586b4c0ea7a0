"""Builds what the Slack acknowledgement needs, and nothing more (docs/channels.md, "A click"): the
tenants' Slack apps (their signing secrets, kept five minutes per instance), Slack's signature
check, the replay guard and the clicks queue. Not the resolve path: the Slack decider builds that
(`channel_composition.slack_dependencies`).

Slack wants its 200 within 3 seconds, a cold start included (bench/slack_ack.py measures it), so the
three names this needs are read from the environment as they are, not through `settings`: its
pydantic model is most of what `composition` costs to import, and nothing else of it is needed here.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.run.clock import SystemClock
from waitgate.wiring.boto_clients import aws_client

if TYPE_CHECKING:
    from waitgate.service.slack_acknowledge import AcknowledgeDependencies

# Globals.Function.Environment gives every function the table and the Slack secrets' prefix (none: no
# tenant has Slack, every request is 401); the clicks queue is the acknowledgement's alone
# (template.yaml, SlackInteractionsFunction).
REQUIRED = ("TABLE_NAME", "SLACK_CLICKS_QUEUE_URL")


class AcknowledgementNotConfiguredError(RuntimeError):
    """A name the acknowledgement needs is not in the function's environment: a broken deploy."""


@lru_cache(maxsize=1)
def acknowledge_dependencies() -> AcknowledgeDependencies:
    from waitgate.adapters.dynamodb_sent_messages import DynamoDbReplayGuard
    from waitgate.adapters.secrets_slack_workspaces import SecretsSlackWorkspaces
    from waitgate.adapters.slack_signature import SlackSignatureCheck
    from waitgate.adapters.sqs_click_queue import SqsClickQueue
    from waitgate.service.slack_acknowledge import AcknowledgeDependencies

    table, prefix, queue_url = _configured()
    clock = SystemClock()
    return AcknowledgeDependencies(
        workspaces=SecretsSlackWorkspaces(lambda: aws_client("secretsmanager"), prefix),
        signatures=SlackSignatureCheck(clock),
        replays=DynamoDbReplayGuard(aws_client("dynamodb"), table),
        clicks=SqsClickQueue(aws_client("sqs"), queue_url),
        clock=clock,
    )


def _configured() -> tuple[str, str, str]:
    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        raise AcknowledgementNotConfiguredError(f"Slack clicks need {', '.join(missing)} in the environment.")
    return (
        os.environ["TABLE_NAME"],
        os.environ.get("SLACK_SECRET_PREFIX", ""),
        os.environ["SLACK_CLICKS_QUEUE_URL"],
    )
