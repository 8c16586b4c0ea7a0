"""Retry with backoff on an SQS-fed deliverer: a message that failed is made visible again only after
`seconds` (ChangeMessageVisibility), instead of after the queue's whole visibility timeout; after the
queue's maxReceiveCount its redrive policy parks it on the parking queue (docs/channels.md)."""

from __future__ import annotations

from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS

Client = Any  # a boto3 SQS client
MAX_VISIBILITY_SECONDS = 43_200  # SQS's own limit (12 hours)


def backoff_seconds(attempt: int, base_seconds: float) -> int:
    """base, 2×base, 4×base, … for attempts 1, 2, 3, …, in whole seconds (at least 1)."""
    return int(min(MAX_VISIBILITY_SECONDS, max(1.0, base_seconds * 2 ** max(0, attempt - 1))))


class SqsRedelivery:
    def __init__(self, client: Client) -> None:
        self._client = client
        self._urls: dict[str, str] = {}

    def later(self, queue_arn: str, receipt_handle: str, seconds: int) -> bool:
        """False when SQS did not take the change (the queue's own timeout then applies)."""
        try:
            self._client.change_message_visibility(
                QueueUrl=self._url(queue_arn), ReceiptHandle=receipt_handle, VisibilityTimeout=seconds
            )
        except AWS_CALL_ERRORS:
            return False
        return True

    def _url(self, queue_arn: str) -> str:
        if queue_arn not in self._urls:
            _, _, _, _, account, name = queue_arn.split(":", 5)
            answer = self._client.get_queue_url(QueueName=name, QueueOwnerAWSAccountId=account)
            self._urls[queue_arn] = str(answer["QueueUrl"])
        return self._urls[queue_arn]
