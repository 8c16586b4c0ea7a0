"""The local stream's records carry sequence numbers of their own, increasing, as DynamoDB's do.

moto numbered every record the dispatcher took `1100000000017454423009`; the stream reader keys a
failed record's progress by its number, so one consumer's failure on one record made the outbox skip
every later record (docs/durability.md; bench/races.py measured every killed resolver's run hung)."""

from __future__ import annotations

from typing import Any

from local.patches.stream_dispatch import StreamDispatcher

MOTO_NUMBER = "1100000000017454423009"


class Record:
    """What the dispatcher reads of moto's StreamRecord: `record`, and `to_json()` of it."""

    def __init__(self, sk: str) -> None:
        keys = {"pk": {"S": "RUN#default#run-1"}, "sk": {"S": sk}}
        self.record: dict[str, Any] = {"dynamodb": {"SequenceNumber": MOTO_NUMBER, "Keys": keys}}

    def to_json(self) -> dict[str, Any]:
        return self.record


def number_of(record: Record) -> int:
    return int(record.record["dynamodb"]["SequenceNumber"])


def test_each_record_gets_a_number_above_the_last() -> None:
    dispatcher = StreamDispatcher()
    records = [Record(f"NODE#{n}") for n in range(5)]
    for record in records:
        dispatcher.number(record)
    numbers = [number_of(record) for record in records]
    assert numbers == sorted(set(numbers)) and len(numbers) == 5
    assert all(len(str(number)) >= 21 for number in numbers)  # as DynamoDB's: 21 digits or more


def test_a_record_handed_to_two_mappings_keeps_its_number() -> None:
    dispatcher, record = StreamDispatcher(), Record("NODE#Gate")
    dispatcher.number(record)
    first = number_of(record)
    dispatcher.number(record)
    assert number_of(record) == first
    assert "_waitgate_numbered" not in record.record["dynamodb"]  # the record Lambda gets is untouched
