"""`waitgate inbox-backfill`: give the pending interrupts an older version wrote what the inbox's index
needs (its keys, and the summary it projects), so `GET /interrupts` and /inbox list them from the
index alone (docs/inbox.md).

With `--table` it works on a deployed InterruptsTable (real AWS, the usual credential chain), once,
after the deploy that added the index; without, on the running local stack's (which does the same by
itself when it restores kept state from an older version)."""

from __future__ import annotations

import argparse
from typing import Any

from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

DESCRIPTION = """\
Set the InboxByDeadline index's keys and the inbox summary on every pending interrupt written before
they existed (one Scan, one conditional UpdateItem per such interrupt; an interrupt that changed
meanwhile is left to its own write). Run it once after deploying the version that adds the inbox, or
the one that adds the summary: until then, the inbox does not list those written before the index,
and reads whole each one written before the summary."""
EXAMPLE = """\
example:
  waitgate inbox-backfill --table waitgate-InterruptsTable-ABC123 --dry-run"""


def add_backfill_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "inbox-backfill",
        help="index (and summarize) the pending interrupts an older version wrote",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--table", help="a deployed InterruptsTable (real AWS); default: the local stack")
    parser.add_argument("--region", help="with --table: the table's region (default: AWS_REGION)")
    parser.add_argument("--dry-run", action="store_true", help="count them, change nothing")


def run_backfill(arguments: argparse.Namespace) -> int:
    import boto3  # with what it backfills: imported when it runs, not for `--help`

    from waitgate.adapters.dynamodb_inbox_backfill import backfill_pending_index

    if arguments.table:
        client, table = boto3.client("dynamodb", region_name=arguments.region), arguments.table
    else:
        described = running_stack_description(StateDir.from_environment())
        table = described["tableNames"]["InterruptsTable"]
        client = boto3.client(
            "dynamodb",
            endpoint_url=described["awsEndpointUrl"],
            region_name=described.get("region", "us-east-1"),
            aws_access_key_id="local",  # moto takes any credentials; these are not secrets
            aws_secret_access_key="local",  # noqa: S106
        )
    count = backfill_pending_index(client, table, dry_run=arguments.dry_run)
    print(f"{count} pending interrupt(s) {'to index' if arguments.dry_run else 'indexed'} in {table}")
    return 0
