"""moto's news (local.patches.moto_news): what the pumps wait for is told at once and counted, on moto's
own backends (mock_aws, strict requests), so an idle pump asks moto nothing."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator

import boto3
import pytest
from moto import mock_aws

from local.patches import moto_news
from local.standins.queue_poller import seconds_until_receivable

REGION, ACCOUNT = "us-east-1", "123456789012"


@pytest.fixture
def aws() -> Iterator[None]:
    moto_news.install()
    with mock_aws():
        yield


Heard = Callable[[str], list[str]]


@pytest.fixture
def told() -> Iterator[Heard]:
    """`told(news)`: the list a listener of `news` appends to, forgotten when the test ends."""
    forgets: list[Callable[[], None]] = []

    def listening(news: str) -> list[str]:
        heard: list[str] = []
        forgets.append(moto_news.listen(news, lambda: heard.append(news)))
        return heard

    yield listening
    for forget in forgets:
        forget()


def test_a_queue_tells_of_a_message_sent_and_of_a_visibility_changed(aws: None, told: Heard) -> None:
    # Given a queue and a listener of its news
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="deliveries")["QueueUrl"]
    heard = told(moto_news.queue_changed("deliveries"))
    # When a message is sent, received and its visibility changed (a deliverer's backoff)
    sqs.send_message(QueueUrl=url, MessageBody="{}")
    [message] = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0)["Messages"]
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0)
    # Then the listener heard both, and another queue's news is not this one's
    assert len(heard) == 2
    other = sqs.create_queue(QueueName="other")["QueueUrl"]
    sqs.send_message(QueueUrl=other, MessageBody="{}")
    assert len(heard) == 2


def test_a_queue_says_when_its_next_message_can_be_received(aws: None) -> None:
    # Given an empty queue
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="deliveries")["QueueUrl"]
    # Then it holds nothing to wait for
    assert seconds_until_receivable(ACCOUNT, REGION, "deliveries") is None
    assert seconds_until_receivable(ACCOUNT, REGION, "no-such-queue") is None
    # When a message is sent, Then it can be received now
    sqs.send_message(QueueUrl=url, MessageBody="{}")
    assert seconds_until_receivable(ACCOUNT, REGION, "deliveries") == 0
    # When it is received with a visibility timeout of a minute (a failed delivery's backoff)
    sqs.receive_message(QueueUrl=url, VisibilityTimeout=60, WaitTimeSeconds=0)
    # Then it comes back within that minute, not now
    seconds = seconds_until_receivable(ACCOUNT, REGION, "deliveries")
    assert seconds is not None and 0 < seconds <= 60


def test_a_schedule_created_or_updated_is_told(aws: None, told: Heard) -> None:
    # Given a listener of the schedules' news
    heard = told(moto_news.SCHEDULES_CHANGED)
    scheduler = boto3.client("scheduler", region_name=REGION)
    target = {
        "Arn": f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:fire",
        "RoleArn": f"arn:aws:iam::{ACCOUNT}:role/r",
    }
    arguments = {"Name": "deadline", "FlexibleTimeWindow": {"Mode": "OFF"}, "Target": target}
    # When a one-time schedule is created, then moved
    scheduler.create_schedule(ScheduleExpression="at(2099-01-01T00:00:00)", **arguments)
    scheduler.update_schedule(ScheduleExpression="at(2099-01-02T00:00:00)", **arguments)
    # Then both were told
    assert len(heard) == 2


def test_an_e_mail_ses_sent_is_told(aws: None, told: Heard) -> None:
    # Given a verified sender and a listener of the e-mails' news
    ses = boto3.client("sesv2", region_name=REGION)
    ses.create_email_identity(EmailIdentity="waitgate@example.com")
    heard = told(moto_news.MAIL_SENT)
    sent = moto_news.count(moto_news.MAIL_SENT)
    # When an e-mail is sent
    raw = b"From: waitgate@example.com\r\nTo: alice@example.com\r\nSubject: hi\r\n\r\nhello\r\n"
    ses.send_email(
        FromEmailAddress="waitgate@example.com",
        Destination={"ToAddresses": ["alice@example.com"]},
        Content={"Raw": {"Data": raw}},
    )
    # Then it was told, and counted
    assert heard == [moto_news.MAIL_SENT]
    assert moto_news.count(moto_news.MAIL_SENT) == sent + 1


def test_a_state_machine_and_its_execution_are_counted() -> None:
    # Given moto executing state machines, as in the local stack, and the counts before
    moto_news.install()
    kinds = (moto_news.MACHINES_CHANGED, moto_news.EXECUTION_STARTED)
    before = {kind: moto_news.count(kind) for kind in kinds}
    ended = threading.Event()
    forget = moto_news.listen(moto_news.EXECUTION_ENDED, ended.set)
    definition = {"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}}
    try:
        with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
            sfn = boto3.client("stepfunctions", region_name=REGION)
            # When a machine is created and started
            arn = sfn.create_state_machine(
                name="own", definition=json.dumps(definition), roleArn=f"arn:aws:iam::{ACCOUNT}:role/r"
            )["stateMachineArn"]
            sfn.start_execution(stateMachineArn=arn, name="run-1", input="{}")
            # Then its end is told (the execution-events pump ticks), once it ended
            assert ended.wait(timeout=60)
            sfn.delete_state_machine(stateMachineArn=arn)
    finally:
        forget()
    # And the autosave sees each change in the counts, without asking moto
    assert moto_news.count(moto_news.MACHINES_CHANGED) == before[moto_news.MACHINES_CHANGED] + 2
    assert moto_news.count(moto_news.EXECUTION_STARTED) == before[moto_news.EXECUTION_STARTED] + 1


def test_a_listener_forgotten_hears_no_more() -> None:
    # Given a listener, forgotten
    heard: list[int] = []
    forget = moto_news.listen("some news", lambda: heard.append(1))
    moto_news.tell("some news")
    forget()
    # When the news comes again / Then it is not called, and forgetting twice is harmless
    moto_news.tell("some news")
    forget()
    assert heard == [1]
