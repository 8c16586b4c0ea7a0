"""The one boto3 client per AWS service of a Lambda instance, with the timeouts and retries every
AWS call of waitgate makes. Its own module, light to import (boto3 loads on the first client): the
Slack acknowledgement builds its clients here without `composition`'s settings model (docs/performance.md).
"""

from __future__ import annotations

from functools import cache
from typing import Any

# Every AWS call, retries and backoff included, ends well inside the shortest function timeout of the
# template (Globals: 15 s): at worst 2 attempts × (1 s connect + 5 s read) + 1 s backoff = 13 s, so a
# hung call fails as itself (an HTTPClientError, read by meaning) instead of as a Lambda timeout.
CLIENT_TIMEOUTS = {"connect_timeout": 1, "read_timeout": 5}
CLIENT_RETRIES = {"mode": "standard", "total_max_attempts": 2}


def client_config() -> Any:
    from botocore.config import Config

    return Config(retries=dict(CLIENT_RETRIES), tcp_keepalive=True, **CLIENT_TIMEOUTS)


@cache
def aws_client(service: str) -> Any:
    import boto3

    return boto3.client(service, config=client_config())
