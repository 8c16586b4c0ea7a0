"""The e-mail channel on SES v2: one message per recipient, sent whole as MIME (`Content.Raw`) so the
plain-text and the HTML part are exactly what `channels.email_message` built (docs/channels.md).

The sender is the template's EmailSender (an identity SES has verified); the configuration set, when
given, is the operator's (event destinations, suppression). Nothing here logs an address or a body.
SES's permanent refusals (PERMANENT_CODES: an unverified address in the sandbox, a rejected message,
sending paused or suspended, a configuration set that does not exist) are DeliveryRefusedError: not
retried. Anything else (throttling, a timeout, SES's own failure) is DeliveryFailedError: retried.
"""

from __future__ import annotations

from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code
from waitgate.channels.contacts import ChannelName
from waitgate.channels.email_message import email_content
from waitgate.channels.message_facts import MessageFacts
from waitgate.channels.sent_messages import SentMessage
from waitgate.errors import DeliveryFailedError, DeliveryRefusedError

Client = Any  # a boto3 SESv2 client
PERMANENT_CODES = frozenset(
    {
        "MessageRejected",
        "MailFromDomainNotVerifiedException",
        "AccountSuspendedException",
        "SendingPausedException",
        "NotFoundException",
        "BadRequestException",
    }
)


class SesEmailChannel:
    def __init__(self, client: Client, sender: str, configuration_set: str = "") -> None:
        self._client = client
        self._sender = sender
        self._configuration_set = configuration_set

    @property
    def name(self) -> ChannelName:
        return "email"

    def unavailable_reason(self, tenant_id: str) -> str | None:
        return None if self._sender else "this host has no e-mail sender (the EmailSender parameter)"

    def send(self, facts: MessageFacts, address: str) -> SentMessage:
        content = email_content(facts)
        request: dict[str, Any] = {
            "FromEmailAddress": self._sender,
            "Destination": {"ToAddresses": [address]},
            "Content": {"Raw": {"Data": content.mime(self._sender, address)}},
        }
        if self._configuration_set:
            request["ConfigurationSetName"] = self._configuration_set
        try:
            answer = self._client.send_email(**request)
        except AWS_CALL_ERRORS as error:
            code = error_code(error) or described(error)
            failure = DeliveryRefusedError if code in PERMANENT_CODES else DeliveryFailedError
            raise failure(f"SES answered {described(error)}.", aws_code=code) from error
        return SentMessage(
            channel="email",
            recipient=facts.recipient,
            message_id=str(answer["MessageId"]),
            workflow=facts.workflow,
            title=facts.title,
        )
