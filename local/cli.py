"""`waitgate dev` (the local stack) and `waitgate dev-jwt` (a token the local stack accepts)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from types import FrameType

from local.directory_cli import add_directory_parser, run_directory
from local.inbox_cli import add_inbox_parser, run_inbox
from local.jwt_issuer import LocalIssuer, NoIssuerKeyError, caller_claims
from local.running_instance import AlreadyRunningError
from local.state_dir import StateDir

READY_LINE = "waitgate local stack ready: {api_url}"


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    arguments = parser.parse_args(argv)
    if arguments.command == "dev":
        return run_dev(arguments.verbose)
    if arguments.command == "dev-jwt":
        return print_dev_jwt(arguments)
    if arguments.command == "directory":
        return run_directory(arguments)
    if arguments.command == "dev-inbox":
        return run_inbox(arguments)
    parser.print_help()
    return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="waitgate", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    dev = commands.add_parser("dev", help="run the local stack (moto, handlers, HTTP API)")
    dev.add_argument("--verbose", action="store_true", help="debug logs on stderr")
    add_directory_parser(commands)
    add_inbox_parser(commands)
    token = commands.add_parser("dev-jwt", help="print a JWT the running local stack accepts")
    token.add_argument("--sub", required=True)
    token.add_argument("--scope", default="", help='space-separated, e.g. "approvals:respond"')
    token.add_argument("--tenant")
    token.add_argument("--groups", default="", help="comma-separated")
    token.add_argument("--roles", default="", help="comma-separated")
    token.add_argument("--ttl", type=int, default=3600, help="lifetime in seconds")
    return parser


def run_dev(verbose: bool = False) -> int:
    """Start the stack, print the ready line, serve until SIGINT or SIGTERM."""
    from local.stack import LocalStack, PortInUseError, StackSettings

    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # Debug only for our own loggers: botocore's debug output would show task tokens.
    logging.getLogger("local").setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("werkzeug").setLevel(logging.INFO if verbose else logging.WARNING)
    logging.getLogger("botocore").setLevel(logging.WARNING)
    stopping = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    stack = LocalStack(StackSettings.from_environment())
    try:
        stack.start()
    except (AlreadyRunningError, PortInUseError) as refusal:
        stack.stop()
        print(f"waitgate dev: {refusal}", file=sys.stderr)
        return 1
    except BaseException:
        stack.stop()
        raise
    print(READY_LINE.format(api_url=stack.description["apiUrl"]), flush=True)
    while not stopping.wait(0.5):
        pass
    logging.getLogger(__name__).info("stopping the local stack")
    stack.stop()
    return 0


def print_dev_jwt(arguments: argparse.Namespace) -> int:
    state_dir = StateDir.from_environment()
    try:
        issuer = LocalIssuer.of_running_stack(state_dir)
    except NoIssuerKeyError as missing:
        print(f"waitgate dev-jwt: {missing}", file=sys.stderr)
        return 1
    tenant_claim = (state_dir.read_local_json() or {}).get("jwt", {}).get("tenantClaim", "tenant")
    claims = caller_claims(
        sub=arguments.sub,
        scope=arguments.scope,
        tenant=arguments.tenant,
        tenant_claim=tenant_claim,
        groups=[g for g in arguments.groups.split(",") if g],
        roles=[r for r in arguments.roles.split(",") if r],
    )
    print(issuer.mint(claims, ttl_seconds=arguments.ttl))
    return 0
