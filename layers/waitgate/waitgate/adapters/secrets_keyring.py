"""The token keyring's source: one Secrets Manager secret (see docs/operations.md, "Key rotation").

The secret is `{"signingKid": "k1", "keys": {"k1": "<base64url>", ...}}`. CloudFormation can only
generate a top-level string (`GenerateStringKey`), so a freshly deployed secret reads
`{"signingKid": "k1", "keys": {}, "k1": "<64 alphanumerics>"}`; `normalized_secret` moves such a member
into `keys` (64 alphanumerics are valid base64url of 48 bytes). Nothing here logs or echoes key material.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.errors import TemporarilyUnavailableError
from waitgate.tokens import KeyringError, is_valid_kid

Client = Any  # a boto3 Secrets Manager client
KNOWN_MEMBERS = frozenset({"signingKid", "keys"})


def secret_loader(client_factory: Callable[[], Client], secret_id: str) -> Callable[[], str]:
    """A loader for `CachedKeyring`: the secret's current version, normalized. The client is made on
    the first load (never at import), then reused."""
    clients: list[Client] = []

    def load() -> str:
        if not clients:
            clients.append(client_factory())
        try:
            answer = clients[0].get_secret_value(SecretId=secret_id)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from None  # `from None`: the answer never reaches a log
        return normalized_secret(str(answer["SecretString"]))

    return load


def normalized_secret(text: str) -> str:
    """The secret in the keyring's own shape: top-level string members named like a kid join `keys`.

    A kid present in both places keeps the value inside `keys` (an operator's explicit choice wins).
    """
    try:
        document: Any = json.loads(text)
    except ValueError as exc:
        raise KeyringError("the token secret is not JSON") from exc
    if not isinstance(document, dict) or not isinstance(document.get("keys"), dict):
        return text  # not ours to fix: Keyring.from_secret_json says what is wrong
    generated = {
        name: value
        for name, value in document.items()
        if name not in KNOWN_MEMBERS and isinstance(value, str) and is_valid_kid(name)
    }
    if not generated:
        return text
    keys = {**generated, **document["keys"]}
    rest = {name: value for name, value in document.items() if name not in generated}
    return json.dumps({**rest, "keys": keys})


def _translate(error: Exception) -> Exception:
    """One place where Secrets Manager's error codes become domain errors."""
    code = error_code(error)
    if is_transient(error):
        return TemporarilyUnavailableError("The token secret is busy; retry the request.")
    return KeyringError(f"the token secret could not be read ({code})")
