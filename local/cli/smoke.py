"""`waitgate smoke [--stack-name NAME]` (`make smoke`): after a deploy, one of each path a user's run
takes, through the stack as deployed (docs/deploy.md, "After the deploy: make smoke").

With `--stack-name` it reads the stack's outputs and resources from CloudFormation (the usual credential
chain: the operator's, who may read the signing secret and write the directory table); without, it
checks the local stack: the one running on the state directory, else a fresh one of its own in a
temporary directory, stopped at the end. Exit 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from local.state.running_instance import NoRunningStackError, running_stack_description
from local.state.state_dir import StateDir

if TYPE_CHECKING:  # the checks and targets (boto3, the HTTP clients) load when the smoke runs
    from local.smoke.targets import SmokeTarget

DEFAULT_BOUND_SECONDS = 180.0
EPILOG = """\
what it does:
  1. an approval through the generic workflow, decided by its signed link (page, then Accept)
  2. an external-event wait resumed by a signed webhook (the source waitgate-smoke, created once)
  3. an approval in the sample durable function, by its signed link (when the samples are deployed)
  4. every alarm the template declares exists
Its runs are in the tenant waitgate-smoke and name the approver waitgate-smoke (no contact point).

example:
  waitgate smoke --stack-name waitgate-prod       # after sam deploy (make smoke STACK_NAME=...)
  waitgate smoke                                  # the local stack (make smoke)"""


def add_smoke_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "smoke",
        help="check a deployed stack (or the local stack) end to end: link, webhook, durable, alarms",
        description=__doc__.split("\n\n", 1)[0].replace("\n", " ") if __doc__ else None,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--stack-name", help="a deployed stack (default: the local stack)")
    parser.add_argument("--region", help="the deployed stack's region (default: the usual AWS settings)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_BOUND_SECONDS,
        help=f"seconds each wait may take (default {DEFAULT_BOUND_SECONDS:.0f})",
    )


def run_smoke(arguments: argparse.Namespace) -> int:
    from local.smoke.targets import TargetError

    with ExitStack() as resources:
        try:
            target = _target(arguments, resources)
        except TargetError as error:
            print(f"waitgate smoke: {error}", file=sys.stderr)
            return 1
        return report(target, arguments.timeout)


def report(target: SmokeTarget, bound: float) -> int:
    """Every check, a line each as it ends; 1 when one failed."""
    from local.smoke.checks import CHECKS, CheckFailedError
    from local.smoke.targets import SMOKE_TENANT

    print(f"waitgate smoke: {target.name} ({target.api_url}), tenant {SMOKE_TENANT}", flush=True)
    failed = 0
    for check in CHECKS:
        started = time.monotonic()
        try:
            said, mark = check.run(target, bound), "ok  "
        except CheckFailedError as error:
            said, mark, failed = str(error), "FAIL", failed + 1
        print(f"  {mark} {check.name:<24} {time.monotonic() - started:6.1f} s  {said}", flush=True)
    print(f"waitgate smoke: {'all passed' if not failed else f'{failed} of {len(CHECKS)} failed'}")
    return 1 if failed else 0


def _target(arguments: argparse.Namespace, resources: ExitStack) -> SmokeTarget:
    from local.smoke.targets import deployed_target, local_target

    if arguments.stack_name:
        return deployed_target(arguments.stack_name, arguments.region)
    try:
        return local_target(running_stack_description(StateDir.from_environment()))
    except NoRunningStackError:
        pass
    from local.stack_process import stack_environment, started_stack

    print("waitgate smoke: no local stack is running here: starting one of its own", flush=True)
    state_dir = Path(resources.enter_context(tempfile.TemporaryDirectory(prefix="waitgate-smoke-")))
    stack = resources.enter_context(started_stack(state_dir, stack_environment(state_dir)))
    return local_target(stack.description)
