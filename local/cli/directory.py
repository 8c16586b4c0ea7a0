"""`waitgate directory add-member|remove-member|list|set-contact|contacts|delegate|undelegate|delegations|
settings`: manage group members and role holders, each principal's contact points (e-mail, Slack
member id; docs/channels.md), who decides for whom (local.cli.directory_delegations) and the tenant's
settings (local.cli.directory_settings).

Without `--table` it talks to the running local stack (the moto endpoint and the DirectoryTable
named in `.waitgate/local.json`, or $WAITGATE_STATE_DIR/local.json). With `--table` it talks to
real AWS with the usual credential chain (AWS_PROFILE, AWS_REGION, ...).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from local.cli.command_actions import action_parsers
from local.cli.directory_delegations import DELEGATION_ACTIONS, add_delegation_arguments
from local.cli.directory_settings import SETTING_ACTIONS, add_setting_arguments
from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

if TYPE_CHECKING:  # what the actions use, imported when one runs: `--help` needs none of it (boto3)
    from waitgate.adapters.dynamodb_directory import RefKind

DIRECTORY_LOGICAL_ID = "DirectoryTable"
DESCRIPTION = """\
Manage who belongs to an approver group and who holds a role, per tenant: the directory an approval's
approverGroupRefs / approverRoleRefs are resolved against when someone votes (docs/approvals.md); and
where each principal is reached: an e-mail address and a Slack member id (docs/channels.md); and who
decides for whom while they are away (delegate, undelegate, delegations); and the tenant's settings.
Without --table it changes the running local stack; with --table, a deployed DirectoryTable."""
ACTIONS = {
    "add-member": (
        "grant a group membership or a role",
        "waitgate directory add-member --group release-managers --principal alice",
    ),
    "remove-member": (
        "revoke a group membership or a role",
        "waitgate directory remove-member --role oncall --principal bob",
    ),
    "list": (
        "list a group's members or a role's holders",
        "waitgate directory list --group release-managers",
    ),
}


class ContactRefusedError(Exception):
    """A contact point that is not one, or a Slack id that is someone else's: said in one line."""


CONTACT_ACTIONS = {
    "set-contact": (
        "set a principal's e-mail address and Slack member id (an empty value clears one)",
        "waitgate directory set-contact --principal alice --email alice@example.com --slack-user U024BE7LH",
    ),
    "contacts": ("list the tenant's contact points", "waitgate directory contacts --tenant default"),
}


def add_directory_parser(commands: Any) -> None:
    """The `directory` command and its actions, on the CLI's subparsers."""
    for action, parser in action_parsers(
        commands,
        "directory",
        "manage approver groups and roles (the local stack's, or a deployed table's)",
        DESCRIPTION,
        {**ACTIONS, **CONTACT_ACTIONS, **DELEGATION_ACTIONS, **SETTING_ACTIONS},
        example="add-member",
    ):
        parser.add_argument("--tenant", default="default", help="the tenant (default: %(default)s)")
        if action in ACTIONS:
            ref = parser.add_mutually_exclusive_group(required=True)
            ref.add_argument("--group", help="a group ref, as in approverGroupRefs")
            ref.add_argument("--role", help="a role ref, as in approverRoleRefs")
            parser.add_argument("--principal", required=action != "list", help="the JWT sub of the person")
        if action == "set-contact":
            parser.add_argument("--principal", required=True, help="the JWT sub of the person")
            parser.add_argument("--email", help='their e-mail address ("" clears it)')
            parser.add_argument("--slack-user", help='their Slack member id, like U024BE7LH ("" clears it)')
        if action in DELEGATION_ACTIONS:
            add_delegation_arguments(action, parser)
        if action in SETTING_ACTIONS:
            add_setting_arguments(parser)
        _add_table_arguments(parser)


def _add_table_arguments(parser: Any) -> None:
    parser.add_argument("--table", help="a deployed DirectoryTable (real AWS); default: the local stack")
    parser.add_argument("--region", help="with --table: the table's region (default: AWS_REGION)")


def run_directory(arguments: argparse.Namespace) -> int:
    """NoRunningStackError without --table and without a running stack; AWS errors propagate; a
    contact point that is not one is ValidationFailedError."""
    from local.cli.directory_delegations import run_delegation
    from local.cli.directory_settings import run_settings
    from waitgate.adapters.dynamodb_directory import DynamoDbDirectory

    if arguments.directory_action in CONTACT_ACTIONS:
        return _run_contacts(arguments)
    if arguments.directory_action in DELEGATION_ACTIONS:
        client, table = _table(arguments)
        return run_delegation(arguments, DynamoDbDirectory(client, table, _events_table(arguments)))
    if arguments.directory_action in SETTING_ACTIONS:
        client, table = _table(arguments)
        return run_settings(arguments, DynamoDbDirectory(client, table, _events_table(arguments)))
    directory = DynamoDbDirectory(*_table(arguments))
    kind: RefKind = "group" if arguments.group else "role"
    ref = arguments.group or arguments.role
    if arguments.directory_action == "add-member":
        directory.add_member(arguments.tenant, kind, ref, arguments.principal)
    elif arguments.directory_action == "remove-member":
        directory.remove_member(arguments.tenant, kind, ref, arguments.principal)
    else:
        for principal in directory.members(arguments.tenant, kind, ref):
            print(principal)
    return 0


def _run_contacts(arguments: argparse.Namespace) -> int:
    from waitgate.adapters.dynamodb_contacts import DynamoDbContacts
    from waitgate.channels.contacts import ContactPoints, checked_email, checked_slack_user
    from waitgate.errors import ValidationFailedError

    contacts = DynamoDbContacts(*_table(arguments))
    if arguments.directory_action == "contacts":
        for principal, points in contacts.contacts(arguments.tenant):
            print(f"{principal:<24} {points.email or '-':<32} {points.slack_user or '-'}")
        return 0
    if arguments.email is None and arguments.slack_user is None:
        raise ContactRefusedError("say --email, --slack-user or both")
    try:
        earlier = contacts.contact_points(arguments.tenant, arguments.principal)
        points = ContactPoints(
            email=_changed(arguments.email, earlier.email, checked_email),
            slack_user=_changed(arguments.slack_user, earlier.slack_user, checked_slack_user),
        )
        contacts.set_contact(arguments.tenant, arguments.principal, points)
    except ValidationFailedError as error:
        raise ContactRefusedError(error.detail) from error
    return 0


def _changed(given: str | None, earlier: str | None, check: Any) -> str | None:
    """The value after set-contact: unchanged when not given, cleared when empty, else checked."""
    if given is None:
        return earlier
    return str(check(given)) if given.strip() else None


def _events_table(arguments: argparse.Namespace) -> str | None:
    """Where a delegation's (or a setting's) event goes: the local stack's InterruptsTable, or
    --events-table."""
    if arguments.table:
        return getattr(arguments, "events_table", None)
    return str(running_stack_description(StateDir.from_environment())["tableNames"]["InterruptsTable"])


def _table(arguments: argparse.Namespace) -> tuple[Any, str]:
    import boto3

    if arguments.table:
        return boto3.client("dynamodb", region_name=arguments.region), arguments.table
    described = running_stack_description(StateDir.from_environment())
    table = described["tableNames"][DIRECTORY_LOGICAL_ID]
    client = boto3.client(
        "dynamodb",
        endpoint_url=described["awsEndpointUrl"],
        region_name=described.get("region", "us-east-1"),
        aws_access_key_id="local",  # moto takes any credentials; these are not secrets
        aws_secret_access_key="local",  # noqa: S106
    )
    return client, table
