"""Signing the ledger's head with KMS (docs/ledger.md): an asymmetric key (LedgerKey in template.yaml,
ECC_NIST_P256, SIGN_VERIFY); `Sign` with ECDSA_SHA_256 over the head's canonical JSON (a RAW message
of at most 4,096 bytes: a head is ~250). The private key never leaves KMS; verification uses the
public key (`GetPublicKey`)."""

from __future__ import annotations

from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, is_transient
from waitgate.errors import TemporarilyUnavailableError
from waitgate.ledger.chain import SIGNING_ALGORITHM


class KmsLedgerSigner:
    def __init__(self, client: Any, key_id: str) -> None:
        self._client, self.key_id = client, key_id

    def sign(self, message: bytes) -> bytes:
        """The DER-encoded ECDSA signature of `message`."""
        try:
            answer = self._client.sign(
                KeyId=self.key_id, Message=message, MessageType="RAW", SigningAlgorithm=SIGNING_ALGORITHM
            )
        except AWS_CALL_ERRORS as error:
            if is_transient(error):
                raise TemporarilyUnavailableError(f"KMS did not sign ({described(error)}).") from error
            raise
        return bytes(answer["Signature"])


def public_key_der(client: Any, key_id: str) -> bytes:
    """The key's public half (DER SubjectPublicKeyInfo), what `waitgate ledger verify` checks with."""
    return bytes(client.get_public_key(KeyId=key_id)["PublicKey"])
