"""boto3 clients for the moto server, one per service, shared by the code that builds the stack."""

from __future__ import annotations

import threading
from typing import Any

import boto3


class AwsClients:
    """Clients honour AWS_ENDPOINT_URL, set by the moto server before any client is made."""

    def __init__(self, region: str) -> None:
        self._region = region
        self._clients: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __call__(self, service: str) -> Any:
        with self._lock:
            if service not in self._clients:
                self._clients[service] = boto3.client(service, region_name=self._region)
            return self._clients[service]
