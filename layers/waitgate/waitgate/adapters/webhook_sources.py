"""Webhook sources: their configuration in the directory table (`pk = WEBHOOKS`, `sk = SOURCE#<name>`,
`source` = the JSON of `WebhookSource`), their secrets in Secrets Manager (`<prefix><name>` holding
`{"secrets": ["…", "…"]}`, several during a rotation). Read on first use and kept for a minute per
Lambda instance; a source whose secret is missing verifies nothing. Managed with `waitgate webhooks`."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code
from waitgate.errors import TemporarilyUnavailableError, ValidationFailedError
from waitgate.webhooks.sources import ConfiguredSource, WebhookSource, is_source_name, parse_source

KEEP_SECONDS = 60.0
SOURCES_PK = "WEBHOOKS"
SOURCE_SK_PREFIX = "SOURCE#"


class WebhookSourceStore:
    def __init__(
        self, dynamodb: Callable[[], Any], secrets: Callable[[], Any], table_name: str, secret_prefix: str
    ) -> None:
        self._dynamodb = dynamodb
        self._secrets = secrets
        self._table = table_name
        self._prefix = secret_prefix
        self._kept: dict[str, tuple[float, ConfiguredSource | None]] = {}

    def source(self, name: str) -> ConfiguredSource | None:
        if not is_source_name(name) or not self._table:
            return None
        kept = self._kept.get(name)
        if kept is not None and time.monotonic() - kept[0] < KEEP_SECONDS:
            return kept[1]
        configured = self._load(name)
        self._kept[name] = (time.monotonic(), configured)
        return configured

    def sources(self) -> tuple[WebhookSource, ...]:
        """Every source (one Query on the sources' partition)."""
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": {"S": SOURCES_PK}, ":prefix": {"S": SOURCE_SK_PREFIX}},
        }
        found: list[WebhookSource] = []
        while True:
            answer = self._call(lambda: self._dynamodb().query(**arguments))
            found += [parse_source(json.loads(item["source"]["S"])) for item in answer.get("Items", [])]
            if "LastEvaluatedKey" not in answer:
                return tuple(found)
            arguments["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def put(self, source: WebhookSource, secrets: tuple[str, ...]) -> None:
        """Create or replace the source and its secrets (secrets first: a source is never configured
        without them)."""
        if not secrets or not all(secrets):
            raise ValidationFailedError("A source needs at least one secret.", path="secrets")
        value = json.dumps({"secrets": list(secrets)})
        name = self._prefix + source.name
        client = self._secrets()
        try:
            client.put_secret_value(SecretId=name, SecretString=value)
        except AWS_CALL_ERRORS as error:
            if error_code(error) != "ResourceNotFoundException":
                raise
            client.create_secret(Name=name, SecretString=value)
        item = {
            "pk": {"S": SOURCES_PK},
            "sk": {"S": SOURCE_SK_PREFIX + source.name},
            "source": {"S": json.dumps(source.to_json())},
        }
        self._dynamodb().put_item(TableName=self._table, Item=item)
        self._kept.pop(source.name, None)

    def _load(self, name: str) -> ConfiguredSource | None:
        key = {"pk": {"S": SOURCES_PK}, "sk": {"S": SOURCE_SK_PREFIX + name}}
        answer = self._call(lambda: self._dynamodb().get_item(TableName=self._table, Key=key))
        item = answer.get("Item")
        if not item:
            return None
        source = parse_source(json.loads(item["source"]["S"]))
        return ConfiguredSource(source, self._secrets_of(name))

    def _secrets_of(self, name: str) -> tuple[str, ...]:
        try:
            answer = self._secrets().get_secret_value(SecretId=self._prefix + name)
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ResourceNotFoundException":
                return ()
            raise TemporarilyUnavailableError("The webhook secrets could not be read; retry.") from error
        try:
            value = json.loads(answer.get("SecretString") or "{}")
        except ValueError:
            return ()
        secrets = value.get("secrets") if isinstance(value, dict) else None
        return tuple(s for s in secrets if isinstance(s, str) and s) if isinstance(secrets, list) else ()

    @staticmethod
    def _call(call: Callable[[], Any]) -> Any:
        try:
            return call()
        except AWS_CALL_ERRORS as error:
            raise TemporarilyUnavailableError("The webhook sources could not be read; retry.") from error
