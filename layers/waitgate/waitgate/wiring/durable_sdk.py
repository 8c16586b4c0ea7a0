"""Whether the runtime's SDK can answer a Lambda durable function: the layer ships no boto3, so the
runtime's botocore must know the durable callback API (docs/durable-functions.md)."""

from __future__ import annotations

DURABLE_BOTOCORE = (1, 42, 1)  # the first botocore with SendDurableExecutionCallbackSuccess/Failure


class DurableSdkTooOldError(RuntimeError):
    """The runtime's botocore predates the durable callback API (the layer ships no boto3)."""


def check_durable_botocore(installed: str | None = None) -> None:
    """A clear error, at the durable engine's first use, where the runtime's botocore cannot answer a
    durable callback (docs/durable-functions.md): not an AttributeError deep in a delivery."""
    import botocore

    found = installed or botocore.__version__
    numbers = tuple(int(part) for part in found.split(".")[:3] if part.isdigit())
    if numbers < DURABLE_BOTOCORE:
        needed = ".".join(map(str, DURABLE_BOTOCORE))
        raise DurableSdkTooOldError(
            f"Answering a Lambda durable function needs botocore >= {needed} (SendDurableExecution"
            f"CallbackSuccess); this runtime has {found}: use a runtime whose SDK is newer (python3.13)."
        )
