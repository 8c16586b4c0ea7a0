"""`waitgate directory delegate|undelegate|delegations`: who decides for whom while they are away
(docs/approvals.md, "Delegation"). A delegation is kept in the directory table; it holds until
`--until` (RFC 3339) or until ended, for the kinds it names (`approval`)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when an action runs: the parser (`--help`) needs none of the layer
    from waitgate.adapters.dynamodb_directory import DynamoDbDirectory
    from waitgate.approval.delegation import Delegation

DELEGATION_ACTIONS = {
    "delegate": (
        "let a principal decide what another may decide, until a time or until ended",
        "waitgate directory delegate --from alice --to bob --until 2026-12-24T00:00:00Z",
    ),
    "undelegate": ("end a delegation", "waitgate directory undelegate --from alice --to bob"),
    "delegations": ("list who a principal decides for", "waitgate directory delegations --to bob"),
}


class DelegationRefusedError(Exception):
    """A delegation that is not one (to oneself, an until without a zone, an unknown kind)."""


def add_delegation_arguments(action: str, parser: Any) -> None:
    if action != "delegations":
        parser.add_argument("--from", dest="delegator", required=True, help="who is away (JWT sub)")
    parser.add_argument("--to", dest="delegate", required=True, help="who decides for them (JWT sub)")
    if action != "delegations":
        parser.add_argument(
            "--events-table", help="with --table: the InterruptsTable, where the delegation's event goes"
        )
    if action == "delegate":
        parser.add_argument("--until", help="RFC 3339, like 2026-12-24T00:00:00Z (default: until ended)")
        parser.add_argument(
            "--kinds",
            default="approval",
            help="comma-separated interrupt kinds a delegation may name (default: %(default)s)",
        )


def run_delegation(arguments: argparse.Namespace, directory: DynamoDbDirectory) -> int:
    from waitgate.approval.eligibility import rfc3339

    action = arguments.directory_action
    if action == "delegate":
        directory.delegate(arguments.tenant, _delegation(arguments))
        return 0
    if action == "undelegate":
        if not directory.undelegate(arguments.tenant, arguments.delegator, arguments.delegate):
            raise DelegationRefusedError(f"{arguments.delegator} has no delegation to {arguments.delegate}")
        return 0
    now = datetime.now(UTC)
    for delegation in directory.delegations_to(arguments.tenant, arguments.delegate):
        until = rfc3339(delegation.until) if delegation.until else "until ended"
        state = "holds" if delegation.until is None or now < delegation.until else "ended"
        print(f"{delegation.delegator:<24} {until:<26} {','.join(sorted(delegation.kinds)):<10} {state}")
    return 0


def _delegation(arguments: argparse.Namespace) -> Delegation:
    from waitgate.approval.delegation import Delegation

    try:
        until = datetime.fromisoformat(arguments.until) if arguments.until else None
        kinds = frozenset(kind.strip() for kind in arguments.kinds.split(",") if kind.strip())
        return Delegation(arguments.delegator, arguments.delegate, until=until, kinds=kinds)
    except ValueError as error:
        raise DelegationRefusedError(str(error)) from error
