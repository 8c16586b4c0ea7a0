"""`waitgate directory settings`: a tenant's own rules, kept in its directory (docs/approvals.md,
"Separation of duties"). Today one: `--allow-self-approval on|off`, whether the requester of an
approval may decide it for every approval of the tenant (override principals included). Without a
value it prints the settings; with one it sets it, an event of the tenant's directory log."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from waitgate.approval.separation_of_duties import ALLOW_SELF_APPROVAL

if TYPE_CHECKING:  # the adapter (boto3) is imported when the action runs: `--help` needs none of it
    from waitgate.adapters.dynamodb_directory import DynamoDbDirectory

SETTING_ACTIONS = {
    "settings": (
        "show the tenant's settings, or set one (--allow-self-approval on|off)",
        "waitgate directory settings --tenant default --allow-self-approval on",
    ),
}
SWITCH = {"on": True, "off": False}


def add_setting_arguments(parser: Any) -> None:
    parser.add_argument(
        "--allow-self-approval",
        choices=sorted(SWITCH),
        help="whether an approval's requester may decide it, for every approval of the tenant",
    )
    parser.add_argument(
        "--events-table", help="with --table: the InterruptsTable, where the change's event goes"
    )


def run_settings(arguments: argparse.Namespace, directory: DynamoDbDirectory) -> int:
    if arguments.allow_self_approval is not None:
        directory.set_tenant_setting(
            arguments.tenant, ALLOW_SELF_APPROVAL, SWITCH[arguments.allow_self_approval]
        )
        return 0
    settings = directory.tenant_settings(arguments.tenant)
    print(f"{ALLOW_SELF_APPROVAL:<24} {'on' if settings.allow_self_approval else 'off'}")
    return 0
