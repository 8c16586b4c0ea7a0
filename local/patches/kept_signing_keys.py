"""The local stack's signing key keeps its key material across restarts, as a KMS key does.

moto 5.2.5's `KmsBackend.create_key` makes new material for every key, so the decision ledger's head
signed before a restart would not verify after it (docs/ledger.md). The local stack keeps the
ledger's private key in its state directory (`ledger-key.pem`, made on the first start, beside the
JWT issuer's key); this patch gives that material to the ECC_NIST_P256 SIGN_VERIFY key moto creates
(the template's LedgerKey, its only such key). The private key is read by this process only; the
functions sign through KMS Sign, as on AWS.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from local.patches import replace_attribute

KEPT_SPEC, KEPT_USAGE = "ECC_NIST_P256", "SIGN_VERIFY"
_kept: dict[str, ec.EllipticCurvePrivateKey] = {}  # the key of the stack started last in this process


def load_or_create(path: Path) -> ec.EllipticCurvePrivateKey:
    """The kept key at `path`, made (readable by its owner only) when there is none."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        path.write_bytes(pem)
        path.chmod(0o600)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{path} does not hold an EC private key: move it away, or start with --fresh")
    return key


def install(path: Path) -> None:
    """Patch moto's (private) KMS backend create_key; idempotent (a later start's key is used). Pin moto."""
    from moto.kms.models import KmsBackend

    _kept["key"] = load_or_create(path)

    def keeping_material(original: Any) -> Any:
        def create_key(self: Any, *args: Any, **kwargs: Any) -> Any:
            key = original(self, *args, **kwargs)
            if key.key_spec == KEPT_SPEC and key.key_usage == KEPT_USAGE:
                key.private_key.private_key = _kept["key"]
            return key

        return create_key

    replace_attribute(KmsBackend, "create_key", keeping_material)
