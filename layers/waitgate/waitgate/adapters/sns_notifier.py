"""Notifier on SNS: one message per notice on the notifications topic (see docs/approvals.md).

Every message carries the attributes `kind`, `tenantId` and `runId` (and `recipient` on a notice for a
person, with `channels`, a String.Array of the channels that reach them: `["email", "slack"]`), so a
subscription can filter on them (an SNS filter policy) without reading the body. Only a
notice's body holds a token: the recipient's personal link; nothing here logs a body.
"""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, error_code
from waitgate.errors import DeliveryFailedError
from waitgate.run.notices import InterruptNotice
from waitgate.run.records import JSONObject, RunRef

Client = Any  # a boto3 SNS client
ASK_KIND = "interrupt.ask"


class SnsNotifier:
    def __init__(self, client: Client, topic_arn: str) -> None:
        self._client = client
        self._topic_arn = topic_arn

    def notify_ask(self, run: RunRef, node_id: str, interrupt_id: str, ask: JSONObject) -> None:
        """The agent side learns of a question: who asked what, on which run and node."""
        body = {
            "kind": ASK_KIND,
            "tenantId": run.tenant_id,
            "runId": run.run_id,
            "nodeId": node_id,
            "interruptId": interrupt_id,
            "ask": ask,
        }
        self._publish(ASK_KIND, run, {"Message": _json(body)})

    def notify_interrupt(self, notice: InterruptNotice) -> None:
        """One recipient's notice: a subject and text for e-mail, JSON for programs (MessageStructure
        json); attributes `kind` (the interrupt's kind), `recipient` and `notice` (interrupt.requested,
        .reminded or .escalated) let a subscription filter to one person or one kind."""
        document = _json(notice.document())
        message = {"default": notice.text, "email": notice.text, "sqs": document, "lambda": document}
        self._publish(
            notice.kind,
            run=notice.run,
            request={"Message": _json(message), "MessageStructure": "json", "Subject": notice.subject},
            more={"recipient": notice.recipient, "notice": notice.notice},
            channels=notice.channels,
        )

    def _publish(
        self,
        kind: str,
        run: RunRef,
        request: JSONObject,
        more: dict[str, str] | None = None,
        channels: tuple[str, ...] = (),
    ) -> None:
        if not self._topic_arn:
            return  # no topic configured: nobody to tell
        attributes = {
            "kind": {"DataType": "String", "StringValue": kind},
            "tenantId": {"DataType": "String", "StringValue": run.tenant_id},
            "runId": {"DataType": "String", "StringValue": run.run_id},
        }
        for name, value in (more or {}).items():
            attributes[name] = {"DataType": "String", "StringValue": value}
        if channels:  # SNS refuses an empty array
            attributes["channels"] = {"DataType": "String.Array", "StringValue": json.dumps(list(channels))}
        try:
            self._client.publish(TopicArn=self._topic_arn, MessageAttributes=attributes, **request)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error


def _json(document: JSONObject) -> str:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def _translate(error: Exception) -> Exception:
    """Any refusal by SNS means the notice was not sent; the caller decides what that costs."""
    code = error_code(error)
    return DeliveryFailedError(f"SNS answered {described(error)}.", aws_code=code)
