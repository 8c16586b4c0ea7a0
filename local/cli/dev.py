"""`waitgate dev`: the local stack in the foreground, until Ctrl-C (SIGINT), SIGTERM or SIGHUP."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any, NoReturn

from local.cli import dev_console
from local.cli.dev_console import FORMAT_VARIABLE, LOG_FORMATS, default_format
from local.cli.dev_log import configure_logging
from local.patches import MotoVersionError
from local.state.kept_state import KeptStateUnreadableError
from local.state.running_instance import AlreadyRunningError
from local.state.state_dir import StateDir

READY_LINE = "waitgate local stack ready: {api_url}"
DESCRIPTION = """\
Run waitgate on this machine with no AWS account and no Docker: template.yaml's tables, topics,
queues, secrets, functions and state machines on an embedded moto server, the handlers in this
process, and the HTTP API with its JWT authorizer. It prints one line saying what state it found,
then `waitgate local stack ready: <apiUrl>`, and writes local.json (the API URL, the AWS endpoint,
the state machine ARNs, the local JWT issuer) to the state directory. The functions' log lines are
shown readably on a terminal (--log-format) and kept as JSON in the state directory's stack.log.

The state (runs, executions waiting on an interrupt, directory members, the inbox, the signing keys,
the JWT issuer key) is kept in the state directory across restarts; --fresh starts empty."""
EXAMPLE = """\
environment:
  WAITGATE_PORT       the HTTP API's port (default 3000)
  WAITGATE_AWS_PORT   the embedded AWS endpoint's port (default 4566)
  WAITGATE_STATE_DIR  the state directory (default .waitgate)
  WAITGATE_RECONCILE_SECONDS  how often the reconciler passes, and its grace (default 10)
  WAITGATE_SLACK_PORT the local Slack Web API stand-in's port (default: a free one)
  WAITGATE_LOG_FORMAT the functions' log on the terminal: text or json (default: text on a terminal)

example:
  WAITGATE_PORT=3001 waitgate dev --fresh"""


def add_dev_parser(commands: Any) -> None:
    dev = commands.add_parser(
        "dev",
        help="run the local stack (moto, the handlers, the HTTP API) until Ctrl-C",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dev.add_argument("--fresh", action="store_true", help="forget the kept state and start empty")
    dev.add_argument("--verbose", action="store_true", help="debug logs on stderr, moto's included")
    dev.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        help="the functions' log on this terminal: text (readable lines, the default on a terminal) or "
        f"json (as on Lambda, the default on a pipe; or ${FORMAT_VARIABLE}); stack.log keeps the JSON",
    )


def _say(line: str) -> None:
    print(f"waitgate dev: {line}", flush=True)


def run_dev(arguments: argparse.Namespace) -> int:
    """Start the stack, print its state line and the ready line, serve until a stop signal."""
    log_format = arguments.log_format or default_format(sys.stdout)
    dev_console.install(StateDir.from_environment().stack_log, log_format)  # before a handler loads
    from local.stack import LocalStack, StackSettings
    from local.standins.held_ports import PortInUseError

    configure_logging(arguments.verbose, log_format)
    stopping = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    for stop_signal in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop_signal, request_stop)
    stack = LocalStack(StackSettings.from_environment(fresh=arguments.fresh), announce=_say)
    try:
        stack.start()
    except (AlreadyRunningError, PortInUseError, KeptStateUnreadableError, MotoVersionError) as refusal:
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
    _end_process_now()


def _end_process_now() -> NoReturn:
    """Exit 0 with everything said, skipping the interpreter's teardown: the stack is stopped, its
    state saved and its child ended, and collecting the heap moto and boto3 leave behind would
    take seconds more (tens on a loaded machine) for nothing."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
