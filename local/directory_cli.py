"""`waitgate directory add-member|remove-member|list`: manage group members and role holders.

Without `--table` it talks to the running local stack (the moto endpoint and the DirectoryTable
named in `.waitgate/local.json`, or $WAITGATE_STATE_DIR/local.json). With `--table` it talks to
real AWS with the usual credential chain (AWS_PROFILE, AWS_REGION, ...).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import boto3

from local.state_dir import StateDir
from waitgate.adapters.dynamodb_directory import DynamoDbDirectory, RefKind

DIRECTORY_LOGICAL_ID = "DirectoryTable"


class NoDirectoryTableError(Exception):
    """Neither --table nor a running local stack says which table to use."""


def add_directory_parser(commands: Any) -> None:
    """The `directory` command and its three actions, on the CLI's subparsers."""
    directory = commands.add_parser("directory", help="manage approver groups and roles")
    actions = directory.add_subparsers(dest="directory_action", required=True)
    for action, text in (
        ("add-member", "grant a group membership or a role"),
        ("remove-member", "revoke a group membership or a role"),
        ("list", "list a group's members or a role's holders"),
    ):
        parser = actions.add_parser(action, help=text)
        parser.add_argument("--tenant", default="default")
        ref = parser.add_mutually_exclusive_group(required=True)
        ref.add_argument("--group")
        ref.add_argument("--role")
        parser.add_argument("--principal", required=action != "list")
        parser.add_argument("--table", help="a deployed DirectoryTable (real AWS); default: the local stack")
        parser.add_argument("--region", help="with --table: the table's region")


def run_directory(arguments: argparse.Namespace) -> int:
    try:
        directory = _directory(arguments)
    except NoDirectoryTableError as missing:
        print(f"waitgate directory: {missing}", file=sys.stderr)
        return 1
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


def _directory(arguments: argparse.Namespace) -> DynamoDbDirectory:
    if arguments.table:
        return DynamoDbDirectory(boto3.client("dynamodb", region_name=arguments.region), arguments.table)
    state_dir = StateDir.from_environment()
    described = state_dir.read_local_json() or {}
    table = described.get("tableNames", {}).get(DIRECTORY_LOGICAL_ID)
    if not table or not described.get("awsEndpointUrl"):
        raise NoDirectoryTableError(
            f"no local stack described in {state_dir.local_json} (start `waitgate dev`) and no --table given"
        )
    client = boto3.client(
        "dynamodb",
        endpoint_url=described["awsEndpointUrl"],
        region_name=described.get("region", "us-east-1"),
        aws_access_key_id="local",  # moto takes any credentials; these are not secrets
        aws_secret_access_key="local",  # noqa: S106
    )
    return DynamoDbDirectory(client, table)
