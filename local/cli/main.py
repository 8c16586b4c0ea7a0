"""The `waitgate` command: the local stack (`dev`) and the tools that talk to it."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import NoReturn

from botocore.exceptions import BotoCoreError, ClientError

from local.cli.deliveries import RedriveRefusedError, add_deliveries_parser, run_deliveries
from local.cli.dev import add_dev_parser, run_dev
from local.cli.dev_jwt import add_jwt_parser, print_dev_jwt
from local.cli.dev_metrics import add_metrics_parser, run_metrics
from local.cli.directory import ContactRefusedError, add_directory_parser, run_directory
from local.cli.inbox import NoNoticeError, add_inbox_parser, run_inbox
from local.cli.inbox_backfill import add_backfill_parser, run_backfill
from local.cli.webhooks import SourceRefusedError, add_webhooks_parser, run_webhooks
from local.standins.jwt_issuer import NoIssuerKeyError
from local.state.running_instance import NoRunningStackError

DESCRIPTION = """\
waitgate's local stack and its developer tools: run the stack, mint JWTs it accepts, read the
notifications it sent and the metrics it emitted, manage approver groups, roles and contact points,
and webhook sources, and re-drive parked deliveries.
`waitgate COMMAND --help` says more."""
EPILOG = """\
environment:
  WAITGATE_PORT       the local stack's HTTP API port (default 3000)
  WAITGATE_AWS_PORT   the local stack's embedded AWS endpoint port (default 4566)
  WAITGATE_STATE_DIR  the local stack's state directory: kept state, local.json (default .waitgate)
  WAITGATE_RECONCILE_SECONDS  the local stack's reconciler period and grace (default 10)

example:
  waitgate dev                     # in one terminal; then, in another:
  waitgate dev-inbox               # what the stack sent
  waitgate dev-metrics             # what its functions counted"""
COMMANDS = {
    "dev": run_dev,
    "dev-jwt": print_dev_jwt,
    "dev-inbox": run_inbox,
    "dev-metrics": run_metrics,
    "directory": run_directory,
    "inbox-backfill": run_backfill,
    "webhooks": run_webhooks,
    "deliveries": run_deliveries,
}
# What a command may fail with that is the user's situation, not a bug: said in one line, exit 1.
ONE_LINE_ERRORS = (
    NoRunningStackError,
    NoNoticeError,
    NoIssuerKeyError,
    ContactRefusedError,
    SourceRefusedError,
    RedriveRefusedError,
    BotoCoreError,
    ClientError,
)


class OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line and exit 1, like every other error of the command."""

    def error(self, message: str) -> NoReturn:
        self.exit(1, f"{self.prog}: {message} (see: {self.prog} --help)\n")


def package_version() -> str:
    try:
        return version("waitgate")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed: pip install -e .)"


def parser() -> argparse.ArgumentParser:
    top = OneLineParser(
        prog="waitgate",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action="version", version=f"waitgate {package_version()}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    add_dev_parser(commands)
    add_jwt_parser(commands)
    add_inbox_parser(commands)
    add_metrics_parser(commands)
    add_directory_parser(commands)
    add_backfill_parser(commands)
    add_webhooks_parser(commands)
    add_deliveries_parser(commands)
    return top


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.command is None:
        print(
            f"waitgate: no command given: one of {', '.join(COMMANDS)} (see: waitgate --help)",
            file=sys.stderr,
        )
        return 1
    try:
        return COMMANDS[arguments.command](arguments)
    except ONE_LINE_ERRORS as error:
        print(f"waitgate {arguments.command}: {_one_line(error)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `waitgate dev-inbox | head`: the reader has all it wanted
        sys.stderr.close()
        return 0


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
