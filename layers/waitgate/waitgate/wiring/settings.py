"""The one settings model every function validates at cold start (same environment for all).

A frozen dataclass checked in `__post_init__`, not a pydantic model: every function builds it, and a
cold start should not pay for pydantic's model machinery for a few dozen strings and numbers
(docs/performance.md, "Cold start as deployed"). The checks are the same: a bad value is a
ValueError naming the setting."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache

# Each bounded setting: (lowest, highest, whether the lowest itself is allowed); None = no bound.
_BOUNDS: dict[str, tuple[float, float | None, bool]] = {
    "token_lifetime_seconds": (60, None, True),
    "notice_link_max_hours": (1, None, True),
    "escalation_threshold": (0, 1, True),
    "notification_attempts": (1, None, True),
    "notification_retry_base_seconds": (0, None, False),
    "webhook_attempts": (1, 20, True),
    "webhook_retry_base_seconds": (0, None, False),
}
_PENDING_INDEX = re.compile(r"^(InboxByDeadline|PendingByDeadline)$")


def _csv(name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in os.environ.get(name, "").split(",") if part.strip())


@dataclass(frozen=True, kw_only=True)
class Settings:
    table_name: str
    topic_arn: str = ""
    token_secret_arn: str = ""
    directory_table_name: str = ""
    tenant_claim: str = "tenant"
    public_base_url: str = ""
    public_base_url_parameter: str = ""
    override_principals: tuple[str, ...] = ()
    ref_kinds: tuple[str, ...] = ("principal", "group", "role")
    conversation_capability: bool = True
    token_lifetime_seconds: int = 1800  # a minted link's default (mint_token only)
    # A notified person's link lasts until the deadline, at most this long (NotificationLinkMaxHours).
    notice_link_max_hours: int = 168
    escalation_threshold: float = 0.7
    schedule_group_name: str = ""  # deadlines: EventBridge Scheduler group, target and its role
    expire_function_arn: str = ""
    scheduler_role_arn: str = ""
    escalate_function_arn: str = ""  # escalation steps: the schedules' target (docs/escalation.md)
    # The host's escalation defaults (docs/escalation.md) live in this SSM parameter, read by the one
    # function that applies them (request_interrupt), not in every function's 4 KB of environment.
    escalation_defaults_parameter: str = ""
    parking_queue_url: str = ""  # the stream dispatcher parks a Slack refresh it gave up on there
    ledger_key_id: str = ""  # the KMS key that signs the decision ledger's head (docs/ledger.md)
    schedule_dead_letter_arn: str = ""  # every schedule's target DeadLetterConfig (an SQS queue)

    # Channels (docs/channels.md): SES v2's sender and configuration set, the Slack Web API, the
    # tenants' Slack secrets (<prefix><tenant>), and the deliverers' attempts and backoff.
    email_sender: str = ""
    email_configuration_set: str = ""
    slack_api_url: str = "https://slack.com/api/"
    slack_secret_prefix: str = ""
    webhook_secret_prefix: str = ""  # each webhook source's secrets: <prefix><source> (docs/webhooks.md)
    notification_attempts: int = 5
    notification_retry_base_seconds: float = 30
    # Lambda durable functions (docs/durable-functions.md): where their callback API is; "" = Lambda's.
    durable_endpoint_url: str = ""
    # Webhooks out (docs/webhooks-out.md): the delivery queue, the deliverer's attempts and backoff,
    # and whether a subscription may name http://127.0.0.1 (the local stack's setting; never on AWS).
    webhook_queue_name: str = ""  # WEBHOOK_QUEUE_NAME, else named after the stack (webhook_queue)
    webhook_attempts: int = 8
    webhook_retry_base_seconds: float = 30
    subscription_loopback_http: bool = False

    # The /inbox page's sign-in (docs/inbox.md): the issuer, the public client, its endpoints.
    oidc_issuer: str = ""
    inbox_client_id: str = ""
    inbox_scopes: str = "openid approvals:respond runs:read"
    inbox_authorization_endpoint: str = ""
    inbox_token_endpoint: str = ""
    inbox_authorize_parameters: str = ""
    # `POST /mcp` (docs/mcp.md) checks its bearer JWTs itself: the audiences the gateway's authorizer
    # accepts, and where the escalation defaults are, in this SSM parameter (JSON), set on that one
    # function only.
    mcp_settings_parameter: str = ""
    # The index the inbox lists from: InboxByDeadline, or for the one deploy that upgrades a stack
    # from the former PendingByDeadline (template parameter FormerPendingIndex=keep), that one.
    pending_index: str = "InboxByDeadline"

    def __post_init__(self) -> None:
        if not self.table_name:
            raise ValueError("table_name: TABLE_NAME must be set")
        for name, (lowest, highest, inclusive) in _BOUNDS.items():
            value = getattr(self, name)
            below = value < lowest or (value == lowest and not inclusive)
            if below or (highest is not None and value > highest):
                raise ValueError(f"{name}: {value} is out of bounds")
        if not _PENDING_INDEX.match(self.pending_index):
            raise ValueError(
                f"pending_index: {self.pending_index!r} is not InboxByDeadline or PendingByDeadline"
            )

    @property
    def webhook_queue(self) -> str:
        """The webhooks-out queue's name: WEBHOOK_QUEUE_NAME, else `<stack>-webhooks` (the template's
        QueueName) with the stack's name read from PUBLIC_BASE_URL_PARAMETER (`/<stack>/public-base-url`,
        in every function's environment): the stream reader's 4 KB environment has no room for one more
        name. "" when neither says (no webhooks out: a test's environment)."""
        if self.webhook_queue_name:
            return self.webhook_queue_name
        stack, _, rest = self.public_base_url_parameter.removeprefix("/").partition("/")
        return f"{stack}-webhooks" if stack and rest == "public-base-url" else ""

    @classmethod
    def from_environment(cls) -> Settings:
        env = os.environ
        return cls(
            table_name=env.get("TABLE_NAME", ""),
            topic_arn=env.get("TOPIC_ARN", ""),
            token_secret_arn=env.get("TOKEN_SECRET_ARN", ""),
            directory_table_name=env.get("DIRECTORY_TABLE_NAME", ""),
            tenant_claim=env.get("TENANT_CLAIM") or "tenant",
            public_base_url=env.get("PUBLIC_BASE_URL", "").rstrip("/"),
            public_base_url_parameter=env.get("PUBLIC_BASE_URL_PARAMETER", ""),
            override_principals=_csv("OVERRIDE_PRINCIPALS"),
            ref_kinds=_csv("REF_KINDS") or ("principal", "group", "role"),
            conversation_capability=env.get("CONVERSATION_CAPABILITY", "on") == "on",
            token_lifetime_seconds=int(env.get("TOKEN_LIFETIME_SECONDS") or 1800),
            notice_link_max_hours=int(env.get("LINK_MAX_HOURS") or 168),
            escalation_threshold=float(env.get("ESCALATION_THRESHOLD") or 0.7),
            schedule_group_name=env.get("SCHEDULE_GROUP_NAME", ""),
            expire_function_arn=env.get("EXPIRE_FUNCTION_ARN", ""),
            scheduler_role_arn=env.get("SCHEDULER_ROLE_ARN", ""),
            escalate_function_arn=env.get("ESCALATE_FUNCTION_ARN", ""),
            escalation_defaults_parameter=env.get("ESCALATION_DEFAULTS_PARAMETER", ""),
            parking_queue_url=env.get("PARKING_QUEUE_URL", ""),
            ledger_key_id=env.get("LEDGER_KEY_ID", ""),
            schedule_dead_letter_arn=env.get("SCHEDULE_DEAD_LETTER_ARN", ""),
            email_sender=env.get("EMAIL_SENDER", ""),
            email_configuration_set=env.get("EMAIL_CONFIGURATION_SET", ""),
            slack_api_url=env.get("SLACK_API_URL") or "https://slack.com/api/",
            slack_secret_prefix=env.get("SLACK_SECRET_PREFIX", ""),
            webhook_secret_prefix=env.get("WEBHOOK_SECRET_PREFIX", ""),
            notification_attempts=int(env.get("NOTIFICATION_ATTEMPTS") or 5),
            notification_retry_base_seconds=float(env.get("NOTIFICATION_RETRY_BASE_SECONDS") or 30),
            oidc_issuer=env.get("OIDC_ISSUER", ""),
            inbox_client_id=env.get("INBOX_CLIENT_ID", ""),
            inbox_scopes=env.get("INBOX_SCOPES") or "openid approvals:respond runs:read",
            inbox_authorization_endpoint=env.get("INBOX_AUTHORIZATION_ENDPOINT", ""),
            inbox_token_endpoint=env.get("INBOX_TOKEN_ENDPOINT", ""),
            inbox_authorize_parameters=env.get("INBOX_AUTHORIZE_PARAMETERS", ""),
            mcp_settings_parameter=env.get("MCP_SETTINGS_PARAMETER", ""),
            pending_index=env.get("PENDING_INDEX") or "InboxByDeadline",
            durable_endpoint_url=env.get("DURABLE_ENDPOINT_URL", ""),
            webhook_queue_name=env.get("WEBHOOK_QUEUE_NAME", ""),
            webhook_attempts=int(env.get("WEBHOOK_ATTEMPTS") or 8),
            webhook_retry_base_seconds=float(env.get("WEBHOOK_RETRY_BASE_SECONDS") or 30),
            subscription_loopback_http=env.get("SUBSCRIPTION_LOOPBACK_HTTP", "off") == "on",
        )


@lru_cache(maxsize=1)
def settings() -> Settings:
    """Validated once per cold start; a missing TABLE_NAME fails loudly here, not mid-request."""
    return Settings.from_environment()
