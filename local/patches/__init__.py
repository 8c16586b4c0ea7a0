"""Patches of moto's private internals: what the local stack must change for moto to behave as AWS does.

Each patch replaces one attribute of one moto class through `replace_attribute`, the one way a patch is
installed: it is idempotent (a second install finds its own mark and does nothing), keeps the original
for the replacement to call, and is listed in `PATCHES` with why it exists. They were written against
one moto release, `MOTO_VERSION`; `check_moto_version` refuses to start on another one (a private API
may have moved), with one line saying what to do.

| patch | module | what moto does wrong without it |
|---|---|---|
| in-process Lambda | `lambda_runtime` | runs functions in Docker |
| serialized items | `moto_atomicity` | interleaves DynamoDB item operations, keeps every model instance |
| item rollback | `moto_transactions` | copies each table whole for every TransactWriteItems item |
| partition queries | `moto_queries` | sorts the whole table for every Query |
| transaction tokens | `transaction_tokens` | runs a repeated `ClientRequestToken` again |
| stream delivery | `stream_dispatch` | invokes stream consumers inside the write, unfiltered, at once |
| SendTaskFailure cause | `task_failures` | drops the cause |
| StopExecution | `stopped_executions` | leaves a task-token wait RUNNING |
| news told | `moto_news` | emits no event when an execution starts or ends, a schedule changes, SES sends |
| EMF lines kept | `emf_lines` | (Powertools) nobody reads printed EMF: kept for dev-metrics |
| kept signing key | `kept_signing_keys` | new key material at every start (old heads would not verify) |
| state data limit | `state_data_limit` | measures state data escaped; States.ALL catches DataLimitExceeded |
| past schedules | `past_schedules` | accepts a one-time schedule whose time has passed |
| async invocations | `async_invocations` | runs an Event invocation once, inline; forgets a failure |
| service lookup | `service_lookup` | lists its package directory again for every request it dispatches |
| attribute names | `serializer_aliases` | makes six alias providers for each member of a value it answers |

Beside them, `durable_checkpoints` is not a patch of moto: it points the durable execution SDK's own
cached Lambda client at the local durable endpoint (its checkpoints would otherwise go to moto, which
knows no durable functions), and refuses an SDK release other than the one it was written for. And
`strict_requests` patches botocore, not moto: every API call of the process is checked against its
service model (max, pattern, enum, sizes, unknown members) and refused as AWS would refuse it;
`botocore_data` gives every botocore session of the process one data loader (each model parsed once);
`in_process_calls` has the process's own calls to its moto server answered by the server's
application in-process, not over a socket.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

MOTO_VERSION = "5.2.5"
_MARK = "__waitgate_patch__"


class MotoVersionError(RuntimeError):
    """The installed moto is not the release the patches were written for."""


def check_moto_version(installed: str | None = None) -> None:
    """Refuse a moto other than `MOTO_VERSION`, clearly, before any patch touches it."""
    if installed is None:
        try:
            installed = version("moto")
        except PackageNotFoundError:
            installed = "none"
    if installed != MOTO_VERSION:
        raise MotoVersionError(
            f"The local stack patches moto {MOTO_VERSION}'s internals, but moto {installed} is installed: "
            f"run `make dev` (it installs requirements.lock) or `pip install 'moto[server]=={MOTO_VERSION}'`."
        )


def replace_attribute(owner: Any, name: str, replacement: Callable[[Callable[..., Any]], Any]) -> None:
    """`owner.name` becomes `replacement(original)`, once: installing the same patch again is a no-op."""
    current = getattr(owner, name)
    if getattr(current, _MARK, False):
        return
    patched = replacement(current)
    setattr(patched, _MARK, True)
    setattr(owner, name, patched)


def is_patched(owner: Any, name: str) -> bool:
    return bool(getattr(getattr(owner, name), _MARK, False))
