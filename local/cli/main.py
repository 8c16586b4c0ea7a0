"""The `waitgate` command: the local stack (`dev`) and the tools that talk to it."""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from typing import Any, NoReturn

DESCRIPTION = """\
waitgate's local stack and its developer tools: run the stack, mint JWTs it accepts, read the
notifications it sent and the metrics it emitted, manage approver groups, roles and contact points,
webhook sources and webhooks-out subscriptions, and re-drive parked deliveries.
`waitgate COMMAND --help` says more."""
EPILOG = """\
environment:
  WAITGATE_PORT       the local stack's HTTP API port (default 3000)
  WAITGATE_AWS_PORT   the local stack's embedded AWS endpoint port (default 4566)
  WAITGATE_STATE_DIR  the local stack's state directory: kept state, local.json (default .waitgate)
  WAITGATE_RECONCILE_SECONDS  the local stack's reconciler period and grace (default 10)
  WAITGATE_SLACK_PORT the local Slack Web API stand-in's port (default: a free one)
  WAITGATE_LOG_FORMAT the local stack's log on the terminal: text or json (default: text on a terminal)

example:
  waitgate dev                     # in one terminal; then, in another:
  waitgate dev-inbox               # what the stack sent
  waitgate dev-metrics             # what its functions counted"""


@dataclass(frozen=True)
class Command:
    """A command, named without importing it: only the command that runs is imported (a command's
    module pulls in boto3, moto or the stack), so `waitgate --help` and `--version` start at once."""

    module: str
    add_parser: str
    run: str
    summary: str  # its line in `waitgate --help`; the module's own parser says the same (a test checks)
    calls_aws: bool = True  # False: it makes no AWS call, so botocore is neither checked nor imported


COMMANDS = {
    "dev": Command(
        "local.cli.dev",
        "add_dev_parser",
        "run_dev",
        "run the local stack (moto, the handlers, the HTTP API) until Ctrl-C",
    ),
    "dev-jwt": Command(
        "local.cli.dev_jwt",
        "add_jwt_parser",
        "print_dev_jwt",
        "print a JWT the running local stack accepts",
        calls_aws=False,
    ),
    "dev-inbox": Command(
        "local.cli.inbox",
        "add_inbox_parser",
        "run_inbox",
        "list the notifications the local stack sent, with their links",
        calls_aws=False,  # but for what it says of a run that names nobody (local.cli.unasked)
    ),
    "dev-metrics": Command(
        "local.cli.dev_metrics",
        "add_metrics_parser",
        "run_metrics",
        "sum up the metrics (EMF lines) the local stack's functions emitted",
        calls_aws=False,
    ),
    "directory": Command(
        "local.cli.directory",
        "add_directory_parser",
        "run_directory",
        "manage approver groups and roles (the local stack's, or a deployed table's)",
    ),
    "ledger": Command(
        "local.cli.ledger",
        "add_ledger_parser",
        "run_ledger",
        "export and verify the tamper-evident decision ledger",
    ),
    "inbox-backfill": Command(
        "local.cli.inbox_backfill",
        "add_backfill_parser",
        "run_backfill",
        "index (and summarize) the pending interrupts an older version wrote",
    ),
    "webhooks": Command(
        "local.cli.webhooks",
        "add_webhooks_parser",
        "run_webhooks",
        "manage webhook sources and read their events (the local stack's, or a deployed one's)",
    ),
    "subscriptions": Command(
        "local.cli.subscriptions",
        "add_subscriptions_parser",
        "run_subscriptions",
        "manage webhooks out: subscriptions, their delivery logs, redrive",
        calls_aws=False,
    ),
    "deliveries": Command(
        "local.cli.deliveries",
        "add_deliveries_parser",
        "run_deliveries",
        "show and re-drive parked deliveries (the local stack's, or a deployed one's)",
    ),
    "mcp": Command(
        "local.cli.mcp_forward",
        "add_mcp_parser",
        "run_mcp",
        "serve waitgate's MCP tools on stdio, forwarded to a stack's /mcp",
    ),
    "smoke": Command(
        "local.cli.smoke",
        "add_smoke_parser",
        "run_smoke",
        "check a deployed stack (or the local stack) end to end: link, webhook, durable, alarms",
    ),
}
# What a command may fail with that is the user's situation, not a bug: said in one line, exit 1.
# Named by module: an error whose module was never imported cannot have been raised.
ONE_LINE_ERRORS = (
    ("local.state.running_instance", "NoRunningStackError"),
    ("local.cli.inbox", "NoNoticeError"),
    ("local.standins.jwt_issuer", "NoIssuerKeyError"),
    ("local.cli.directory", "ContactRefusedError"),
    ("local.cli.directory_delegations", "DelegationRefusedError"),
    ("local.cli.webhooks", "SourceRefusedError"),
    ("local.cli.deliveries", "RedriveRefusedError"),
    ("local.cli.ledger", "LedgerFileError"),
    ("local.cli.subscriptions", "SubscriptionRefusedError"),
    ("botocore.exceptions", "BotoCoreError"),
    ("botocore.exceptions", "ClientError"),
)


class OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line and exit 1, like every other error of the command."""

    def error(self, message: str) -> NoReturn:
        self.exit(1, f"{self.prog}: {message} (see: {self.prog} --help)\n")


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # ~0.1 s: only for --version

    try:
        return version("waitgate")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed: pip install -e .)"


class VersionAction(argparse.Action):
    """`--version`, its version read only when it is asked for (argparse's own reads it up front)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **_: Any) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the version and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> NoReturn:
        print(f"waitgate {package_version()}")  # on stdout, as argparse's own version action
        parser.exit(0)


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The CLI's parser: the command `argv` names in full (its module imported), the others by name."""
    top = OneLineParser(
        prog="waitgate",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action=VersionAction)
    commands = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    named = _command_named(sys.argv[1:] if argv is None else argv)
    for name, command in COMMANDS.items():
        if name == named:
            getattr(importlib.import_module(command.module), command.add_parser)(commands)
        else:
            commands.add_parser(name, help=command.summary, add_help=False)
    return top


def _command_named(argv: list[str]) -> str | None:
    """The command the arguments name: the first one that is not an option."""
    first = next((argument for argument in argv if not argument.startswith("-")), None)
    return first if first in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    arguments = parser(argv).parse_args(argv)
    if arguments.command is None:
        print(
            f"waitgate: no command given: one of {', '.join(COMMANDS)} (see: waitgate --help)",
            file=sys.stderr,
        )
        return 1
    command = COMMANDS[arguments.command]
    if command.calls_aws:
        from local.patches import strict_requests  # botocore: only for a command that calls AWS

        strict_requests.install()  # every command's AWS calls refused where AWS would refuse them
    run: Any = getattr(importlib.import_module(command.module), command.run)
    try:
        return int(run(arguments))
    except BrokenPipeError:  # `waitgate dev-inbox | head`: the reader has all it wanted
        sys.stderr.close()
        return 0
    except Exception as error:
        if not isinstance(error, _one_line_errors()):
            raise
        print(f"waitgate {arguments.command}: {_one_line(error)}", file=sys.stderr)
        return 1


def _one_line_errors() -> tuple[type[BaseException], ...]:
    loaded = (getattr(sys.modules[module], name) for module, name in ONE_LINE_ERRORS if module in sys.modules)
    return tuple(loaded)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
