"""The local inbox: an SQS queue subscribed to every SNS topic of the stack, so a person on this
machine sees the notifications AWS would have sent (`waitgate dev-inbox` lists them).

Not part of template.yaml: a deployed stack has real subscribers (e-mail, programs).
"""

from __future__ import annotations

from local.resources import StackContext

INBOX_QUEUE_NAME = "waitgate-local-inbox"


def create_inbox(context: StackContext, topic_arns: list[str]) -> str:
    """The inbox queue's URL, subscribed (envelopes, not raw delivery) to each of `topic_arns`."""
    sqs, sns = context.clients("sqs"), context.clients("sns")
    url: str = sqs.create_queue(QueueName=INBOX_QUEUE_NAME)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    for topic_arn in topic_arns:
        sns.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=arn)
    return url
