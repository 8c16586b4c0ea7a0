"""The clicks queue (SQS): an acknowledged Slack click waits there for the Slack decider
(docs/channels.md, "A click"). One message per click, its body the click's document
(`channels.click_documents`): small, and never the raw body Slack signed."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, is_transient
from waitgate.errors import TemporarilyUnavailableError

Client = Any  # a boto3 SQS client


class SqsClickQueue:
    def __init__(self, client: Client, queue_url: str) -> None:
        self._client = client
        self._url = queue_url

    def put(self, document: dict[str, str]) -> None:
        body = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
        try:
            self._client.send_message(QueueUrl=self._url, MessageBody=body)
        except AWS_CALL_ERRORS as error:
            if is_transient(error):
                raise TemporarilyUnavailableError("The click could not be taken; send it again.") from error
            raise
