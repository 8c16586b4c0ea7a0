"""The durable execution SDK's checkpoints go to the local stack's durable endpoint.

Inside a durable function, the SDK checkpoints through one `boto3.client("lambda")` it builds once
and caches on `LambdaClient` (its endpoint from the environment, which the local stack points at moto
for every other Lambda call). Setting that cache to a client of the durable endpoint routes the
checkpoints, and only them, to the runner. Written against aws-durable-execution-sdk-python 3.0.0.
"""

from __future__ import annotations

from importlib.metadata import version

import boto3
from botocore.config import Config

SDK_VERSION = "3.0.0"


class DurableSdkVersionError(RuntimeError):
    """The installed durable execution SDK is not the release this patch was written for."""


def install(endpoint_url: str, region: str) -> None:
    from aws_durable_execution_sdk_python.lambda_service import LambdaClient

    installed = version("aws-durable-execution-sdk-python")
    if installed != SDK_VERSION:
        raise DurableSdkVersionError(
            f"The local stack routes aws-durable-execution-sdk-python {SDK_VERSION}'s checkpoints, but "
            f"{installed} is installed: run `make dev` (it installs requirements.lock)."
        )

    config = Config(connect_timeout=5, read_timeout=50, retries={"mode": "standard", "max_attempts": 3})
    LambdaClient._cached_boto_client = boto3.client(  # the SDK's own client cache
        "lambda",
        endpoint_url=endpoint_url,
        region_name=region,
        config=config,
        aws_access_key_id="local",  # the local runner checks no signature
        aws_secret_access_key="local",  # noqa: S106 - not a secret: the local runner's
    )


def uninstall() -> None:
    from aws_durable_execution_sdk_python.lambda_service import LambdaClient

    LambdaClient._cached_boto_client = None
